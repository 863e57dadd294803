/**
 * The `bing` provider (Bing Web Search API v7): `searchKeywords` on `GET {apiHost}/v7.0/search?q=&count=`
 * (apiHost `https://api.bing.microsoft.com`) with the key in `Ocp-Apim-Subscription-Key`.
 *
 * Microsoft retired the Bing Search APIs in August 2025; the driver is kept for services that still speak the v7
 * contract (Azure-hosted compatible endpoints, proxies, mocks) through an overridden apiHost.
 *
 * `count` is the caller's `maxResults` clamped to 1–50. Results come from `webPages.value` (`name`, `url`,
 * `snippet`); `webPages` is absent when nothing was found, which is zero results.
 *
 * Errors: Bing's body is `{"_type":"ErrorResponse","errors":[{"code","subCode","message"}]}` and the Azure
 * gateway in front of it answers `{"error":{"code","message"}}`; both messages are kept. 401/403 →
 * `Unavailable/credentials_rejected`, except a 403 that names the quota (`OutOfQuota`, "exceeded ... quota") →
 * `RequestFailed/rate_limited`, not retryable; 429 → `RequestFailed/http_429` (Retry-After honoured); 5xx →
 * `http_5xx`. An `ErrorResponse` inside a 200 body is read the same way. The error body is not documented beyond
 * its shape, so codes are matched loosely.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
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
export const providerId = "bing"

/**
 * The `bing` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "bing",
  name: "Bing Web Search",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://api.bing.microsoft.com" }]
})

/**
 * Bing's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 50

/**
 * The search options Bing honours natively: `freshness` (`Day`, `Week`, `Month`; a year as the date range
 * `YYYY-MM-DD..YYYY-MM-DD`, since Bing has no `Year`), `cc` (the country) and `safeSearch` (`Off`, `Moderate`,
 * `Strict`). Bing's `mkt` needs a language and a country together and `setLang` is the interface's language, so
 * `language` is not declared.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange", "country", "safeSearch"]

const freshness = { day: "Day", week: "Week", month: "Month" } as const
const safeSearch = { off: "Off", moderate: "Moderate", strict: "Strict" } as const

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
  name: Schema.optional(Schema.NullOr(Schema.String)),
  url: Schema.String,
  snippet: Schema.optional(Schema.NullOr(Schema.String)),
  datePublished: Schema.optional(Schema.NullOr(Schema.String)),
  language: Schema.optional(Schema.NullOr(Schema.String))
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
        totalEstimatedMatches: Schema.optional(Schema.NullOr(Http.NumberLike)),
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
      code: Schema.optional(Schema.NullOr(Schema.String)),
      subCode: Schema.optional(Schema.NullOr(Schema.String)),
      message: Schema.optional(Schema.NullOr(Schema.String))
    })
  )
})

const AzureErrorBody = Schema.Struct({
  error: Schema.Struct({
    code: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
    message: Schema.optional(Schema.NullOr(Schema.String))
  })
})

const errorsOf = (json: unknown): ReadonlyArray<{ readonly code: string; readonly message: string }> | undefined => {
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

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined =>
  refusal(answer.status, answer.headers, json)

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      ProviderHttp.getJson(client, c, {
        path: "/v7.0/search",
        urlParams: searchParams(c.input, ctx.maxResults, ctx.searchOptions, now),
        key: ProviderHttp.header("ocp-apim-subscription-key"),
        schema: SearchAnswer,
        refuse,
        inBody: (json, answer) =>
          Option.isSome(Schema.decodeUnknownOption(ErrorBody)(json))
            ? refusal(answer.status, answer.headers, json)
            : undefined
      }).pipe(
        Effect.map(({ body }) =>
          Fields.results(body.webPages?.value ?? [], (page) => ({
            title: page.name,
            content: page.snippet,
            url: page.url,
            publishedAt: page.datePublished,
            language: page.language
          }))
        )
      )
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
 * Registers the `bing` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
