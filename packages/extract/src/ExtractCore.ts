/**
 * The extractor without Effect: {@link extractAsync} and {@link extractSync} of `Extract`, whose failures are plain
 * values (a reason and a message) rather than `WebSearchError.ResponseInvalid`. What an extraction worker thread
 * loads: `Extract` brings effect's `Effect` and (through `WebSearchError`) its `Schema`, about 9 MiB of live heap
 * and 20 MiB of RSS in each worker that would never use them. Applications use `Extract`.
 *
 * @since 0.2.0
 */
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Either from "effect/Either"
import * as Charset from "./Charset.js"
import * as ContentKind from "./ContentKind.js"
import * as Feed from "./Feed.js"
import * as Json from "./Json.js"
import * as MainContent from "./MainContent.js"
import * as Pdf from "./Pdf.js"
import * as PlainText from "./PlainText.js"
import * as CompactText from "./internal/compactText.js"

/**
 * A fetched body.
 *
 * @since 0.2.0
 * @category models
 */
export interface Input {
  readonly body: Uint8Array
  /** The raw Content-Type header, which may carry a charset. */
  readonly contentType: string | undefined
  /** The final URL, for resolving relative links and for sniffing the kind (`.md`). */
  readonly url: string
}

/**
 * The extracted document.
 *
 * @since 0.2.0
 * @category models
 */
export interface Document {
  readonly kind: ContentKind.Kind
  /** `""` when the body has none. */
  readonly title: string
  /** The model-readable content. */
  readonly markdown: string
  readonly byline: string | undefined
  readonly publishedTime: string | undefined
  readonly siteName: string | undefined
  readonly lang: string | undefined
  readonly excerpt: string | undefined
}

/**
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /** Cap on the length of `markdown`, in UTF-16 code units; a surrogate pair is never split. */
  readonly maxChars?: number
  /** Keep figure captions, photo credits and slide counters of HTML pages (dropped by default). */
  readonly keepCaptions?: boolean
}

const none = { byline: undefined, publishedTime: undefined, siteName: undefined, lang: undefined, excerpt: undefined }

/**
 * Cuts text to at most `max` code units, preferring the last whitespace in the final stretch so a word is not
 * cut in half, and never leaving half a surrogate pair.
 *
 * @since 0.2.0
 * @category encoding
 */
export const truncate = (text: string, max: number | undefined): string => {
  if (max === undefined || !(max >= 0) || text.length <= max) return text
  let end = Math.floor(max)
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  const space = text.slice(Math.max(0, end - 200), end).search(/\s\S*$/)
  if (space >= 0 && end > 200) end = end - 200 + space
  return text.slice(0, end).trimEnd()
}

/**
 * Whether a Content-Type names a body `extract` can read, or one it sniffs (absent, `application/octet-stream`).
 * A sniffed body may still turn out to be binary and be refused.
 *
 * @since 0.2.0
 * @category guards
 */
export const supportedContentType = (contentType: string | undefined): boolean =>
  ContentKind.fromMediaType(ContentKind.mediaType(contentType)) !== undefined

/**
 * Why a body could not be extracted: the reason and message of the `ResponseInvalid` that `Extract` makes of it.
 *
 * @since 0.2.0
 * @category models
 */
export interface Failure {
  readonly reason: WebSearchError.ResponseInvalidReason
  readonly message: string
}

const unsupported = (what: string): Failure => ({
  reason: "unsupported_content_type",
  message: `cannot extract text from ${what} (supported: HTML, XHTML, text, markdown, JSON, XML/RSS/Atom, PDF)`
})

const empty = (kind: ContentKind.Kind): Failure => ({
  reason: "empty_content",
  message: `the ${kind} body holds no readable text`
})

const describe = (contentType: string | undefined): string => {
  const type = ContentKind.mediaType(contentType)
  return type === undefined ? "a binary body without a Content-Type" : `"${type.slice(0, 100)}"`
}

const finish = (options: Options | undefined, doc: Document): Either.Either<Document, Failure> => {
  const markdown = truncate(doc.markdown, options?.maxChars)
  if (markdown.trim() === "") return Either.left(empty(doc.kind))
  // Compact: a document is kept (in a cache) far longer than it took to build.
  return Either.right({ ...doc, markdown: CompactText.compact(markdown) })
}

const html = (input: Input, text: string, options: Options | undefined): Document => {
  const { markdown, metadata, title } = MainContent.fromHtml(text, {
    url: input.url,
    keepCaptions: options?.keepCaptions
  })
  return { kind: "html", ...metadata, title, markdown }
}

