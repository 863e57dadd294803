// The wire format of the `Bing` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Bing's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 50

export const freshness = { day: "Day", week: "Week", month: "Month" } as const

export const safeSearch = { off: "Off", moderate: "Moderate", strict: "Strict" } as const

/**
 * The query parameters of `GET /v7.0/search` for one keyword, with the caller's search options in Bing's
 * parameters (`now`, in milliseconds, is where a year counts back from).
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchParams = (
  keyword: string,
  maxResults: number,
  options: SearchOptions.SearchOptions = {},
  now: number = Date.now()
) => ({
  q: keyword,
  count: String(Http.clamp(maxResults, 1, maxResultsLimit)),
  ...Options.defined({
    freshness:
      options.timeRange === undefined
        ? undefined
        : options.timeRange === "year"
          ? Options.dayRange("year", now)
          : freshness[options.timeRange],
    cc: options.country,
    safeSearch: options.safeSearch === undefined ? undefined : safeSearch[options.safeSearch]
  })
})

/**
 * One web page of the answer.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebPage = Schema.Struct({
  name: AnswerFields.OptionalText,
  url: Schema.String,
  snippet: AnswerFields.OptionalText,
  datePublished: AnswerFields.OptionalText,
  language: AnswerFields.OptionalText
})

/**
 * The answer of `GET /v7.0/search`, as far as websearch reads it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  _type: Schema.optional(Schema.String),
  webPages: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        totalEstimatedMatches: AnswerFields.OptionalNumber,
        value: Schema.optionalWith(Schema.NullOr(Schema.Array(WebPage)), { default: () => [] })
      })
    )
  )
})

/**
 * Bing's error body.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorBody = Schema.Struct({
  _type: Schema.Literal("ErrorResponse"),
  errors: Schema.Array(
    Schema.Struct({
      code: AnswerFields.OptionalText,
      subCode: AnswerFields.OptionalText,
      message: AnswerFields.OptionalText
    })
  )
})

export const AzureErrorBody = Schema.Struct({
  error: Schema.Struct({
    code: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
    message: AnswerFields.OptionalText
  })
})

export const errorsOf = (
  json: unknown
): ReadonlyArray<{ readonly code: string; readonly message: string }> | undefined => {
  const bing = Schema.decodeUnknownOption(ErrorBody)(json)
  if (Option.isSome(bing)) {
    return bing.value.errors.map((e) => ({
      code: [e.code, e.subCode].filter((s) => s !== undefined && s !== null).join("/"),
      message: e.message ?? ""
    }))
  }
  const azure = Schema.decodeUnknownOption(AzureErrorBody)(json)
  return Option.isSome(azure)
    ? [{ code: String(azure.value.error.code ?? ""), message: azure.value.error.message ?? "" }]
    : undefined
}

/**
 * How Bing refused, from the status and the error body; undefined for the default reading.
 *
 * @since 0.1.0
 * @category encoding
 */
export const refusal = (
  status: number,
  headers: Readonly<Record<string, string>>,
  json: unknown
): Http.Refusal | undefined => {
  const errors = errorsOf(json)
  if (errors === undefined || errors.length === 0) return undefined
  const message = errors
    .map((e) => e.message)
    .filter((m) => m !== "")
    .join("; ")
  const codes = errors.map((e) => e.code).join(" ")
  const said = message === "" ? codes : message
  const ok = status >= 200 && status < 300
  const code = ok ? codes.split(" ")[0] || status : status
  if (/quota/i.test(`${codes} ${message}`) && status !== 401) return { kind: "quota", status: code, message: said }
  if (status === 429 || /RateLimit/i.test(codes)) {
    return { kind: "rate_limited", status: code, message: said, retryAfter: Http.retryAfterSeconds(headers) }
  }
  if (status === 401 || status === 403 || /Authoriz/i.test(codes)) {
    return { kind: "credentials", status: code, message: said }
  }
  if (status >= 500 || /ServerError/i.test(codes)) return { kind: "server", status: code, message: said }
  return { kind: "status", status: code, message: said }
}
