/**
 * Paging of fetched pages: a `fetchUrls` request may ask for `maxLength` characters of each page from
 * `startIndex` on. A result whose content continues says so with `totalLength` (the whole page's length) and
 * `nextStartIndex` (where the next page starts); the last page has no `nextStartIndex`. Pages are verbatim slices
 * of the page's content: read from 0 and on through each `nextStartIndex`, they cover it exactly once, and never
 * split a surrogate pair. Lengths and offsets are in UTF-16 code units, as JavaScript's `String#length` counts.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import * as Schema from "effect/Schema"
import { hardCapChars } from "./contentLimits.js"

/**
 * The fewest characters a page may hold: two code units always hold at least one whole code point, so every page
 * that is not past the end makes progress without splitting a surrogate pair.
 *
 * @since 0.2.0
 * @category constants
 */
export const minMaxLength = 2

/**
 * The most characters a page may hold, and the page size when a request names none: the content hard cap, so a
 * page longer than that is paged rather than cut.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxMaxLength = hardCapChars

/**
 * The largest `startIndex` accepted: far beyond any page the fetchers read, and a safe integer.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxStartIndex = 1_000_000_000

/**
 * Characters per result: an integer from {@link minMaxLength} to {@link maxMaxLength}.
 *
 * @since 0.2.0
 * @category schemas
 */
export const MaxLength = Schema.Int.pipe(
  Schema.between(minMaxLength, maxMaxLength, {
    message: () => `maxLength must be an integer from ${minMaxLength} to ${maxMaxLength}`
  })
).annotations({
  description: `Characters per result (${minMaxLength}–${maxMaxLength}); a longer page is served in pages`
})

/**
 * The character offset into each page's content where the page served starts: an integer from 0 to
 * {@link maxStartIndex}; 0 when not given.
 *
 * @since 0.2.0
 * @category schemas
 */
export const StartIndex = Schema.Int.pipe(
  Schema.between(0, maxStartIndex, {
    message: () => `startIndex must be an integer from 0 to ${maxStartIndex}`
  })
).annotations({
  description: "Character offset into each page's content to start from (0 when not given; a result's nextStartIndex)"
})

/**
 * Which part of each page a request asks for.
 *
 * @since 0.2.0
 * @category models
 */
export interface Window {
  readonly startIndex: number
  readonly maxLength: number
}

/**
 * The window of a request that names neither field: the whole page, up to the hard cap.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultWindow: Window = { startIndex: 0, maxLength: maxMaxLength }

/**
 * One page of a content: the slice `[start, end)` of a content of `totalLength` code units; `end` is
 * `totalLength` on the last page (and past the end, where the slice is empty).
 *
 * @since 0.2.0
 * @category models
 */
export interface Page {
  readonly content: string
  readonly start: number
  readonly end: number
  readonly totalLength: number
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/** Whether a cut at `at` would separate a surrogate pair. */
const splitsPair = (content: string, at: number): boolean =>
  at > 0 && at < content.length && isHigh(content.charCodeAt(at - 1)) && isLow(content.charCodeAt(at))

/**
 * The page of `content` a window asks for. A start inside a surrogate pair moves back to the pair's start; an
 * end that would split a pair moves back before it (a window of at least two code units always keeps one code
 * point). A start at or past the end gives an empty last page.
 *
 * @since 0.2.0
 * @category combinators
 */
export const page = (content: string, window: Window): Page => {
  const totalLength = content.length
  const maxLength = Math.max(minMaxLength, Math.floor(window.maxLength))
  let start = Math.max(0, Math.floor(window.startIndex))
  if (start >= totalLength) return { content: "", start: totalLength, end: totalLength, totalLength }
  if (splitsPair(content, start)) start--
  let end = Math.min(totalLength, start + maxLength)
  if (splitsPair(content, end)) end--
  return { content: content.slice(start, end), start, end, totalLength }
}

/**
 * The paging fields of a result for a page: none when the page is the whole content, else `totalLength`, and
 * `nextStartIndex` unless it is the last page.
 *
 * @since 0.2.0
 * @category combinators
 */
export const fields = (served: Page): { readonly totalLength?: number; readonly nextStartIndex?: number } =>
  served.start === 0 && served.end === served.totalLength
    ? {}
    : served.end < served.totalLength
      ? { totalLength: served.totalLength, nextStartIndex: served.end }
      : { totalLength: served.totalLength }

/**
 * Serves a result's page: its content replaced by the window's slice, with the paging fields set (and any it
 * carried dropped when the page is the whole content).
 *
 * @since 0.2.0
 * @category combinators
 */
export const apply = <A extends { readonly content: string }>(
  result: A,
  window: Window
): A & { readonly totalLength?: number; readonly nextStartIndex?: number } => {
  const served = page(result.content, window)
  const {
    nextStartIndex: _next,
    totalLength: _total,
    ...rest
  } = result as A & {
    readonly totalLength?: number
    readonly nextStartIndex?: number
  }
  return { ...rest, content: served.content, ...fields(served) } as never
}

/**
 * Where a result's content starts in its page: 0 for a whole content, else derived from its paging fields.
 *
 * @since 0.2.0
 * @category utils
 */
export const startOf = (result: {
  readonly content: string
  readonly totalLength?: number | undefined
  readonly nextStartIndex?: number | undefined
}): number =>
  result.totalLength === undefined
    ? 0
    : Math.max(0, (result.nextStartIndex ?? result.totalLength) - result.content.length)
