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
import type * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { ErrorBody, SearchAnswer, refusal, searchParams } from "./internal/bingWire.js"

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
 * The search options Bing honours natively: `freshness` (`Day`, `Week`, `Month`; a year as the date range
 * `YYYY-MM-DD..YYYY-MM-DD`, since Bing has no `Year`), `cc` (the country) and `safeSearch` (`Off`, `Moderate`,
 * `Strict`). Bing's `mkt` needs a language and a country together and `setLang` is the interface's language, so
 * `language` is not declared.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange", "country", "safeSearch"]

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
