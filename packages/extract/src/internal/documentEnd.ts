/**
 * The last step every extraction shares, whatever the kind: the `maxChars` cut, the refusal of a document with no
 * text, the compacted string, and the failure values (`ExtractPlain` and `ExtractCore` both end here).
 */
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Either from "effect/Either"
import type * as ContentKind from "./contentKind.js"
import * as CompactText from "./compactText.js"

/** Why a body could not be extracted (`ExtractCore.Failure`). */
export interface Failure {
  readonly reason: WebSearchError.ResponseInvalidReason
  readonly message: string
}

/** The metadata a body without a document head has. */
export const none = {
  byline: undefined,
  publishedTime: undefined,
  siteName: undefined,
  lang: undefined,
  excerpt: undefined
} as const

/** `ExtractCore.truncate`. */
export const truncate = (text: string, max: number | undefined): string => {
  if (max === undefined || !(max >= 0) || text.length <= max) return text
  let end = Math.floor(max)
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  const space = text.slice(Math.max(0, end - 200), end).search(/\s\S*$/)
  if (space >= 0 && end > 200) end = end - 200 + space
  return text.slice(0, end).trimEnd()
}

export const unsupported = (what: string): Failure => ({
  reason: "unsupported_content_type",
  message: `cannot extract text from ${what} (supported: HTML, XHTML, text, markdown, JSON, XML/RSS/Atom, PDF)`
})

const empty = (kind: ContentKind.Kind): Failure => ({
  reason: "empty_content",
  message: `the ${kind} body holds no readable text`
})

/** Anything a parser throws on hostile input (stack exhaustion included) is the body's fault, not ours. */
export const parseFailed = (error: unknown): Failure => ({
  reason: "parse_failed",
  message: `the body could not be parsed: ${(error instanceof Error ? `${error.name}: ${error.message}` : "unknown error").slice(0, 200)}`
})

/** Cuts the markdown to `maxChars`, refuses a document without text and compacts the rest. */
export const finish = <D extends { readonly kind: ContentKind.Kind; readonly markdown: string }>(
  maxChars: number | undefined,
  doc: D
): Either.Either<D, Failure> => {
  const markdown = truncate(doc.markdown, maxChars)
  if (markdown.trim() === "") return Either.left(empty(doc.kind))
  // Compact: a document is kept (in a cache) far longer than it took to build.
  return Either.right({ ...doc, markdown: CompactText.compact(markdown) })
}
