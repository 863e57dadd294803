/**
 * The `crawlSite` capability: the pages of a site read as `fetchUrls` reads them, breadth-first from a start URL
 * (or from the site's map too), as a `Stream` of events — each page read, each page that failed with its typed
 * error, then a closing `CrawlDone` with the counts, the skips by reason and the limits reached.
 *
 * A provider that reads single pages (`crawlPage`, the local fetcher) is driven by websearch's own frontier:
 * `maxPages`, `maxDepth`, the path patterns and the site's bounds, politeness per host (`concurrency`, `delay`,
 * Retry-After), dedupe by normalised URL and canonical link, every page through the URL policy, the blacklist and
 * the fetcher's own SSRF guard. A hosted crawler (Firecrawl, Tavily) runs the crawl itself; its pages pass the same
 * admission, dedupe and `maxPages`. The crawl fails only when its start does; stopping the stream stops every fetch.
 *
 * @since 0.2.0
 */
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as CrawlEngine from "./internal/crawlEngine.js"
import * as SiteRun from "./internal/siteRun.js"
import type { FetchUrls } from "./FetchUrls.js"
import { ProviderId } from "./ProviderId.js"
import type { ProviderRegistry } from "./ProviderRegistry.js"
import type { Settings } from "./Settings.js"
import type * as SiteRequest from "./SiteRequest.js"
import * as SiteResponse from "./SiteResponse.js"
import type { WebSearchError } from "./WebSearchError.js"

/**
 * The site-crawling service.
 *
 * @since 0.2.0
 * @category services
 */
export class CrawlSite extends Context.Tag("@websearch/core/CrawlSite")<CrawlSite, CrawlSite.Service>() {}

/**
 * @since 0.2.0
 * @category models
 */
export declare namespace CrawlSite {
  /**
   * @since 0.2.0
   * @category models
   */
  export interface Service {
    /**
     * Validates the request (a bad field fails the stream before any call, naming it), resolves the provider,
     * checks the start URL, then crawls: its events as they happen, ending with `CrawlDone`.
     */
    readonly crawlSite: (
      request: typeof SiteRequest.CrawlSiteRequest.Encoded
    ) => Stream.Stream<SiteResponse.CrawlEvent, WebSearchError>
  }
}

/**
 * Builds the service from the settings, the provider registry and the application's `fetchUrls`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<CrawlSite.Service, never, Settings | ProviderRegistry | FetchUrls> = Effect.map(
  // The same preparation and in-memory run as the crawl-job engines use.
  CrawlEngine.make,
  (engine) => ({
    crawlSite: (request) =>
      Stream.unwrap(Effect.map(engine.prepare(request), engine.run)).pipe(
        Stream.withSpan("websearch.crawlSite", {
          captureStackTrace: false,
          attributes: { "websearch.capability": "crawlSite" }
        })
      )
  })
)

/**
 * @since 0.2.0
 * @category layers
 */
export const layer: Layer.Layer<CrawlSite, never, Settings | ProviderRegistry | FetchUrls> = Layer.effect(
  CrawlSite,
  make
)

/**
 * Crawls a site with the `CrawlSite` service in context: a `Stream` of its events, so a caller can stop early
 * (`Stream.take`, `Stream.takeUntil`) and every fetch stops with it.
 *
 * @example
 * ```ts
 * import * as CrawlSite from "@websearch/core/CrawlSite"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 * import * as Stream from "effect/Stream"
 *
 * const program = CrawlSite.crawlSite({ url: "https://effect.website/docs/", maxPages: 20, maxDepth: 2 }).pipe(
 *   Stream.runForEach((event) => {
 *     switch (event._tag) {
 *       case "CrawlPage":
 *         return Effect.log(`${event.url}: ${event.result.title}`)
 *       case "CrawlFailure":
 *         return Effect.logWarning(`${event.url}: ${event.failure.message}`)
 *       case "CrawlDone":
 *         return Effect.log(`${event.pages} pages, ${event.failed} failed`)
 *     }
 *   })
 * )
 *
 * const Live = WebSearch.layer(Fetch.layer).pipe(Layer.provide(Settings.layer()))
 *
 * export const main = Effect.provide(program, Live)
 * ```
 *
 * @since 0.2.0
 * @category accessors
 */
export const crawlSite = (
  request: typeof SiteRequest.CrawlSiteRequest.Encoded
): Stream.Stream<SiteResponse.CrawlEvent, WebSearchError, CrawlSite> =>
  Stream.unwrap(Effect.map(CrawlSite, (service) => service.crawlSite(request)))

/**
 * Crawls a site and gathers the whole crawl: its pages and failures in the order they arrived, and its summary.
 *
 * @since 0.2.0
 * @category accessors
 */
export const collect = (
  request: typeof SiteRequest.CrawlSiteRequest.Encoded
): Effect.Effect<SiteResponse.CrawlSiteResponse, WebSearchError, CrawlSite> =>
  Effect.map(Stream.runCollect(crawlSite(request)), (chunk) => {
    const pages: Array<SiteResponse.CrawlPage> = []
    const failures: Array<SiteResponse.CrawlFailure> = []
    let done: SiteResponse.CrawlDone | undefined
    for (const event of Chunk.toReadonlyArray(chunk)) {
      if (event._tag === "CrawlPage") pages.push(event)
      else if (event._tag === "CrawlFailure") failures.push(event)
      else done = event
    }
    // A crawl that did not fail always closes with its summary; the fallback only keeps the type honest.
    return { pages, failures, done: done ?? summaryOf(request, pages, failures) }
  })

const summaryOf = (
  request: typeof SiteRequest.CrawlSiteRequest.Encoded,
  pages: ReadonlyArray<SiteResponse.CrawlPage>,
  failures: ReadonlyArray<SiteResponse.CrawlFailure>
): SiteResponse.CrawlDone =>
  new SiteResponse.CrawlDone({
    // The request is not decoded here: an id the schema refuses is not one to put in the summary.
    providerId: Schema.is(ProviderId)(request.providerId) ? request.providerId : "unknown",
    url: request.url,
    pages: pages.length,
    failed: failures.length,
    skipped: SiteRun.noSkips,
    cuts: [{ reason: "interrupted", message: "the crawl ended without its summary" }]
  })
