// The wire format of the `Bocha` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Schema from "effect/Schema"
import * as Code from "./businessCode.js"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Bocha's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 50

export const freshness = { day: "oneDay", week: "oneWeek", month: "oneMonth", year: "oneYear" } as const

export const domains = (list: ReadonlyArray<string> | undefined): string | undefined =>
  Options.nonEmpty(list)?.join("|")

/**
 * The body of `POST /v1/web-search` for one keyword, with the caller's search options in Bocha's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => ({
  query: keyword,
  count: Http.clamp(Math.trunc(maxResults), 1, maxResultsLimit),
  summary: true,
  freshness: options.timeRange === undefined ? "noLimit" : freshness[options.timeRange],
  ...Options.defined({ include: domains(options.includeDomains), exclude: domains(options.excludeDomains) })
})

/**
 * One web page of Bocha's answer (`summary` only when asked for; `datePublished` often absent).
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebPage = Schema.Struct({
  name: AnswerFields.OptionalText,
  url: AnswerFields.OptionalText,
  snippet: AnswerFields.OptionalText,
  summary: AnswerFields.OptionalText,
  siteName: AnswerFields.OptionalText,
  datePublished: AnswerFields.OptionalText,
  language: AnswerFields.OptionalText
}).annotations({ identifier: "BochaWebPage" })

/**
 * The answer of `POST /v1/web-search`, as far as websearch reads it; `code` may be a number or a string, and the
 * error fields (`message`, `msg`) share the envelope. The pages are left undecoded here and decoded with
 * `WebPages`, so that a bad page is named by its position rather than lost in a deep path.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  code: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String))),
  log_id: AnswerFields.OptionalText,
  msg: AnswerFields.OptionalText,
  message: AnswerFields.OptionalText,
  data: Schema.optionalWith(
    Schema.Struct({
      webPages: Schema.optionalWith(
        Schema.Struct({
          value: Schema.optionalWith(Schema.Array(Schema.Unknown), { nullable: true, default: () => [] })
        }).annotations({ identifier: "BochaWebPages" }),
        { nullable: true }
      )
    }).annotations({ identifier: "BochaData" }),
    { nullable: true }
  )
}).annotations({ identifier: "BochaSearchAnswer" })

/**
 * The pages of an answer.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebPages = Schema.Array(WebPage)

/**
 * How Bocha's code reads: its documented 403 is an exhausted balance, everything else reads like the HTTP status
 * it mimics.
 *
 * @since 0.1.0
 * @category errors
 */
export const refusalOf = (
  code: number,
  status: number | undefined,
  headers: Readonly<Record<string, string>>,
  message: string | undefined
): Http.Refusal => {
  const shown = status ?? String(code)
  if (code === 403) {
    return {
      kind: "quota",
      status: shown,
      message,
      retryAfter: Http.retryAfterSeconds(headers),
      hint: "top up the account at open.bochaai.com"
    }
  }
  return status === undefined ? Code.refusal(code, headers, message) : Http.refusalOf(status, headers, message)
}
