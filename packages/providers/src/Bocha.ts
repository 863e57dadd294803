/**
 * The `bocha` provider (Bocha Web Search API): `searchKeywords` on `POST {apiHost}/v1/web-search` (apiHost
 * `https://api.bochaai.com`), with the key as a Bearer token.
 *
 * The request asks for `count` clamped to Bocha's 1–50, no time limit (`freshness: "noLimit"`, Bocha's own advice)
 * and `summary: true`: a result's content is Bocha's longer summary of the page when it sent one, else its snippet.
 * The answer is Bing-v7-shaped inside an envelope, `{code, log_id, msg, data:{webPages:{value:[{name, url,
 * snippet, summary?}]}}}`, and `code` may be `200` or `"200"`.
 *
 * Errors come as `{"code":"401","message":"Invalid API KEY","log_id":"…"}`, with the same HTTP status or inside an
 * HTTP 200 body. Bocha's documentation gives the meanings: 401 → `Unavailable/credentials_rejected`; 403 is "You do
 * not have enough money" (the balance, not the key) → `RequestFailed/rate_limited`, not retryable; 429 ("You have
 * reached the request limit") → rate limited, retryable (`http_429` when it is the HTTP status, with Retry-After);
 * 5xx → `http_5xx`; 400 and any other code → a refusal with Bocha's message.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import * as Code from "./internal/businessCode.js"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { SearchAnswer, WebPages, refusalOf, searchBody } from "./internal/bochaWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "bocha"

/**
 * The `bocha` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "bocha",
  name: "Bocha",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://api.bochaai.com" }]
})

/**
 * The search options Bocha honours natively: `freshness` (`oneDay`, `oneWeek`, `oneMonth`, `oneYear`) and the
 * domains (`include` and `exclude`, `|`-separated as Bocha documents).
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = [
  "timeRange",
  "includeDomains",
  "excludeDomains"
]

// A non-2xx answer: Bocha's code (or else the status) decides, so a 403 is the balance, not the key.
const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined => {
  const code = Code.codeOf((json as { code?: unknown } | undefined)?.code) ?? answer.status
  return refusalOf(code, answer.status, answer.headers, Http.messageOf(json))
}

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const { body } = yield* ProviderHttp.postJson(client, c, {
        path: "/v1/web-search",
        body: searchBody(c.input, ctx.maxResults, ctx.searchOptions),
        schema: SearchAnswer,
        refuse,
        // Business errors arrive in HTTP 200 bodies; the code is checked before the shape, which they do not share.
        inBody: (json, answer) => {
          const code = Code.codeOf((json as { code?: unknown } | null)?.code)
          return code !== undefined && code !== 200
            ? refusalOf(code, undefined, answer.headers, Http.messageOf(json))
            : undefined
        }
      })
      const pages = yield* Http.decodeValue(c, WebPages, body.data?.webPages?.value ?? [])
      return Fields.results(pages, (page) => ({
        title: page.name,
        content:
          page.summary !== undefined && page.summary !== null && page.summary.trim() !== ""
            ? page.summary
            : page.snippet,
        url: page.url,
        publishedAt: page.datePublished,
        siteName: page.siteName,
        language: page.language
      }))
    })
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({ searchOptions, searchKeywords: searchKeywords(client) }))

/**
 * Registers the `bocha` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
