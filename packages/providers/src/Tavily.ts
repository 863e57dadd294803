/**
 * The `tavily` provider: `searchKeywords` on `POST {apiHost}/search` and `fetchUrls` on `POST {apiHost}/extract`
 * (apiHost `https://api.tavily.com`), with the key as a Bearer token.
 *
 * Search asks for `max_results` clamped to Tavily's 0–20 and no answer, images or raw content (the result's
 * `content` is Tavily's relevant extract). Extract asks for one URL in markdown; a URL Tavily could not read comes
 * back in `failed_results` with HTTP 200 and becomes `RequestFailed/http_status` with Tavily's reason. Errors:
 * 401/403 → `Unavailable/credentials_rejected`; 429 → `RequestFailed/http_429` (Retry-After honoured); 432 (plan
 * limit) and 433 (pay-as-you-go limit) → `RequestFailed/rate_limited`, not retryable; 5xx → `http_5xx`. Tavily's
 * message (`detail.error`, FastAPI's `detail[]`, or the keyless `error.message`) is kept.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { ExtractAnswer, SearchAnswer, searchBody } from "./internal/tavilyWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "tavily"

/**
 * The `tavily` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "tavily",
  name: "Tavily",
  type: "api",
  credentials: "required",
  capabilities: [
    { feature: "searchKeywords", apiHost: "https://api.tavily.com" },
    { feature: "fetchUrls", apiHost: "https://api.tavily.com" }
  ],
  // The development plan's 100 requests per minute.
  publishedRateLimit: { limit: 100, windowMillis: 60_000, maxWaitMillis: 15_000 }
})

/**
 * The search options Tavily honours natively: `time_range` (`day`…`year`, Tavily's own words),
 * `include_domains`, `exclude_domains` and `topic` (`general` or `news`). Tavily's `country` takes a country's
 * English name from its own list, not an ISO code, so `country` is not declared.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = [
  "timeRange",
  "includeDomains",
  "excludeDomains",
  "topic"
]

// Tavily's own status codes: 432 is the plan's usage limit, 433 the pay-as-you-go limit.
const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined =>
  answer.status === 432 || answer.status === 433
    ? { kind: "quota", status: answer.status, message: Http.messageOf(json) }
    : undefined

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.map(
      ProviderHttp.postJson(client, c, {
        path: "/search",
        body: searchBody(c.input, ctx.maxResults, ctx.searchOptions),
        schema: SearchAnswer,
        refuse
      }),
      ({ body }) =>
        Fields.results(body.results, (r) => ({
          title: r.title,
          content: r.content,
          url: r.url,
          publishedAt: r.published_date
        }))
    )
  )

const fetchUrls = (client: HttpClient.HttpClient) =>
  ProviderHttp.fetchUrls(preset, (c) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/extract",
        body: { urls: [c.input], extract_depth: "basic", format: "markdown", include_images: false },
        schema: ExtractAnswer,
        refuse
      })
      const page = body.results[0]
      if (page === undefined) {
        const failed = body.failed_results[0]
        return yield* Effect.fail(
          Http.failure(c, {
            kind: "status",
            status: answer.status,
            message: `could not extract the page${failed?.error === undefined ? "" : `: ${failed.error}`}`
          })
        )
      }
      const content = Fields.tidy(page.raw_content ?? "")
      if (content === "") return yield* Effect.fail(Http.empty(c))
      return Fields.page(c.input, { title: page.title, content, url: page.url })
    })
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({
  searchOptions,
  searchKeywords: searchKeywords(client),
  fetchUrls: fetchUrls(client)
}))

/**
 * Registers the `tavily` driver.
 *
 * @example
 * ```ts
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Tavily from "@websearch/providers/Tavily"
 * import * as Layer from "effect/Layer"
 *
 * export const Live = WebSearch.layer(Tavily.layer).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(
 *     Settings.layer({
 *       defaults: { searchKeywords: "tavily", fetchUrls: "tavily" },
 *       providers: { tavily: { apiKeys: ["tvly-…"] } }
 *     })
 *   )
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
