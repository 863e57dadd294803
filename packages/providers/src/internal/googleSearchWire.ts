// The wire format of the `GoogleSearch` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as SearchParams from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Google Custom Search's most results per request.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 10

export const dateRestrict = { day: "d1", week: "w1", month: "m1", year: "y1" } as const

/**
 * Google's `lr` for an ISO 639-1 code: `lang_` and the code, except Hebrew (`lang_iw`) and Chinese
 * (`lang_zh-TW` for Taiwan and Hong Kong, else `lang_zh-CN`).
 *
 * @since 0.2.0
 * @category encoding
 */
export const languageRestrict = (language: string, country: string | undefined): string =>
  language === "he"
    ? "lang_iw"
    : language === "zh"
      ? country === "TW" || country === "HK"
        ? "lang_zh-TW"
        : "lang_zh-CN"
      : `lang_${language}`

export const sites = (options: SearchOptions.SearchOptions) => {
  const include = options.includeDomains ?? []
  const exclude = options.excludeDomains ?? []
  if (include.length + exclude.length === 1) {
    return include.length === 1
      ? { query: "", siteSearch: include[0], siteSearchFilter: "i" }
      : { query: "", siteSearch: exclude[0], siteSearchFilter: "e" }
  }
  const allowed = include.length === 0 ? "" : ` (${include.map((d) => `site:${d}`).join(" OR ")})`
  const denied = exclude.map((d) => ` -site:${d}`).join("")
  return { query: `${allowed}${denied}`, siteSearch: undefined, siteSearchFilter: undefined }
}

/**
 * The query parameters of `GET /customsearch/v1` for one keyword (the key included: never log them), with the
 * caller's search options in Google's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchParams = (
  keyword: string,
  maxResults: number,
  engineId: string,
  key: string,
  options: SearchOptions.SearchOptions = {}
) => {
  const site = sites(options)
  return {
    key,
    cx: engineId,
    q: `${keyword}${site.query}`,
    num: String(Http.clamp(maxResults, 1, maxResultsLimit)),
    ...SearchParams.defined({
      dateRestrict: options.timeRange === undefined ? undefined : dateRestrict[options.timeRange],
      siteSearch: site.siteSearch,
      siteSearchFilter: site.siteSearchFilter,
      lr: options.language === undefined ? undefined : languageRestrict(options.language, options.country),
      gl: options.country?.toLowerCase()
    })
  }
}

/**
 * One item of the answer.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Item = Schema.Struct({
  title: AnswerFields.OptionalText,
  link: Schema.String,
  snippet: AnswerFields.OptionalText
})

/**
 * The answer of `GET /customsearch/v1` (`totalResults` is a string; `items` is absent when there are none).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  searchInformation: Schema.optional(Schema.NullOr(Schema.Struct({ totalResults: AnswerFields.OptionalNumber }))),
  items: Schema.optionalWith(Schema.NullOr(Schema.Array(Item)), { default: () => [] })
})

/**
 * Google's error envelope.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorBody = Schema.Struct({
  error: Schema.Struct({
    code: Schema.optional(Http.NumberLike),
    message: Schema.optional(Schema.String),
    status: Schema.optional(Schema.String),
    errors: Schema.optional(Schema.Array(Schema.Struct({ reason: Schema.optional(Schema.String) }))),
    details: Schema.optional(Schema.Array(Schema.Struct({ reason: Schema.optional(Schema.String) })))
  })
})

export const quotaReasons: ReadonlySet<string> = new Set(["dailyLimitExceeded", "quotaExceeded", "limitExceeded"])

/**
 * How Google refused, from the status and its error envelope; undefined for the default reading.
 *
 * @since 0.1.0
 * @category encoding
 */
export const refusal = (
  status: number,
  headers: Readonly<Record<string, string>>,
  json: unknown
): Http.Refusal | undefined => {
  const decoded = Schema.decodeUnknownOption(ErrorBody)(json)
  if (Option.isNone(decoded)) return undefined
  const error = decoded.value.error
  const message = error.message
  const reasons = [...(error.errors ?? []), ...(error.details ?? [])].flatMap((e) =>
    e.reason === undefined ? [] : [e.reason]
  )
  const daily = /per day/i.test(message ?? "")
  if (reasons.some((r) => quotaReasons.has(r)) || ((status === 429 || status === 403) && daily)) {
    return { kind: "quota", status, message }
  }
  if (status === 429 || reasons.includes("rateLimitExceeded") || reasons.includes("userRateLimitExceeded")) {
    return { kind: "rate_limited", status, message, retryAfter: Http.retryAfterSeconds(headers) }
  }
  if (status === 401 || status === 403 || reasons.includes("API_KEY_INVALID") || reasons.includes("keyInvalid")) {
    return { kind: "credentials", status, message }
  }
  return undefined
}
