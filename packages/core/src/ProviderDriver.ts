/**
 * The driver contract: what a provider module implements. A provider module owns its preset, the schema of its
 * own options (the fields of `providers.<id>` in the settings beyond the common ones), the environment variables
 * those options are read from, and the driver methods for the capabilities its preset declares. Drivers capture
 * what they need (an `HttpClient`, a transport) when their Layer is built, so each provider can be given its own
 * client. Built-in providers use exactly this contract.
 *
 * @since 0.1.0
 */
import type * as Config from "effect/Config"
import type * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import type { Preset } from "./Preset.js"
import type { Reporter } from "./internal/usageFact.js"
import type { ProviderConfig } from "./ProviderConfig.js"
import type { SearchOption } from "./SearchOptions.js"
import type { CrawlSiteRequest, MapSiteRequest } from "./SiteRequest.js"
import type { SiteCut, SiteLink } from "./SiteResponse.js"
import type { WebSearchError } from "./WebSearchError.js"
import type { FetchUrlsRequest, ResearchRequest } from "./WebSearchRequest.js"
import type { ResearchResponse, WebSearchResponse, WebSearchResult } from "./WebSearchResponse.js"

/**
 * One result as a driver returns it; the pipeline adds `sourceInput`.
 *
 * @since 0.1.0
 * @category models
 */
export type DriverResult = Omit<WebSearchResult, "sourceInput">

/**
 * A driver's map of a site: the links it found (core filters, deduplicates, ranks and cuts them to the request's
 * limit after the call, whatever the provider did), the limits it reached, and the sources that failed (a sitemap
 * that did not answer), each with its URL.
 *
 * @since 0.2.0
 * @category models
 */
export interface MapSiteOutput {
  readonly links: ReadonlyArray<SiteLink>
  readonly cuts: ReadonlyArray<SiteCut>
  readonly failures?: ReadonlyArray<readonly [url: string, error: WebSearchError]> | undefined
}

/**
 * One page of a crawl as a hosted crawler returns it: read, or failed with its typed error. Core checks each
 * page's URL against the site, the URL policy and the blacklist, and closes the stream with the summary.
 *
 * @since 0.2.0
 * @category models
 */
export type CrawlItem =
  | { readonly _tag: "Page"; readonly url: string; readonly depth?: number | undefined; readonly result: DriverResult }
  | {
      readonly _tag: "Failed"
      readonly url: string
      readonly depth?: number | undefined
      readonly error: WebSearchError
    }

/**
 * One page read for websearch's own crawler: the page as `fetchUrls` reads it, the links it holds (absolute, in
 * document order, at most a few thousand) and its canonical link when it names one.
 *
 * @since 0.2.0
 * @category models
 */
export interface CrawledPage {
  readonly result: DriverResult
  readonly links: ReadonlyArray<string>
  readonly canonical?: string | undefined
}

/**
 * What a driver call receives besides its input: the resolved configuration of this capability (endpoint,
 * the API key chosen by rotation, engines, basic auth, maxResults, timeout), the provider's own options as its
 * schema decoded them, and the application's own `fetchUrls` capability (for a search provider that reads the
 * pages it finds).
 *
 * @since 0.1.0
 * @category models
 */
export interface DriverContext<Options = unknown> extends ProviderConfig {
  readonly options: Options
  /**
   * The application's `fetchUrls` capability, with its default provider, budget and policy: bound when the
   * application's layer is built, so a driver may call it (never for its own capability, which would loop).
   */
  readonly fetchUrls: (request: typeof FetchUrlsRequest.Encoded) => Effect.Effect<WebSearchResponse, WebSearchError>
  /**
   * The composed usage sink (`UsageSink.layer`, else the one that logs), passed here rather than provided to the
   * call: a paid call reports with `UsageSink.report(fact, ctx.usageSink)`. The pipeline always sets it; a driver
   * called directly without it reports to the sink in context.
   *
   * @since 0.2.0
   */
  readonly usageSink?: Reporter | undefined
}

