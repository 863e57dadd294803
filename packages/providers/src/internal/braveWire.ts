// The wire format of the `Brave` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as RetryAfter from "@websearch/core/internal/retryAfter"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Brave's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 20

export const freshness = { day: "pd", week: "pw", month: "pm", year: "py" } as const

/**
 * Brave's `search_lang` for an ISO 639-1 code: the code itself, except where Brave's list spells the language
 * its own way (`jp` for Japanese, `zh-hans`/`zh-hant` for Chinese, `pt-br`/`pt-pt` for Portuguese, chosen by the
 * country when one is given).
 *
 * @since 0.2.0
 * @category encoding
 */
export const searchLang = (language: string, country: string | undefined): string => {
  switch (language) {
    case "ja":
      return "jp"
    case "zh":
      return country === "TW" || country === "HK" || country === "MO" ? "zh-hant" : "zh-hans"
    case "pt":
      return country === "BR" ? "pt-br" : "pt-pt"
    default:
      return language
  }
}

/**
 * The query parameters of `GET /res/v1/web/search` for one keyword, with the caller's search options in Brave's
 * parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchParams = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => ({
  q: keyword,
  count: String(Http.clamp(maxResults, 1, maxResultsLimit)),
  ...Options.defined({
    freshness: options.timeRange === undefined ? undefined : freshness[options.timeRange],
    search_lang: options.language === undefined ? undefined : searchLang(options.language, options.country),
    country: options.country,
    safesearch: options.safeSearch
  })
})

/**
 * One web result, as far as websearch reads it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebResult = Schema.Struct({
  title: AnswerFields.OptionalText,
  url: Schema.String,
  description: AnswerFields.OptionalText,
  page_age: AnswerFields.OptionalText,
  age: AnswerFields.OptionalText,
  extra_snippets: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  language: AnswerFields.OptionalText,
  profile: Schema.optional(Schema.NullOr(Schema.Struct({ name: AnswerFields.OptionalText })))
})

/**
 * Brave's error envelope (`status` and the quota figures may come as strings).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorBody = Schema.Struct({
  type: Schema.Literal("ErrorResponse"),
  error: Schema.Struct({
    id: Schema.optional(Schema.String),
    status: Schema.optional(Http.NumberLike),
    code: Schema.optional(Schema.String),
    detail: Schema.optional(Schema.String),
    meta: Schema.optional(
      Schema.NullOr(
        Schema.Struct({
          plan: Schema.optional(Schema.String),
          quota_limit: AnswerFields.OptionalNumber,
          quota_current: AnswerFields.OptionalNumber
        })
      )
    )
  })
})

/**
 * The answer of `GET /res/v1/web/search`: `web` is absent when Brave found no web results.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  type: Schema.optional(Schema.String),
  web: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        results: Schema.optionalWith(Schema.NullOr(Schema.Array(WebResult)), { default: () => [] })
      })
    )
  )
})

/**
 * Seconds until the first rate-limit window resets, from `X-RateLimit-Reset` ("1" or "1, 1419704").
 *
 * @since 0.1.0
 * @category encoding
 */
export const resetSeconds = (headers: Readonly<Record<string, string>>): number | undefined => {
  const first = headers["x-ratelimit-reset"]?.split(",")[0]?.trim()
  if (first === undefined || !/^\d+(\.\d+)?$/.test(first)) return undefined
  return Math.min(RetryAfter.maxSeconds, Math.ceil(Number(first)))
}

export const isQuota = (error: typeof ErrorBody.Type.error): boolean => {
  const limit = error.meta?.quota_limit ?? 0
  const current = error.meta?.quota_current ?? 0
  return /QUOTA/i.test(error.code ?? "") || (limit > 0 && current >= limit)
}

// A missing or malformed key gets a 422 whose code names the token (SUBSCRIPTION_TOKEN_INVALID as observed; the
// exact spelling is not documented, so any code about the token or subscription counts).
export const isTokenCode = (code: string | undefined): boolean => /TOKEN|SUBSCRIPTION|UNAUTHORI[SZ]ED/i.test(code ?? "")

/**
 * How Brave refused, from the status, headers and the error envelope (when the body is one).
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
  if (decoded._tag === "None") return undefined
  const error = decoded.value.error
  const code = error.code ?? status
  const message = error.detail ?? error.code
  if (status === 401 || status === 403 || isTokenCode(error.code)) return { kind: "credentials", status, message }
  if (isQuota(error)) return { kind: "quota", status: code, message }
  if (status === 429 || /RATE_LIMIT/i.test(error.code ?? "")) {
    return {
      kind: "rate_limited",
      status: status === 429 ? 429 : code,
      message,
      retryAfter: Http.retryAfterSeconds(headers) ?? resetSeconds(headers)
    }
  }
  return status >= 200 && status < 300 ? { kind: "status", status: code, message } : undefined
}
