/**
 * The `fetchUrls` capability: fetch the content of 1–20 http(s) URLs with the requested or default
 * provider, one provider call per URL, merged into one `WebSearchResponse`. It never searches.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Pipeline from "./internal/pipeline.js"
import * as PipelineEnv from "./internal/pipelineEnv.js"
import * as PageStore from "./PageStore.js"
import { ProviderRegistry } from "./ProviderRegistry.js"
import { Settings } from "./Settings.js"
import type { WebSearchError } from "./WebSearchError.js"
import * as WebSearchRequest from "./WebSearchRequest.js"
import type { WebSearchResponse } from "./WebSearchResponse.js"

/**
 * The URL-fetching service.
 *
 * @since 0.1.0
 * @category services
 */
export class FetchUrls extends Context.Tag("@websearch/core/FetchUrls")<FetchUrls, FetchUrls.Service>() {}

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace FetchUrls {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * Validates and normalises the request (URLs parsed, http(s) only; any invalid URL fails the whole request before a call), then fetches every URL; blacklisted URLs are refused without a request.
     * With `maxLength` / `startIndex`, each page is served in pages (see `Paging`); reading on is served from the
     * result cache or the application's page store, without a second fetch.
     * Partial failures are listed in `failures`; if every URL fails, the first URL's error is raised
     * with every failure attached.
     */
    readonly fetchUrls: (
      request: typeof WebSearchRequest.FetchUrlsRequest.Encoded
    ) => Effect.Effect<WebSearchResponse, WebSearchError>
  }
}

/**
 * Builds the service from the settings and the provider registry.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<FetchUrls.Service, never, Settings | ProviderRegistry> = Effect.gen(function* () {
  const settings = yield* Settings
  const registry = yield* ProviderRegistry
  // One page store per application: a page read in pages is fetched once (the result cache serves instead when
  // it keeps fetches).
  const pages = yield* PageStore.make()
  const service: FetchUrls.Service = {
    fetchUrls: (request) =>
      Pipeline.checkPlacement(env).pipe(
        Effect.zipRight(WebSearchRequest.normalizeFetchUrls(request)),
        Effect.flatMap((normalized) =>
          Pipeline.runList(env, { ...normalized, capability: "fetchUrls" }, (driver) => {
            const fetchOne = driver.fetchUrls
            return fetchOne && ((url, ctx) => Effect.map(fetchOne(url, ctx), (page) => [page]))
          })
        )
      )
  }
  // A fetch driver handed the application's own fetcher would call itself: it is given this service all the same,
  // for uniformity, and documented as never to be called for its own capability.
  const env = PipelineEnv.make({ settings, registry, pages, fetchUrls: (request) => service.fetchUrls(request) })
  return service
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<FetchUrls, never, Settings | ProviderRegistry> = Layer.effect(FetchUrls, make)

/**
 * Fetches with the `FetchUrls` service in context.
 *
 * @example
 * ```ts
 * import * as FetchUrls from "@websearch/core/FetchUrls"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const program = Effect.gen(function* () {
 *   const response = yield* FetchUrls.fetchUrls({ urls: ["https://effect.website/docs/getting-started/"] })
 *   // One result per page read, as markdown; pages that could not be read are in `failures`.
 *   return response.results.map((page) => `${page.title}: ${page.content.length} characters`)
 * })
 *
 * // The local fetcher (`fetch`) is the default page reader when it is composed.
 * const Live = WebSearch.layer(Fetch.layer).pipe(Layer.provide(Settings.layer()))
 *
 * export const main = Effect.provide(program, Live)
 * ```
 *
 * @since 0.1.0
 * @category accessors
 */
export const fetchUrls = (
  request: typeof WebSearchRequest.FetchUrlsRequest.Encoded
): Effect.Effect<WebSearchResponse, WebSearchError, FetchUrls> =>
  Effect.flatMap(FetchUrls, (service) => service.fetchUrls(request))
