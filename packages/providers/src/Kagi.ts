/**
 * The `kagi` provider (Kagi Search API v0): `searchKeywords` on `GET {apiHost}/api/v0/search?q=&limit=` (apiHost
 * `https://kagi.com`) with `Authorization: Bot <token>`.
 *
 * `limit` is the caller's `maxResults` (at least 1; Kagi documents no maximum, and core caps `maxResults` at 50).
 * The answer's `data` mixes kinds by `t`: only `t: 0` items are search results; `t: 1` (related searches) and any
 * kind added later are skipped.
 *
 * Errors come as `{"meta","data":null,"error":[{"code","msg","ref"}]}`, with an error status or inside a 200
 * body; Kagi's codes decide: 2 (unauthorized) → `Unavailable/credentials_rejected`; 100 (no billing information)
 * and 101 (insufficient credit) → `RequestFailed/rate_limited`, not retryable; 0 (internal) →
 * `RequestFailed/http_5xx`; 1 (malformed request) and any other code → `RequestFailed/http_status`. Without a
 * code the status decides as for every provider (401/403, 429 with Retry-After, 5xx). Kagi's `msg` is kept.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import type * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { SearchAnswer, refusal, searchParams } from "./internal/kagiWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "kagi"

/**
 * The `kagi` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "kagi",
  name: "Kagi",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://kagi.com" }]
})

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined =>
  refusal(answer.status, answer.headers, json)

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.map(
      ProviderHttp.getJson(client, c, {
        path: "/api/v0/search",
        urlParams: searchParams(c.input, ctx.maxResults),
        key: ProviderHttp.header("authorization", "Bot "),
        schema: SearchAnswer,
        refuse,
        inBody: (json, answer) => refusal(answer.status, answer.headers, json)
      }),
      ({ body }) =>
        // An item without `t` is read as a result: only other kinds are known to carry a different `t`.
        Fields.results(
          (body.data ?? []).filter((item) => (item.t ?? 0) === 0),
          (item) => ({ title: item.title, content: item.snippet, url: item.url, publishedAt: item.published })
        )
    )
  )

/**
 * The search options Kagi's v0 search API honours natively: none (it takes only `q` and `limit`); the domain options
 * are applied on the results.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = []

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({ searchOptions, searchKeywords: searchKeywords(client) }))

/**
 * Registers the `kagi` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
