/**
 * The `perplexity` provider: `searchKeywords` on Perplexity's Search API, `POST {apiHost}/search` (apiHost
 * `https://api.perplexity.ai`), with the key as a Bearer token.
 *
 * The body is the caller's query (always one string: Perplexity's multi-query form groups results in a way
 * nobody has documented) and `max_results` clamped to Perplexity's 1–20. The answer is
 * `{results[{title, url, snippet, date, last_updated}], id, server_time}` (`server_time` may be null); each
 * result's snippet is its content. Errors follow OpenAI's `{error: {message, type, code}}` [U for `/search`]:
 * 401/403 → `Unavailable/credentials_rejected`; 429 → `RequestFailed/http_429` (Retry-After honoured), except
 * an `insufficient_quota` code or 402 → `RequestFailed/rate_limited` (plan limit, not retryable); 5xx →
 * `http_5xx`. An `error` inside a 200 body is read the same way.
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
import { SearchAnswer, searchBody } from "./internal/perplexityWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "perplexity"

/**
 * The `perplexity` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "perplexity",
  name: "Perplexity Search",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://api.perplexity.ai" }]
})

/**
 * The search options Perplexity honours natively: `search_recency_filter` (`day`…`year`, Perplexity's own
 * words), `search_domain_filter` (the domains to search), `search_language_filter` and `country`. Its denylist
 * form (domains prefixed with `-`) cannot be combined with an allowlist, so `excludeDomains` is applied on the
 * results instead.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = [
  "timeRange",
  "includeDomains",
  "language",
  "country"
]

const quotaCodes = new Set(["insufficient_quota", "quota_exceeded", "billing_hard_limit_reached"])

const codeOf = (json: unknown): string | undefined => {
  if (typeof json !== "object" || json === null) return undefined
  const error = (json as { readonly error?: unknown }).error
  if (typeof error !== "object" || error === null) return undefined
  const { code, type } = error as { readonly code?: unknown; readonly type?: unknown }
  return typeof code === "string" && code !== "" ? code : typeof type === "string" && type !== "" ? type : undefined
}

// OpenAI's convention, which Perplexity's other APIs follow: an exhausted balance is a 429 with
// `insufficient_quota`, and retrying soon does not help [U for /search].
const quotaRefusal = (status: number | string, json: unknown): Http.Refusal | undefined => {
  const code = codeOf(json)
  return code !== undefined && quotaCodes.has(code)
    ? { kind: "quota", status, message: Http.messageOf(json) }
    : undefined
}

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined => quotaRefusal(answer.status, json)

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/search",
        body: searchBody(c.input, ctx.maxResults, ctx.searchOptions),
        schema: SearchAnswer,
        refuse
      })
      const results = body.results ?? []
      if (results.length === 0 && body.error !== undefined && body.error !== null) {
        const json = { error: body.error }
        const code = codeOf(json)
        return yield* Effect.fail(
          Http.failure(
            c,
            quotaRefusal(code ?? answer.status, json) ?? {
              kind: "status",
              status: code ?? answer.status,
              message: Http.messageOf(json)
            }
          )
        )
      }
      return Fields.results(results, (r) => ({
        title: r.title,
        content: Fields.tidy(r.snippet ?? ""),
        url: r.url,
        publishedAt: r.date
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
 * Registers the `perplexity` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
