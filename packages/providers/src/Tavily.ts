/**
 * The `tavily` provider: `searchKeywords` on `POST {apiHost}/search`, `fetchUrls` on `POST {apiHost}/extract`,
 * `mapSite` on `POST {apiHost}/map` and `crawlSite` on `POST {apiHost}/crawl` (apiHost `https://api.tavily.com`),
 * with the key as a Bearer token.
 *
 * Search asks for `max_results` clamped to Tavily's 0–20 and no answer, images or raw content (the result's
 * `content` is Tavily's relevant extract). Extract asks for one URL in markdown; a URL Tavily could not read comes
 * back in `failed_results` with HTTP 200 and becomes `RequestFailed/http_status` with Tavily's reason. Errors:
 * 401/403 → `Unavailable/credentials_rejected`; 429 → `RequestFailed/http_429` (Retry-After honoured); 432 (plan
 * limit) and 433 (pay-as-you-go limit) → `RequestFailed/rate_limited`, not retryable; 5xx → `http_5xx`. Tavily's
 * message (`detail.error`, FastAPI's `detail[]`, or the keyless `error.message`) is kept.
 *
 * Map and crawl keep to the site's host (its subdomains with `includeSubdomains`) through `select_domains`, and
 * take the path patterns as `select_paths`/`exclude_paths` regular expressions. The crawl is one synchronous call
 * whose pages become the stream's items; it refuses, before any call, what Tavily cannot honour: `concurrency`,
 * `delay`, `fromMap`, a `maxDepth` outside 1–5 and more than 100 `maxPages` (`RequestFailed/invalid_input` naming
 * the field).
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as SiteRequest from "@websearch/core/SiteRequest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import * as HostedSite from "./internal/hostedSite.js"
import {
  CrawlAnswer,
  crawlBody,
  depthRange,
  ExtractAnswer,
  MapAnswer,
  mapBody,
  refuse,
  SearchAnswer,
  searchBody
} from "./internal/tavilyWire.js"

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
    { feature: "fetchUrls", apiHost: "https://api.tavily.com" },
    { feature: "mapSite", apiHost: "https://api.tavily.com" },
    { feature: "crawlSite", apiHost: "https://api.tavily.com" }
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

const mapSite = (client: HttpClient.HttpClient) =>
  HostedSite.mapSite(preset, (c, request) =>
    Effect.gen(function* () {
      const { body } = yield* ProviderHttp.postJson(client, c, {
        path: "/map",
        body: mapBody(request),
        schema: MapAnswer,
        refuse
      })
      return yield* HostedSite.providerLinks(
        c,
        (body.results ?? []).map((url) => ({ url }))
      )
    })
  )

const maxCrawlPages = 100

// Tavily's crawl runs as one call with its own politeness and from the start URL only, 1 to 5 levels deep.
const unhonoured = (c: Http.Call, request: SiteRequest.CrawlSiteRequest) => {
  if (request.concurrency !== undefined) return HostedSite.unhonoured(c, "concurrency", "Tavily sets its own")
  if (request.delay !== undefined) return HostedSite.unhonoured(c, "delay", "Tavily sets its own")
  if (request.fromMap) return HostedSite.unhonoured(c, "fromMap", "Tavily crawls from the start URL only")
  // One answer holds the whole crawl, read up to the 16 MiB every provider answer is bounded by: past about a
  // hundred pages of content it would fail as a whole, after the crawl was paid for.
  if (request.maxPages > maxCrawlPages) {
    return HostedSite.unhonoured(
      c,
      "maxPages",
      `Tavily answers a crawl in one response, which holds at most ${maxCrawlPages} pages here (got ${request.maxPages})`
    )
  }
  if (request.maxDepth < depthRange.min || request.maxDepth > depthRange.max) {
    return HostedSite.unhonoured(
      c,
      "maxDepth",
      `Tavily crawls ${depthRange.min} to ${depthRange.max} levels deep (got ${request.maxDepth})`
    )
  }
  return undefined
}

const crawlSite = (client: HttpClient.HttpClient) =>
  HostedSite.crawlSite(preset, (c, request) => {
    const refused = unhonoured(c, request)
    if (refused !== undefined) return Stream.fail(refused)
    return Stream.unwrap(
      Effect.map(
        ProviderHttp.postJson(client, c, { path: "/crawl", body: crawlBody(request), schema: CrawlAnswer, refuse }),
        ({ body }) => {
          const items: Array<ProviderDriver.CrawlItem> = []
          const seen = new Set<string>()
          for (const page of body.results ?? []) {
            const url = Fields.httpUrl(page.url)
            if (url === undefined || seen.has(url)) continue
            // Tavily may answer with more than asked: the request's page limit holds whatever it sent.
            if (seen.size >= request.maxPages) break
            seen.add(url)
            const content = Fields.tidy(page.raw_content ?? "")
            items.push(
              content === ""
                ? { _tag: "Failed", url, error: Http.empty({ ...c, input: url }) }
                : { _tag: "Page", url, result: Fields.page(url, { title: page.title, content, url }) }
            )
          }
          return Stream.fromIterable(items)
        }
      )
    )
  })

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({
  searchOptions,
  searchKeywords: searchKeywords(client),
  fetchUrls: fetchUrls(client),
  mapSite: mapSite(client),
  crawlSite: crawlSite(client)
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
