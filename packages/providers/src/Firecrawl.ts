/**
 * The `firecrawl` provider: `searchKeywords` on `POST {apiHost}/v1/search`, `fetchUrls` on
 * `POST {apiHost}/v1/scrape`, `mapSite` on `POST {apiHost}/v2/map` and `crawlSite` as a job on
 * `POST {apiHost}/v2/crawl` (apiHost `https://api.firecrawl.dev`), with the key as a Bearer token.
 *
 * Search asks for `limit` clamped to Firecrawl's 1–100 and no scraping (the result's `content` is Firecrawl's
 * description, or the page's markdown when only that came back); the answer's `data` is a list (v1) or, from a
 * v2-compatible host, an object whose `web` holds the list. Scrape asks for the main content of one URL as
 * markdown; the result's URL is the final one Firecrawl reports (`metadata.url`, else `metadata.sourceURL`).
 *
 * Errors: 401/403 → `Unavailable/credentials_rejected`; 402 (payment required, credits exhausted) →
 * `RequestFailed/rate_limited`, not retryable; 429 → `RequestFailed/http_429` (Retry-After honoured); 5xx →
 * `http_5xx`; `success: false` in a 2xx answer → `RequestFailed` with Firecrawl's `error` (and `code`); a page
 * that answered Firecrawl with 4xx/5xx (`metadata.statusCode`) → `RequestFailed` for the page's status
 * (`http_404`, `http_403`, `http_status`) naming it. Firecrawl's `error` message is kept.
 *
 * A map asks for the site's links (its subdomains' with `includeSubdomains`), with `search` as Firecrawl's own
 * relevance order; Firecrawl gives titles. A crawl starts a job over the whole site (`crawlEntireDomain`) with the
 * request's page limit, discovery depth, path patterns as regular expressions, subdomains, and politeness
 * (`maxConcurrency`, `delay`), polls it every `crawlPollInterval` milliseconds (following `next` pages), emits each
 * new page once and, when the job ends, each page it could not read (`GET /v2/crawl/{id}/errors`). Stopping the
 * stream before the job ended cancels it (`DELETE /v2/crawl/{id}`). A job that failed with no page read fails the
 * stream (`RequestFailed/http_status`).
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Site from "./internal/firecrawlSite.js"
import * as HostedSite from "./internal/hostedSite.js"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import {
  ScrapeAnswer,
  SearchAnswer,
  pageRefusal,
  scrapeBody,
  searchBody,
  unsuccessful
} from "./internal/firecrawlWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "firecrawl"

/**
 * The `firecrawl` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "firecrawl",
  name: "Firecrawl",
  type: "api",
  credentials: "required",
  capabilities: [
    { feature: "searchKeywords", apiHost: "https://api.firecrawl.dev" },
    { feature: "fetchUrls", apiHost: "https://api.firecrawl.dev" },
    { feature: "mapSite", apiHost: "https://api.firecrawl.dev" },
    { feature: "crawlSite", apiHost: "https://api.firecrawl.dev" }
  ]
})

/**
 * The search options Firecrawl's `/v1/search` honours natively: `tbs` (`qdr:d`, `qdr:w`, `qdr:m`, `qdr:y`),
 * `lang` and `country`.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange", "language", "country"]

// The provider's own options in the settings: `providers.firecrawl.crawlPollInterval`, how long a crawl waits
// between two polls of its job, in milliseconds (default 2000; environment `FIRECRAWL_CRAWL_POLL_INTERVAL`). Not
// exported: the settings document it, and the public API stays within its export limit.
const Options = Schema.Struct({
  crawlPollInterval: Schema.optional(
    Schema.Int.pipe(Schema.between(1, 60_000, { message: () => "must be an integer from 1 to 60000 (milliseconds)" }))
  )
})

const optionsConfig = Config.all({
  crawlPollInterval: Config.option(Config.integer("FIRECRAWL_CRAWL_POLL_INTERVAL")).pipe(
    Config.map(Option.getOrUndefined)
  )
})

const firstText = (value: string | ReadonlyArray<string> | null | undefined): string | undefined =>
  typeof value === "string" ? value : value?.find((v) => v.trim() !== "")

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/v1/search",
        body: searchBody(c.input, ctx.maxResults, ctx.searchOptions),
        schema: SearchAnswer
      })
      if (body.success === false) return yield* Effect.fail(Http.failure(c, unsuccessful(body, answer.status)))
      const items =
        body.data === null || body.data === undefined ? [] : "web" in body.data ? (body.data.web ?? []) : body.data
      return Fields.results(items, (item) => {
        const description = Fields.plainText(item.description ?? "")
        return {
          title: item.title,
          content: description === "" ? Fields.tidy(item.markdown ?? "") : description,
          url: item.url
        }
      })
    })
  )

const fetchUrls = (client: HttpClient.HttpClient) =>
  ProviderHttp.fetchUrls(preset, (c) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/v1/scrape",
        body: scrapeBody(c.input),
        schema: ScrapeAnswer
      })
      if (body.success === false) return yield* Effect.fail(Http.failure(c, unsuccessful(body, answer.status)))
      const page = body.data
      if (page === null || page === undefined) return yield* Effect.fail(Http.invalid(c, "answered without data"))
      const metadata = page.metadata ?? undefined
      const statusCode = metadata?.statusCode
      if (typeof statusCode === "number" && statusCode >= 400) {
        return yield* Effect.fail(Http.failure(c, pageRefusal(statusCode, metadata?.error)))
      }
      const content = Fields.tidy(page.markdown ?? "")
      if (content === "") return yield* Effect.fail(Http.empty(c))
      const final = Fields.httpUrl(metadata?.url) ?? Fields.httpUrl(metadata?.sourceURL) ?? c.input
      return Fields.page(c.input, { title: firstText(metadata?.title), content, url: final })
    })
  )

const mapSite = (client: HttpClient.HttpClient) =>
  HostedSite.mapSite(preset, (c, request) => Site.map(client, c, request))

// Every field of a crawl request has a Firecrawl parameter, so nothing is refused here.
const crawlSite = (client: HttpClient.HttpClient) =>
  HostedSite.crawlSite<typeof Options.Type | undefined>(preset, (c, request, ctx) =>
    Site.crawl(
      client,
      c,
      request,
      ctx.options?.crawlPollInterval === undefined
        ? Site.defaults.pollInterval
        : Duration.millis(ctx.options.crawlPollInterval)
    )
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<
  ProviderDriver.ProviderDriver<
    { readonly crawlPollInterval?: number | undefined },
    { readonly crawlPollInterval?: number | undefined }
  >,
  never,
  HttpClient.HttpClient
> = ProviderHttp.make(preset, (client) => ({
  options: Options,
  optionsConfig,
  searchOptions,
  searchKeywords: searchKeywords(client),
  fetchUrls: fetchUrls(client),
  mapSite: mapSite(client),
  crawlSite: crawlSite(client)
}))

/**
 * Registers the `firecrawl` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
