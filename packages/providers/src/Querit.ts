/**
 * The `querit` provider: `searchKeywords` on `POST {apiHost}/v1/search` and `fetchUrls` on
 * `POST {apiHost}/v1/contents` (apiHost `https://api.querit.ai`), with the key as a Bearer token.
 *
 * Search sends `{query, count}` with `count` clamped to 1–20, the range Querit's own n8n node and plugins accept
 * (Querit's SDK documents no maximum). The answer nests its results, `{error_code, error_msg, results: {result:
 * [{url, title, snippet, page_age, …}]}}`; a result's content is its snippet.
 *
 * Contents sends one URL as `{urls: [url], format: "markdown", crawlTimeout, extrasMeta: true}` and reads
 * `{results: [{id, url, content, extrasMeta: {title, …}}], statuses: [{id, status}]}`. [U] This contract is not in
 * Querit's SDK or in any capture: it is taken from Querit's own integrations (querit-ai/querit-plugins: the Claude
 * Code plugin's client and its tests, and the n8n node's documentation: 1–10 URLs, format text|markdown|html,
 * crawlTimeout 1–60 seconds, extrasMeta adds title, publication time and site), whose response examples are mocks.
 * What is assumed beyond them: a status other than "success" with no content means the page could not be read
 * (`RequestFailed/http_status` naming Querit's status); `crawlTimeout` is websearch's per-URL timeout less two
 * seconds (1–60), so Querit can report a slow page as failed before websearch gives up on the call; and contents
 * errors use the same `error_code` envelope as search (Querit's plugin checks both endpoints the same way).
 *
 * Errors: HTTP 401/403 → `Unavailable/credentials_rejected`; 429 → `RequestFailed/http_429` (Retry-After
 * honoured); 5xx → `http_5xx`; `error_msg` is kept. Querit also answers HTTP 200 with `error_code` other than 200
 * (0 is read as success too); that code reads like the HTTP status it mimics (401 credentials, 429 rate limited,
 * …), any other code is a refusal with Querit's `error_msg`.
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
import {
  ContentsAnswer,
  SearchAnswer,
  SearchResults,
  contentsBody,
  refusalOf,
  searchBody
} from "./internal/queritWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "querit"

/**
 * The `querit` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "querit",
  name: "Querit",
  type: "api",
  credentials: "required",
  capabilities: [
    { feature: "searchKeywords", apiHost: "https://api.querit.ai" },
    { feature: "fetchUrls", apiHost: "https://api.querit.ai" }
  ]
})

/**
 * The search options Querit honours natively: the domains (`filters.sites.include` and `exclude`). How its
 * language, country and time filters spell their values is not documented, so those options are not declared.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["includeDomains", "excludeDomains"]

const present = (text: string | null | undefined): text is string =>
  text !== undefined && text !== null && text.trim() !== ""

// Querit refuses inside HTTP 200 bodies too, with `error_code`.
const querit = { inBody: (json: unknown, answer: Http.Answer) => refusalOf(json, answer.headers) }

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const { body } = yield* ProviderHttp.postJson(client, c, {
        ...querit,
        path: "/v1/search",
        body: searchBody(c.input, ctx.maxResults, ctx.searchOptions),
        schema: SearchAnswer
      })
      const results = yield* Http.decodeValue(c, SearchResults, body.results?.result ?? [])
      return Fields.results(results, (r) => ({
        title: r.title,
        content: r.snippet,
        url: r.url,
        // `page_time` is Unix seconds; `page_age` is relative ("2 days ago") and never read as a date.
        publishedAt: r.page_time,
        siteName: r.site_name
      }))
    })
  )

const fetchUrls = (client: HttpClient.HttpClient) =>
  ProviderHttp.fetchUrls(preset, (c, ctx) =>
    Effect.gen(function* () {
      const { body } = yield* ProviderHttp.postJson(client, c, {
        ...querit,
        path: "/v1/contents",
        body: contentsBody(c.input, ctx.timeout),
        schema: ContentsAnswer
      })
      const page = body.results.find((r) => present(r.content))
      if (page === undefined) {
        const failed = body.statuses.find((s) => present(s.status) && s.status.trim().toLowerCase() !== "success")
        if (failed !== undefined) {
          return yield* Effect.fail(
            Http.failure(c, {
              kind: "status",
              status: 200,
              message: `could not read the page (Querit's crawl status: ${failed.status})`
            })
          )
        }
        return yield* Effect.fail(Http.empty(c))
      }
      const content = Fields.tidy(page.content ?? "")
      return Fields.page(c.input, {
        title: page.extrasMeta?.title,
        content,
        url: Fields.httpUrl(page.url) ?? c.input,
        publishedAt: page.extrasMeta?.publishTime,
        siteName: page.extrasMeta?.siteName
      })
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
 * Registers the `querit` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
