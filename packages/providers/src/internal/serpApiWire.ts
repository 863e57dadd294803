// The wire format of the `SerpApi` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * The most results SerpApi's Google engine takes in `num`.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 100

/**
 * The query parameters of `GET /search.json` for one keyword (the key included: never log them), with the
 * caller's search options in SerpApi's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchParams = (
  keyword: string,
  maxResults: number,
  key: string,
  options: SearchOptions.SearchOptions = {}
) => ({
  engine: "google",
  q: keyword,
  api_key: key,
  num: String(Http.clamp(maxResults, 1, maxResultsLimit)),
  ...Options.defined({
    tbs: Options.googleTbs(options.timeRange),
    hl: options.language,
    gl: options.country?.toLowerCase()
  })
})

/**
 * One organic result (`position` may come as a string).
 *
 * @since 0.1.0
 * @category schemas
 */
export const OrganicResult = Schema.Struct({
  position: AnswerFields.OptionalNumber,
  title: AnswerFields.OptionalText,
  link: Schema.String,
  snippet: AnswerFields.OptionalText,
  date: AnswerFields.OptionalText,
  source: AnswerFields.OptionalText
})

/**
 * The answer of `GET /search.json`, as far as websearch reads it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  search_metadata: Schema.optional(Schema.NullOr(Schema.Struct({ status: Schema.optional(Schema.String) }))),
  error: AnswerFields.OptionalText,
  organic_results: Schema.optionalWith(Schema.NullOr(Schema.Array(OrganicResult)), { default: () => [] })
})

/**
 * Whether a 200 body's `error` only says the search found nothing.
 *
 * @since 0.1.0
 * @category encoding
 */
export const isNoResults = (message: string): boolean =>
  /hasn['’]t returned any results|no results (were )?found|returned no results/i.test(message)

export const outOfSearches = (message: string | undefined): boolean =>
  /run out of searches|searches? (limit|quota)|plan.*(limit|exceeded)/i.test(message ?? "")

export const keyProblem = (message: string | undefined): boolean => /api[ _]key/i.test(message ?? "")

/**
 * How SerpApi refused, from the status and its `error` message; undefined for the default reading.
 *
 * @since 0.1.0
 * @category encoding
 */
export const refusal = (status: number, message: string | undefined): Http.Refusal | undefined => {
  if (outOfSearches(message)) {
    return { kind: "quota", status, message, hint: "upgrade the SerpApi plan or add another key" }
  }
  if (status >= 200 && status < 300) {
    return keyProblem(message) ? { kind: "credentials", status, message } : { kind: "status", status, message }
  }
  return undefined
}