const sync = (input: Input, kind: Exclude<ContentKind.Kind, "pdf">, options: Options | undefined): Document => {
  switch (kind) {
    case "html": {
      return html(input, Charset.decode(input.body, input.contentType, "html").text, options)
    }
    case "xml": {
      const text = Charset.decode(input.body, input.contentType, "xml").text
      if (Feed.isXhtml(text)) return html(input, text, options)
      if (Feed.isFeed(text)) {
        const feed = Feed.fromXml(text, input.url)
        if (feed !== undefined) return { kind: "xml", ...none, ...feed }
      }
      return { kind: "xml", ...none, ...Feed.genericXml(PlainText.clean(text)) }
    }
    case "json": {
      const text = Charset.decode(input.body, input.contentType, "none").text
      const markdown = Json.toMarkdown(text)
      return markdown === undefined
        ? { kind: "text", ...none, title: "", markdown: PlainText.clean(text) }
        : { kind: "json", ...none, title: "", markdown }
    }
    case "markdown": {
      const { body, title } = PlainText.frontMatter(
        PlainText.clean(Charset.decode(input.body, input.contentType, "none").text)
      )
      return { kind: "markdown", ...none, title: title ?? PlainText.markdownTitle(body), markdown: body.trim() }
    }
    case "text": {
      const text = PlainText.clean(Charset.decode(input.body, input.contentType, "none").text)
      return { kind: "text", ...none, title: "", markdown: text }
    }
  }
}

const failure = (error: unknown): Failure => ({
  reason: "parse_failed",
  message: `the body could not be parsed: ${(error instanceof Error ? `${error.name}: ${error.message}` : "unknown error").slice(0, 200)}`
})

/**
 * Extracts every kind except PDF synchronously (PDF parsing is asynchronous in every maintained pure-JS engine;
 * a PDF body gets `ResponseInvalid/unsupported_content_type` naming {@link extractAsync}). CPU-bound: measured on
 * a shared 2-vCPU machine, a real 5 MiB news page took 0.5-0.6 s, a synthetic 5.8 MiB article 1.9 s and a flat
 * 1 MiB page of 6 600 paragraphs 1.4 s (Readability is superlinear there), with a few hundred MiB of DOM; run big
 * bodies in a worker. Never throws.
 *
 * @since 0.2.0
 * @category utils
 */
export const extractSync = (input: Input, options?: Options): Either.Either<Document, Failure> => {
  try {
    const kind = ContentKind.classify(input.contentType, input.body, input.url)
    if (kind === undefined) return Either.left(unsupported(describe(input.contentType)))
    if (kind === "pdf") return Either.left(unsupported("a PDF synchronously (use extractAsync)"))
    return finish(options, sync(input, kind, options))
  } catch (error) {
    // Anything a parser throws on hostile input (including stack exhaustion) is the body's fault, not ours.
    return Either.left(failure(error))
  }
}

const pdf = async (
  input: Input,
  options: Options | undefined,
  signal: AbortSignal | undefined
): Promise<Either.Either<Document, Failure>> => {
  const read = await Pdf.fromBytes(input.body, { maxChars: options?.maxChars, signal })
  if (read instanceof Pdf.PdfError) {
    return Either.left({ reason: "parse_failed", message: read.message })
  }
  return finish(options, {
    kind: "pdf",
    title: read.title,
    markdown: read.markdown,
    byline: read.author,
    publishedTime: read.createdAt,
    siteName: undefined,
    lang: read.lang,
    excerpt: undefined
  })
}

/**
 * Whether a body classifies as PDF (the one kind extracted only asynchronously); `false` when classifying throws.
 *
 * @since 0.2.0
 * @category guards
 */
export const isPdf = (input: Input): boolean => {
  try {
    return ContentKind.classify(input.contentType, input.body, input.url) === "pdf"
  } catch {
    return false
  }
}

/**
 * Extracts any supported kind, PDF included, as a plain promise that never rejects: what a worker thread calls.
 *
 * @since 0.2.0
 * @category utils
 */
export const extractAsync = async (
  input: Input,
  options?: Options & { readonly signal?: AbortSignal }
): Promise<Either.Either<Document, Failure>> => {
  if (!isPdf(input)) return extractSync(input, options)
  try {
    return await pdf(input, options, options?.signal)
  } catch (error) {
    return Either.left(failure(error))
  }
}
