// The wire format of the `Exa` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Fields from "./resultFields.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Exa's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 100

/**
 * The most characters of page text asked for per search result: enough for a useful snippet without paying for
 * (and reading) whole pages the caller may never look at.
 *
 * @since 0.1.0
 * @category constants
 */
export const searchTextChars = 3000

/**
 * The body of `POST /search` for one keyword, with the caller's search options in Exa's parameters (`now`, in
 * milliseconds, is where a time range counts back from).
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (
  keyword: string,
  maxResults: number,
  options: SearchOptions.SearchOptions = {},
  now: number = Date.now()
) => ({
  query: keyword,
  type: "auto",
  numResults: Http.clamp(maxResults, 1, maxResultsLimit),
  contents: { text: { maxCharacters: searchTextChars } },
  ...Options.defined({
    startPublishedDate:
      options.timeRange === undefined ? undefined : Options.since(options.timeRange, now).toISOString(),
    includeDomains: Options.nonEmpty(options.includeDomains),
    excludeDomains: Options.nonEmpty(options.excludeDomains),
    userLocation: options.country,
    category: options.topic === "news" ? "news" : undefined
  })
})

/**
 * The body of `POST /contents` for one URL: its full text.
 *
 * @since 0.1.0
 * @category encoding
 */
export const contentsBody = (url: string) => ({ urls: [url], text: true })

/**
 * One result of `/search` or `/contents`, as far as websearch reads it (`title` may be null; `url` is missing in
 * some legacy answers where `id` holds the URL).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Result = Schema.Struct({
  id: AnswerFields.OptionalText,
  url: AnswerFields.OptionalText,
  title: AnswerFields.OptionalText,
  text: AnswerFields.OptionalText,
  highlights: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  summary: AnswerFields.OptionalText,
  publishedDate: AnswerFields.OptionalText,
  author: AnswerFields.OptionalText
})

/**
 * The answer of `POST /search`. An `error` next to no results is read as a refusal in a 200 body.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  requestId: AnswerFields.OptionalText,
  results: Schema.optionalWith(Schema.NullOr(Schema.Array(Result)), { default: () => [] }),
  error: Schema.optional(Schema.NullOr(Schema.Unknown)),
  message: Schema.optional(Schema.NullOr(Schema.Unknown)),
  tag: Schema.optional(Schema.NullOr(Schema.Unknown))
})

/**
 * One entry of `/contents`' `statuses`: parsed loosely, since the documented shape (`error.tag`,
 * `error.httpStatusCode`) and Exa's own fixtures (`error.tag: "not_found"`, `source`) differ.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ContentsStatus = Schema.Struct({
  id: AnswerFields.OptionalText,
  status: AnswerFields.OptionalText,
  error: Schema.optional(
    Schema.NullOr(
      Schema.Union(
        Schema.String,
        Schema.Struct({
          tag: AnswerFields.OptionalText,
          httpStatusCode: AnswerFields.OptionalNumber
        })
      )
    )
  )
})

/**
 * The answer of `POST /contents`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ContentsAnswer = Schema.Struct({
  requestId: AnswerFields.OptionalText,
  results: Schema.optionalWith(Schema.NullOr(Schema.Array(Result)), { default: () => [] }),
  statuses: Schema.optionalWith(Schema.NullOr(Schema.Array(ContentsStatus)), { default: () => [] })
})

/**
 * The content of one result: its text, else its highlights, else its summary.
 *
 * @since 0.1.0
 * @category encoding
 */
export const contentOf = (result: typeof Result.Type): string => {
  const text = Fields.tidy(result.text ?? "")
  if (text !== "") return text
  const highlights = (result.highlights ?? []).map(Fields.tidy).filter((h) => h !== "")
  if (highlights.length > 0) return highlights.join("\n")
  return Fields.tidy(result.summary ?? "")
}

/**
 * The error for a URL Exa reported in `statuses`: not-found tags (or `httpStatusCode` 404) → `http_404`,
 * timeout tags → `timeout`, anything else → `http_status` (`http_403` for a 403), the tag in the message.
 *
 * @since 0.1.0
 * @category encoding
 */
export const statusFailure = (
  c: Http.Call,
  entry: typeof ContentsStatus.Type | undefined
): WebSearchError.WebSearchError => {
  const error = entry?.error
  const tag = typeof error === "string" ? error : (error?.tag ?? undefined)
  const code = typeof error === "object" && error !== null ? (error.httpStatusCode ?? undefined) : undefined
  const lower = (tag ?? "").toLowerCase()
  const what = `could not read the page${tag === undefined || tag.trim() === "" ? "" : ` (${tag})`}`
  if (lower.includes("not_found") || lower.includes("notfound") || code === 404) {
    return Http.failure(c, { kind: "status", status: 404, message: what })
  }
  if (lower.includes("timeout") || code === 408 || code === 504) {
    return Http.requestFailed(
      c,
      "timeout",
      `${c.providerName} timed out reading the page${tag === undefined ? "" : ` (${Http.providerText(c, tag)})`}`
    )
  }
  return Http.failure(c, {
    kind: "status",
    status: code ?? (tag !== undefined && tag.trim() !== "" ? tag : "error"),
    message: what
  })
}
