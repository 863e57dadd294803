/**
 * The `ollama` provider (Ollama's hosted web search): `searchKeywords` on `POST {apiHost}/api/web_search` and
 * `fetchUrls` on `POST {apiHost}/api/web_fetch` (apiHost `https://ollama.com`; a self-configured host serves the
 * same paths), with the key as a Bearer token on both.
 *
 * Search asks for `max_results` clamped to Ollama's 1–10 and maps `results[{title, url, content}]`. Fetch sends
 * one URL and maps `{title, content}`; Ollama does not report a final URL, so the result keeps the caller's.
 *
 * Errors: 401/403 → `Unavailable/credentials_rejected`; 429 → `RequestFailed/http_429` (Retry-After honoured);
 * 402 → `RequestFailed/rate_limited`, not retryable; 5xx → `http_5xx`. Ollama's error body is not documented for
 * these endpoints; its API's convention `{"error": "…"}` is assumed and its message kept, and the same body in a
 * 2xx answer (with no results) fails as `RequestFailed/http_status` rather than passing as an empty answer.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { FetchAnswer, SearchAnswer, fetchBody, searchBody } from "./internal/ollamaWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "ollama"

/**
 * The `ollama` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "ollama",
  name: "Ollama",
  type: "api",
  credentials: "required",
  capabilities: [
    { feature: "searchKeywords", apiHost: "https://ollama.com" },
    { feature: "fetchUrls", apiHost: "https://ollama.com" }
  ]
})

const inBodyError = (c: Http.Call, status: number, error: string): WebSearchError.WebSearchError =>
  Http.failure(c, { kind: "status", status, message: error })

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/api/web_search",
        body: searchBody(c.input, ctx.maxResults),
        schema: SearchAnswer
      })
      if (body.results === null || body.results === undefined) {
        if (typeof body.error === "string" && body.error.trim() !== "") {
          return yield* Effect.fail(inBodyError(c, answer.status, body.error))
        }
        return { results: [], dropped: 0 }
      }
      return Fields.results(body.results, (r) => ({
        title: r.title,
        content: Fields.tidy(r.content ?? ""),
        url: r.url
      }))
    })
  )

const fetchUrls = (client: HttpClient.HttpClient) =>
  ProviderHttp.fetchUrls(preset, (c) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/api/web_fetch",
        body: fetchBody(c.input),
        schema: FetchAnswer
      })
      const content = Fields.tidy(body.content ?? "")
      if (content === "") {
        if (typeof body.error === "string" && body.error.trim() !== "") {
          return yield* Effect.fail(inBodyError(c, answer.status, body.error))
        }
        return yield* Effect.fail(Http.empty(c))
      }
      return Fields.page(c.input, { title: body.title, content, url: c.input })
    })
  )

/**
 * The search options Ollama's web search honours natively: none (it takes only `query` and `max_results`); the
 * domain options are applied on the results.
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
export const make = ProviderHttp.make(preset, (client) => ({
  searchOptions,
  searchKeywords: searchKeywords(client),
  fetchUrls: fetchUrls(client)
}))

/**
 * Registers the `ollama` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
