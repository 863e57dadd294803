/**
 * The `mapSite` capability: the URLs of a site without reading its pages — its robots.txt `Sitemap:` lines,
 * sitemaps (indexes and gzipped ones too), feeds and the start page's links — with the requested or default
 * provider. Whatever the provider returns, core keeps only the site's URLs (its host, with subdomains on request),
 * those the path patterns keep, the URL policy and the blacklist allow, deduplicated by normalised URL, ranked by
 * `search` when given and cut to `limit` (a cut says so).
 *
 * @since 0.2.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as CapabilityEnv from "./internal/capabilityEnv.js"
import * as Pipeline from "./internal/pipeline.js"
import * as SiteRun from "./internal/siteRun.js"
import type { FetchUrls } from "./FetchUrls.js"
import type { ProviderRegistry } from "./ProviderRegistry.js"
import type { Settings } from "./Settings.js"
import * as SiteRequest from "./SiteRequest.js"
import type { MapSiteResponse } from "./SiteResponse.js"
import type { WebSearchError } from "./WebSearchError.js"

/**
 * The site-mapping service.
 *
 * @since 0.2.0
 * @category services
 */
export class MapSite extends Context.Tag("@websearch/core/MapSite")<MapSite, MapSite.Service>() {}

/**
 * @since 0.2.0
 * @category models
 */
export declare namespace MapSite {
  /**
   * @since 0.2.0
   * @category models
   */
  export interface Service {
    /**
     * Validates the request (the start URL, the limit, the patterns; a bad field fails the whole request before any
     * call, naming it), checks the start URL against the URL policy and the blacklist, then maps the site. Sources
     * that failed (a sitemap that did not answer) are listed in `failures`; the map fails only when the provider
     * does.
     */
    readonly mapSite: (
      request: typeof SiteRequest.MapSiteRequest.Encoded
    ) => Effect.Effect<MapSiteResponse, WebSearchError>
  }
}

/**
 * Builds the service from the settings, the provider registry and the application's `fetchUrls`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<MapSite.Service, never, Settings | ProviderRegistry | FetchUrls> = Effect.map(
  CapabilityEnv.make,
  (env) => ({
    mapSite: (request) =>
      Pipeline.checkPlacement(env).pipe(
        Effect.zipRight(SiteRequest.decodeMapSite(request)),
        Effect.flatMap((decoded) => SiteRun.runMap(env, decoded))
      )
  })
)

/**
 * @since 0.2.0
 * @category layers
 */
export const layer: Layer.Layer<MapSite, never, Settings | ProviderRegistry | FetchUrls> = Layer.effect(MapSite, make)

/**
 * Maps a site with the `MapSite` service in context.
 *
 * @example
 * ```ts
 * import * as MapSite from "@websearch/core/MapSite"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const program = Effect.gen(function* () {
 *   const map = yield* MapSite.mapSite({ url: "https://effect.website/", search: "schema", limit: 20 })
 *   // Every limit the map reached is a cut, never a silent drop.
 *   for (const cut of map.cuts) yield* Effect.logInfo(cut.message)
 *   return map.links.map((link) => link.url)
 * })
 *
 * // The local fetcher maps sites from their sitemaps, feeds and links when it is composed.
 * const Live = WebSearch.layer(Fetch.layer).pipe(Layer.provide(Settings.layer()))
 *
 * export const main = Effect.provide(program, Live)
 * ```
 *
 * @since 0.2.0
 * @category accessors
 */
export const mapSite = (
  request: typeof SiteRequest.MapSiteRequest.Encoded
): Effect.Effect<MapSiteResponse, WebSearchError, MapSite> =>
  Effect.flatMap(MapSite, (service) => service.mapSite(request))
