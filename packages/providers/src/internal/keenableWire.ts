// The wire format of the `Keenable` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as AnswerFields from "./answerFields.js"

/**
 * The most results asked of Keenable per search. Keenable does not document a maximum for `count` [U]; 20 is the
 * bound most search APIs share, and the pipeline slices to the caller's `maxResults` in any case.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 20

/**
 * The path searched: the keyed endpoint, or the public (keyless) one.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchPath = (keyed: boolean): string => (keyed ? "/v1/search" : "/v1/search/public")

/**
 * The body of a search for one keyword.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number) => ({
  query: keyword,
  count: Http.clamp(maxResults, 1, maxResultsLimit)
})

/**
 * The answer of a search, as far as websearch reads it. Titles, descriptions and snippets may be null or absent;
 * `published_at` is read leniently (an RFC 3339 string in integrations, Unix seconds on Keenable's fetch).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  query: AnswerFields.OptionalText,
  results: Schema.optional(
    Schema.NullOr(
      Schema.Array(
        Schema.Struct({
          title: AnswerFields.OptionalText,
          url: Schema.String,
          description: AnswerFields.OptionalText,
          snippet: AnswerFields.OptionalText,
          published_at: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number)))
        })
      )
    )
  )
})
