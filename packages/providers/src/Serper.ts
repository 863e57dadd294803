/**
 * The `serper` provider: `searchKeywords` on `POST {apiHost}/search` (apiHost `https://google.serper.dev`) with the
 * key in `X-API-KEY` and the body `{ q, num }`, `num` being the caller's `maxResults` clamped to 1–100.
 *
 * Results are Serper's `organic` list (Google's ten blue links). `knowledgeGraph`, `answerBox`, `peopleAlsoAsk`
 * and `relatedSearches` are not mapped: they are Google's summaries of other pages, not results of their own —
 * the knowledge graph's `website` and `descriptionLink` are normally organic results already (apple.com and
 * Wikipedia for "apple inc") — and mapping them would hand out result slots the caller's `maxResults` meant for
 * ranked pages, with no snippet ranking of their own.
 *
 * Errors: 401/403 → `Unavailable/credentials_rejected`; 429 (the queries-per-second ceiling) →
 * `RequestFailed/http_429`; an exhausted balance is HTTP 400 `{"message":"Not enough credits","statusCode":400}`
 * and becomes `RequestFailed/rate_limited`, not retryable; any other 400 → `http_status`; 5xx → `http_5xx`.
 * Serper's `message` is kept.
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
import { SearchAnswer, isOutOfCredits, searchBody } from "./internal/serperWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "serper"

/**
 * The `serper` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "serper",
  name: "Serper",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://google.serper.dev" }]
})

/**
 * The search options Serper honours natively: `tbs` (`qdr:d`, `qdr:w`, `qdr:m`, `qdr:y`), `hl` (the language)
 * and `gl` (the country), Google's own parameters.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange", "language", "country"]

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined => {
  const message = Http.messageOf(json)
  return (answer.status === 400 || answer.status === 402) && isOutOfCredits(message)
    ? { kind: "quota", status: answer.status, message, hint: "top up the Serper account or add another key" }
    : undefined
}

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.map(
      ProviderHttp.postJson(client, c, {
        path: "/search",
        body: searchBody(c.input, ctx.maxResults, ctx.searchOptions),
        key: ProviderHttp.header("x-api-key"),
        schema: SearchAnswer,
        refuse
      }),
      ({ body }) =>
        Fields.results(body.organic ?? [], (r) => ({
          title: r.title,
          content: r.snippet,
          url: r.link,
          // Google's dates: absolute ones ("Mar 5, 2024") are kept, relative ones ("3 days ago") dropped.
          publishedAt: r.date
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
 * Registers the `serper` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
