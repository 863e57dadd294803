// The wire format of the `Serper` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Serper's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 100

/**
 * The body of `POST /search` for one keyword, with the caller's search options in Serper's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => ({
  q: keyword,
  num: Http.clamp(maxResults, 1, maxResultsLimit),
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
  title: AnswerFields.OptionalText,
  link: Schema.String,
  snippet: AnswerFields.OptionalText,
  date: AnswerFields.OptionalText,
  position: AnswerFields.OptionalNumber
})

/**
 * The answer of `POST /search`, as far as websearch reads it (`organic` is absent when Google found nothing).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  organic: Schema.optionalWith(Schema.NullOr(Schema.Array(OrganicResult)), { default: () => [] }),
  credits: AnswerFields.OptionalNumber
})

/**
 * Whether a refusal's message says the account's credits ran out (Serper answers this with HTTP 400).
 *
 * @since 0.1.0
 * @category encoding
 */
export const isOutOfCredits = (message: string | undefined): boolean => /\bcredits?\b/i.test(message ?? "")
