// The wire format of the `Tavily` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as SiteRequest from "@websearch/core/SiteRequest"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as HostedSite from "./hostedSite.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Tavily's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 20

/**
 * The body of `POST /search` for one keyword, with the caller's search options in Tavily's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => ({
  query: keyword,
  search_depth: "basic",
  topic: options.topic ?? "general",
  max_results: Http.clamp(maxResults, 0, maxResultsLimit),
  include_answer: false,
  include_raw_content: false,
  include_images: false,
  ...Options.defined({
    time_range: options.timeRange,
    include_domains: Options.nonEmpty(options.includeDomains),
    exclude_domains: Options.nonEmpty(options.excludeDomains)
  })
})

/**
 * The answer of `POST /search`, as far as websearch reads it (`response_time` may be a string).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  query: Schema.optional(Schema.String),
  response_time: Schema.optional(Http.NumberLike),
  results: Schema.optionalWith(
    Schema.Array(
      Schema.Struct({
        title: AnswerFields.OptionalText,
        url: Schema.String,
        content: AnswerFields.OptionalText,
        score: AnswerFields.OptionalNumber,
        published_date: AnswerFields.OptionalText
      })
    ),
    { default: () => [] }
  )
})

/**
 * The answer of `POST /extract`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ExtractAnswer = Schema.Struct({
  results: Schema.optionalWith(
    Schema.Array(
      Schema.Struct({
        url: Schema.String,
        raw_content: AnswerFields.OptionalText,
        title: AnswerFields.OptionalText
      })
    ),
    { default: () => [] }
  ),
  failed_results: Schema.optionalWith(
    Schema.Array(Schema.Struct({ url: Schema.optional(Schema.String), error: Schema.optional(Schema.String) })),
    { default: () => [] }
  )
})

/**
 * Tavily's own status codes: 432 is the plan's usage limit, 433 the pay-as-you-go limit.
 *
 * @since 0.2.0
 * @category errors
 */
export const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined =>
  answer.status === 432 || answer.status === 433
    ? { kind: "quota", status: answer.status, message: Http.messageOf(json) }
    : undefined

/**
 * The depths Tavily's crawl and map take (`max_depth` 1–5).
 *
 * @since 0.2.0
 * @category constants
 */
export const depthRange = { min: 1, max: 5 } as const

// The site and its paths as Tavily's regular expressions: the host (its subdomains too when asked), never off it.
const scope = (
  url: string,
  includeSubdomains: boolean,
  includePaths: ReadonlyArray<string>,
  excludePaths: ReadonlyArray<string>
) => {
  const select = HostedSite.pathRegexes(includePaths)
  const exclude = HostedSite.pathRegexes(excludePaths)
  return {
    select_domains: [HostedSite.hostRegex(url, includeSubdomains)],
    allow_external: false,
    ...(select === undefined ? {} : { select_paths: select }),
    ...(exclude === undefined ? {} : { exclude_paths: exclude })
  }
}

/**
 * The body of `POST /map`: the links of the site, as many as the request's limit. `search` is not sent as
 * Tavily's `instructions` (which filter semantically and cost more): core ranks the links by it.
 *
 * @since 0.2.0
 * @category encoding
 */
export const mapBody = (request: SiteRequest.MapSiteRequest) => ({
  url: request.url,
  limit: request.limit,
  ...scope(request.url, request.includeSubdomains, request.includePaths, request.excludePaths)
})

/**
 * The body of `POST /crawl`: `maxPages` as `limit`, `maxDepth` as `max_depth`, the pages in markdown.
 *
 * @since 0.2.0
 * @category encoding
 */
export const crawlBody = (request: SiteRequest.CrawlSiteRequest) => ({
  url: request.url,
  max_depth: request.maxDepth,
  limit: request.maxPages,
  ...scope(request.url, request.includeSubdomains, request.includePaths, request.excludePaths),
  extract_depth: "basic",
  format: "markdown",
  include_images: false
})

/**
 * The answer of `POST /map`: the URLs found.
 *
 * @since 0.2.0
 * @category schemas
 */
export const MapAnswer = Schema.Struct({
  base_url: AnswerFields.OptionalText,
  results: Schema.optionalWith(Schema.NullOr(Schema.Array(Schema.String)), { default: () => [] }),
  response_time: Schema.optional(Http.NumberLike)
})

/**
 * The answer of `POST /crawl`: the pages read, with their content.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CrawlAnswer = Schema.Struct({
  base_url: AnswerFields.OptionalText,
  results: Schema.optionalWith(
    Schema.NullOr(
      Schema.Array(
        Schema.Struct({ url: Schema.String, raw_content: AnswerFields.OptionalText, title: AnswerFields.OptionalText })
      )
    ),
    { default: () => [] }
  ),
  response_time: Schema.optional(Http.NumberLike)
})
