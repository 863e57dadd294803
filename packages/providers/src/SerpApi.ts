/**
 * The `serpapi` provider: `searchKeywords` on `GET {apiHost}/search.json?engine=google&q=&api_key=&num=` (apiHost
 * `https://serpapi.com`), Google results as SerpApi scrapes them.
 *
 * `num` is the caller's `maxResults` clamped to 1–100. Results are `organic_results` (`title`, `link`,
 * `snippet`); answer boxes, knowledge graphs and the other blocks are not web results and are ignored.
 *
 * The key travels in the query string, so the request URL is a secret: the HttpClient's own span is disabled for
 * these requests (`internal/keyInQuery`), transport errors are reported by reason and code only, and SerpApi's
 * messages pass through the same secret scrubbing as every provider's.
 *
 * Errors are `{"error":"…"}`: 401/403 → `Unavailable/credentials_rejected`; 429 is either the hourly throughput
 * limit → `RequestFailed/http_429` (Retry-After honoured) or "Your account has run out of searches." →
 * `RequestFailed/rate_limited`, not retryable; 5xx → `http_5xx`. SerpApi also reports in 200 bodies: "Google
 * hasn't returned any results for this query." is zero results, not an error; any other top-level `error` (or
 * `search_metadata.status` "Error") → a typed error read from its message (credentials, exhausted searches, or
 * `RequestFailed/http_status`). SerpApi's message is kept.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { SearchAnswer, isNoResults, refusal, searchParams } from "./internal/serpApiWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "serpapi"

/**
 * The `serpapi` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "serpapi",
  name: "SerpApi",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://serpapi.com" }]
})

/**
 * The search options SerpApi's Google engine honours natively: `tbs` (`qdr:d`, `qdr:w`, `qdr:m`, `qdr:y`), `hl`
 * (the language) and `gl` (the country). Google's `safe` knows only `active` and `off`, so `safeSearch` (whose
 * `moderate` has no equal) is not declared.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange", "language", "country"]

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined =>
  refusal(answer.status, Http.messageOf(json))

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.getJson(client, c, {
        path: "/search.json",
        urlParams: (key) =>
          searchParams(
            c.input,
            ctx.maxResults,
            Option.match(key, { onNone: () => "", onSome: Redacted.value }),
            ctx.searchOptions
          ),
        key: ProviderHttp.inRequest,
        schema: SearchAnswer,
        refuse
      })
      const error = body.error?.trim() ?? ""
      const failed = error !== "" || body.search_metadata?.status === "Error"
      if (failed && !isNoResults(error)) {
        const inBody = refusal(answer.status, error === "" ? "the search failed" : error)
        if (inBody !== undefined) return yield* Effect.fail(Http.failure(c, inBody))
      }
      return Fields.results(body.organic_results ?? [], (r) => ({
        title: r.title,
        content: r.snippet,
        url: r.link,
        publishedAt: r.date,
        siteName: r.source
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
 * Registers the `serpapi` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