/**
 * A provider driver. Errors must be one of the four websearch errors and must never contain a secret; the
 * pipeline also scrubs the call's API key and password from any message as a second line of defence.
 *
 * @example
 * ```ts
 * import * as Preset from "@websearch/core/Preset"
 * import type * as ProviderDriver from "@websearch/core/ProviderDriver"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const Options = Schema.Struct({ greeting: Schema.optionalWith(Schema.String, { default: () => "hello" }) })
 *
 * const driver: ProviderDriver.ProviderDriver<typeof Options.Type, typeof Options.Encoded> = {
 *   preset: Preset.make({
 *     id: "memory",
 *     name: "Memory",
 *     type: "local",
 *     credentials: "none",
 *     capabilities: [{ feature: "searchKeywords" }]
 *   }),
 *   options: Options,
 *   searchKeywords: (keyword, ctx) =>
 *     Effect.succeed([{ title: `${ctx.options.greeting} ${keyword}`, url: "https://example.com/", content: keyword }])
 * }
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface ProviderDriver<Options = unknown, OptionsEncoded = unknown> {
  readonly preset: Preset
  /**
   * The schema of the provider's own options: the fields of `providers.<id>` besides the common ones (`apiKeys`,
   * `capabilities`, `engines`, `basicAuthUsername`, `basicAuthPassword`, `model`, `rateLimit`). Decoded (unknown
   * fields refused) when the application's layer is built. Without one the provider takes no options.
   */
  readonly options?: Schema.Schema<Options, OptionsEncoded> | undefined
  /**
   * Reads the provider's options from the environment (or any `ConfigProvider`), as their encoded fields; absent
   * variables are left out. Read when the settings came from the environment, and laid over the settings' fields.
   */
  readonly optionsConfig?: Config.Config<Partial<OptionsEncoded>> | undefined
  /**
   * The search options this provider honours natively: `searchKeywords` maps each to its own parameters from
   * `ctx.searchOptions`. Any other option a request sets is refused before a call (`RequestFailed/invalid_input`),
   * except `includeDomains`/`excludeDomains`, which are always enforced on the results after the call.
   */
  readonly searchOptions?: ReadonlyArray<SearchOption> | undefined
  /** Searches one keyword query. */
  readonly searchKeywords?: (
    keyword: string,
    ctx: DriverContext<Options>
  ) => Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError>
  /** Fetches one URL; `url` on the result is the final URL after redirects. */
  readonly fetchUrls?: (url: string, ctx: DriverContext<Options>) => Effect.Effect<DriverResult, WebSearchError>
  /**
   * Maps one site (the request decoded, its limits and patterns included). A provider that cannot honour a
   * field the request sets fails `RequestFailed/invalid_input` naming it, before any call.
   */
  readonly mapSite?: (
    request: MapSiteRequest,
    ctx: DriverContext<Options>
  ) => Effect.Effect<MapSiteOutput, WebSearchError>
  /**
   * Crawls one site on a hosted crawler: its pages as they arrive. A provider that cannot honour a field the
   * request sets fails the stream `RequestFailed/invalid_input` naming it, before any call; interrupting the
   * stream stops (and, where the provider can, cancels) the crawl.
   */
  readonly crawlSite?: (
    request: CrawlSiteRequest,
    ctx: DriverContext<Options>
  ) => Stream.Stream<CrawlItem, WebSearchError>
  /**
   * Reads one page for websearch's own crawler, which keeps the frontier, the limits, the politeness and the
   * dedupe (in memory, or in a shared store across replicas). A provider with this serves `crawlSite` without a
   * `crawlSite` method; the URL given has passed the URL policy and the blacklist, and redirects off the site are
   * the driver's to refuse (`RequestFailed/redirect_rejected`).
   */
  readonly crawlPage?: (
    url: string,
    site: SiteScope,
    ctx: DriverContext<Options>
  ) => Effect.Effect<CrawledPage, WebSearchError>
  /** Researches one brief. */
  readonly research?: (
    request: ResearchRequest,
    ctx: DriverContext<Options>
  ) => Effect.Effect<Omit<ResearchResponse, "providerId" | "query">, WebSearchError>
}

/**
 * The site a crawled page belongs to, for the driver to refuse a redirect that leaves it: the start URL's host,
 * with its subdomains when `includeSubdomains`.
 *
 * @since 0.2.0
 * @category models
 */
export interface SiteScope {
  readonly host: string
  readonly includeSubdomains: boolean
}

/**
 * A driver of any options, as the registry holds them.
 *
 * @since 0.2.0
 * @category models
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProviderDriver = ProviderDriver<any, any>
