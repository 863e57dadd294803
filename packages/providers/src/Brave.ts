/**
 * The `brave` provider: `searchKeywords` on `GET {apiHost}/res/v1/web/search?q=&count=` (apiHost
 * `https://api.search.brave.com`), with the key in `X-Subscription-Token`.
 *
 * `count` is the caller's `maxResults` clamped to Brave's 1–20. Results come from `web.results` (news, videos and
 * the other verticals are not web results and are ignored); Brave marks query terms in `description` with
 * `<strong>`, so title and snippet are turned into plain text. When a result has no description, its
 * `extra_snippets` stand in for it.
 *
 * Errors carry `{"type":"ErrorResponse","error":{"status","code","detail","meta"}}`:
 * 401/403, and a 422 whose code names the subscription token (what a missing or malformed key gets) →
 * `Unavailable/credentials_rejected`; 429 `RATE_LIMITED` → `RequestFailed/http_429` with `retryAfter` from
 * `Retry-After` or, since Brave sends none, from the first window of `X-RateLimit-Reset` ("1, 1419704": seconds
 * until the per-second window resets, then the monthly one); a `QUOTA_LIMITED` code, or `meta.quota_current`
 * at a positive `meta.quota_limit`, → `RequestFailed/rate_limited` (the month's quota, not retryable); 5xx →
 * `http_5xx`. Brave's `detail` is kept as the message. The same envelope in a 200 body is read the same way.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as RetryAfter from "@websearch/core/RetryAfter"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as Options from "./internal/searchOptions.js"
import * as ProviderHttp from "./ProviderHttp.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "brave"

/**
 * The `brave` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "brave",
  name: "Brave Search",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://api.search.brave.com" }],
  // The Free plan's 1 request per second (X-RateLimit-Policy: 1;w=1); paid plans set their own rateLimit.
  publishedRateLimit: { limit: 1, windowMillis: 1_000, maxWaitMillis: 15_000 }
})

/**
 * Brave's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 20

/**
 * The search options Brave honours natively: `freshness` (`pd`, `pw`, `pm`, `py`), `search_lang`, `country` and
 * `safesearch` (`off`, `moderate`, `strict`, Brave's own words).
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = [
  "timeRange",
  "language",
  "country",
  "safeSearch"
]

const freshness = { day: "pd", week: "pw", month: "pm", year: "py" } as const

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
  title: Schema.optional(Schema.NullOr(Schema.String)),
  url: Schema.String,
  description: Schema.optional(Schema.NullOr(Schema.String)),
  page_age: Schema.optional(Schema.NullOr(Schema.String)),
  age: Schema.optional(Schema.NullOr(Schema.String)),
  extra_snippets: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  language: Schema.optional(Schema.NullOr(Schema.String)),
  profile: Schema.optional(Schema.NullOr(Schema.Struct({ name: Schema.optional(Schema.NullOr(Schema.String)) })))
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
          quota_limit: Schema.optional(Schema.NullOr(Http.NumberLike)),
          quota_current: Schema.optional(Schema.NullOr(Http.NumberLike))
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

const isQuota = (error: typeof ErrorBody.Type.error): boolean => {
  const limit = error.meta?.quota_limit ?? 0
  const current = error.meta?.quota_current ?? 0
  return /QUOTA/i.test(error.code ?? "") || (limit > 0 && current >= limit)
}

// A missing or malformed key gets a 422 whose code names the token (SUBSCRIPTION_TOKEN_INVALID as observed; the
// exact spelling is not documented, so any code about the token or subscription counts).
const isTokenCode = (code: string | undefined): boolean => /TOKEN|SUBSCRIPTION|UNAUTHORI[SZ]ED/i.test(code ?? "")

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

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined => {
  const read = refusal(answer.status, answer.headers, json)
  // Without an envelope a 429 still has the reset header.
  if (read === undefined && answer.status === 429) {
    return {
      kind: "rate_limited",
      status: 429,
      message: Http.messageOf(json),
      retryAfter: Http.retryAfterSeconds(answer.headers) ?? resetSeconds(answer.headers)
    }
  }
  return read
}

const content = (item: typeof WebResult.Type): string => {
  const description = Fields.plainText(item.description ?? "")
  return description !== "" ? description : Fields.plainText((item.extra_snippets ?? []).join(" … "))
}

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.map(
      ProviderHttp.getJson(client, c, {
        path: "/res/v1/web/search",
        urlParams: searchParams(c.input, ctx.maxResults, ctx.searchOptions),
        key: ProviderHttp.header("x-subscription-token"),
        schema: SearchAnswer,
        refuse,
        inBody: (json, answer) => refusal(answer.status, answer.headers, json)
      }),
      ({ body }) =>
        Fields.results(body.web?.results ?? [], (r) => ({
          title: Fields.plainText(r.title ?? ""),
          content: content(r),
          url: r.url,
          // `page_age` is a timestamp; `age` is relative ("2 days ago") and never read as a date.
          publishedAt: r.page_age,
          siteName: r.profile?.name,
          language: r.language
        }))
    )
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({ searchOptions, searchKeywords: searchKeywords(client) }))

/**
 * Registers the `brave` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
