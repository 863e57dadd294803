// The wire format of the `Ollama` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Ollama's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 10

/**
 * The body of `POST /api/web_search` for one keyword.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number) => ({
  query: keyword,
  max_results: Http.clamp(Math.trunc(maxResults), 1, maxResultsLimit)
})

/**
 * The body of `POST /api/web_fetch` for one URL.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fetchBody = (url: string) => ({ url })

/**
 * The answer of `POST /api/web_search`; `error` is Ollama's error convention, read when `results` is absent.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  results: Schema.optional(
    Schema.NullOr(
      Schema.Array(
        Schema.Struct({ title: AnswerFields.OptionalText, url: Schema.String, content: AnswerFields.OptionalText })
      )
    )
  ),
  error: AnswerFields.OptionalText
})

/**
 * The answer of `POST /api/web_fetch`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FetchAnswer = Schema.Struct({
  title: AnswerFields.OptionalText,
  content: AnswerFields.OptionalText,
  links: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  error: AnswerFields.OptionalText
})
