// The wire format of the `Perplexity` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Perplexity's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 20

/**
 * The body of `POST /search` for one keyword, with the caller's search options in Perplexity's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => ({
  query: keyword,
  max_results: Http.clamp(maxResults, 1, maxResultsLimit),
  ...Options.defined({
    search_recency_filter: options.timeRange,
    search_domain_filter: Options.nonEmpty(options.includeDomains),
    search_language_filter: options.language === undefined ? undefined : [options.language],
    country: options.country
  })
})

/**
 * An OpenAI-style error object (`code` may be a string or a number).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorObject = Schema.Struct({
  message: AnswerFields.OptionalText,
  type: AnswerFields.OptionalText,
  code: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number)))
})

/**
 * The answer of `POST /search`, as far as websearch reads it (every result field but `url` may be null).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  id: AnswerFields.OptionalText,
  server_time: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  results: Schema.optionalWith(
    Schema.NullOr(
      Schema.Array(
        Schema.Struct({
          title: AnswerFields.OptionalText,
          url: Schema.String,
          snippet: AnswerFields.OptionalText,
          date: AnswerFields.OptionalText,
          last_updated: AnswerFields.OptionalText
        })
      )
    ),
    { default: () => [] }
  ),
  error: Schema.optional(Schema.NullOr(Schema.Union(ErrorObject, Schema.String)))
})
