// The wire format of the `Querit` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Duration from "effect/Duration"
import * as Schema from "effect/Schema"
import * as Code from "./businessCode.js"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Querit's most results per search, as its own integrations accept.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 20

/**
 * The longest crawl Querit's contents endpoint accepts, in seconds.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxCrawlSeconds = 60

/**
 * The body of `POST /v1/search` for one keyword, with the caller's search options in Querit's filters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => {
  const sites = Options.defined({
    include: Options.nonEmpty(options.includeDomains),
    exclude: Options.nonEmpty(options.excludeDomains)
  })
  return {
    query: keyword,
    count: Http.clamp(Math.trunc(maxResults), 1, maxResultsLimit),
    ...(Object.keys(sites).length === 0 ? {} : { filters: { sites } })
  }
}

/**
 * The crawl timeout asked of Querit for websearch's per-URL timeout: two seconds less, within 1–60 seconds.
 *
 * @since 0.1.0
 * @category encoding
 */
export const crawlSecondsFor = (timeout: Duration.DurationInput): number => {
  const seconds = Math.floor(Duration.toMillis(Duration.decode(timeout)) / 1000) - 2
  return Http.clamp(Number.isFinite(seconds) ? seconds : maxCrawlSeconds, 1, maxCrawlSeconds)
}

/**
 * The body of `POST /v1/contents` for one URL.
 *
 * @since 0.1.0
 * @category encoding
 */
export const contentsBody = (url: string, timeout: Duration.DurationInput) => ({
  urls: [url],
  format: "markdown",
  crawlTimeout: crawlSecondsFor(timeout),
  extrasMeta: true
})

export const ErrorCode = Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String)))

/**
 * One search result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchResult = Schema.Struct({
  url: AnswerFields.OptionalText,
  title: AnswerFields.OptionalText,
  snippet: AnswerFields.OptionalText,
  page_age: AnswerFields.OptionalText,
  page_time: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String))),
  site_name: AnswerFields.OptionalText
}).annotations({ identifier: "QueritSearchResult" })

/**
 * The list of search results, decoded apart from the answer so a bad result is named by its position.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchResults = Schema.Array(SearchResult)

/**
 * The answer of `POST /v1/search`; the results (`results.result`) are decoded one by one with `SearchResult`, so a
 * bad one is named by its position.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  error_code: ErrorCode,
  error_msg: AnswerFields.OptionalText,
  results: Schema.optionalWith(
    Schema.Struct({
      result: Schema.optionalWith(Schema.Array(Schema.Unknown), { nullable: true, default: () => [] })
    }).annotations({ identifier: "QueritResults" }),
    { nullable: true }
  )
}).annotations({ identifier: "QueritSearchAnswer" })

/**
 * One page of a contents answer; `extrasMeta` when asked for.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ContentResult = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  url: AnswerFields.OptionalText,
  content: AnswerFields.OptionalText,
  extrasMeta: Schema.optionalWith(
    Schema.Struct({
      title: AnswerFields.OptionalText,
      url: AnswerFields.OptionalText,
      publishTime: AnswerFields.OptionalText,
      siteName: AnswerFields.OptionalText
    }).annotations({ identifier: "QueritExtrasMeta" }),
    { nullable: true }
  )
}).annotations({ identifier: "QueritContentResult" })

/**
 * One crawl status of a contents answer ("success" or "failed").
 *
 * @since 0.1.0
 * @category schemas
 */
export const ContentStatus = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  status: AnswerFields.OptionalText
}).annotations({ identifier: "QueritContentStatus" })

/**
 * The answer of `POST /v1/contents`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ContentsAnswer = Schema.Struct({
  error_code: ErrorCode,
  error_msg: AnswerFields.OptionalText,
  results: Schema.optionalWith(Schema.Array(ContentResult), { nullable: true, default: () => [] }),
  statuses: Schema.optionalWith(Schema.Array(ContentStatus), { nullable: true, default: () => [] })
}).annotations({ identifier: "QueritContentsAnswer" })

/**
 * The refusal an HTTP 200 answer carries in `error_code`, if any (200 and 0 are success).
 *
 * @since 0.1.0
 * @category errors
 */
export const refusalOf = (json: unknown, headers: Readonly<Record<string, string>>): Http.Refusal | undefined => {
  const code = Code.codeOf((json as { error_code?: unknown } | null)?.error_code)
  if (code === undefined || code === 200 || code === 0) return undefined
  return Code.refusal(code, headers, Http.messageOf(json))
}
