// The wire format of the `Tavily` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
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
