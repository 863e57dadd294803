/**
 * The whole of websearch in one Layer: the three capability services, provider checks and the provider registry,
 * built from the parts an application composes — provider modules' layers, a bundle's default providers, and the
 * optional services (result cache, provider quota, token counter, chunk ranker, usage sink). Everything is read
 * once, when the layer is built: a part placed anywhere but in `WebSearch.layer(...)` is a type error (it needs
 * `Composition`, which only this layer provides), an override for a provider that is not composed fails the
 * start naming the composed ids, and an optional service provided to this layer's context or to a call instead of
 * composed as a part fails saying where it belongs.
 *
 * @example
 * ```ts
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as SearchKeywords from "@websearch/core/SearchKeywords"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as Tavily from "@websearch/providers/Tavily"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const Live = WebSearch.layer(Tavily.layer, Fetch.layer).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(Settings.layerConfig()) // TAVILY_API_KEY, WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER=tavily …
 * )
 *
 * const program = SearchKeywords.searchKeywords({ keywords: ["effect-ts layers"] })
 * export const main = Effect.provide(program, Live) // run it with NodeRuntime.runMain
 * ```
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Composition from "./Composition.js"
import * as CrawlSite from "./CrawlSite.js"
import * as FetchUrls from "./FetchUrls.js"
import * as MapSite from "./MapSite.js"
import * as ProviderChecks from "./ProviderChecks.js"
import * as ProviderRegistry from "./ProviderRegistry.js"
import * as Research from "./Research.js"
import * as SearchKeywords from "./SearchKeywords.js"
import { Settings } from "./Settings.js"
import * as ServicePlacement from "./internal/servicePlacement.js"
import type * as WebSearchError from "./WebSearchError.js"

/**
 * Everything `WebSearch.layer` provides.
 *
 * @since 0.1.0
 * @category models
 */
export type WebSearch =
  | SearchKeywords.SearchKeywords
  | FetchUrls.FetchUrls
  | Research.Research
  | MapSite.MapSite
  | CrawlSite.CrawlSite
  | ProviderChecks.ProviderChecks
  | ProviderRegistry.ProviderRegistry

/**
 * A part of an application: a Layer that contributes to the composition (a provider's `layer`,
 * `ProviderRegistry.proposeDefaults`, `ResultCache.layer`, `SharedStores.layerConfig()` from `@websearch/node`).
 * A part may also provide services of its own (the shared stores' `RateLimiter`), which the application's layer
 * passes on.
 *
 * @since 0.2.0
 * @category models
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Part = Layer.Layer<never, any, any>

const registry = Layer.effect(
  ProviderRegistry.ProviderRegistry,
  Effect.gen(function* () {
    // An optional service provided to this layer instead of composed as a part would be ignored: say so at start.
    yield* ServicePlacement.check("start")
    const composition = yield* Composition.Composition
    return yield* ProviderRegistry.make(composition.contributions(), yield* Settings)
  })
)

const services = ProviderChecks.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(SearchKeywords.layer, Research.layer, MapSite.layer, CrawlSite.layer)),
  Layer.provideMerge(FetchUrls.layer),
  Layer.provideMerge(registry)
)

/**
 * The application's layer: the capability services, checks and the provider registry, built from the given
 * parts; needs `Settings`, plus whatever the parts need (an `HttpClient` for remote providers). Parts are built in
 * order, so a later registration of a provider id replaces an earlier one and listings follow the parts' order.
 *
 * @example
 * ```ts
 * import * as Preset from "@websearch/core/Preset"
 * import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
 * import * as SearchKeywords from "@websearch/core/SearchKeywords"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * // A provider of the application's own, in memory (no network, no key); a built-in one is `Tavily.layer` etc.
 * const Memory = ProviderRegistry.register({
 *   preset: Preset.make({
 *     id: "memory",
 *     name: "Memory",
 *     type: "local",
 *     credentials: "none",
 *     capabilities: [{ feature: "searchKeywords" }]
 *   }),
 *   searchKeywords: (keyword) =>
 *     Effect.succeed([{ title: `About ${keyword}`, url: "https://example.com/", content: `${keyword}, explained` }])
 * })
 *
 * const Live = WebSearch.layer(Memory).pipe(Layer.provide(Settings.layer({ defaults: { searchKeywords: "memory" } })))
 *
 * const program = SearchKeywords.searchKeywords({ keywords: ["effect layers"] })
 *
 * Effect.runPromise(
 *   program.pipe(
 *     Effect.tap((response) => Effect.log(response.results[0]?.title)),
 *     Effect.provide(Live)
 *   )
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = <const Parts extends ReadonlyArray<Part>>(
  ...parts: Parts
): Layer.Layer<
  // Distributed over the parts: `Layer.Layer.Success` of a union of layers is the intersection of their outputs.
  | WebSearch
  | (Parts[number] extends infer P ? (P extends Layer.Layer<infer A, infer _E, infer _R> ? A : never) : never),
  WebSearchError.Unavailable | Layer.Layer.Error<Parts[number]>,
  Settings | Exclude<Layer.Layer.Context<Parts[number]>, Composition.Composition>
> => {
  // A fresh collector per application layer, shared by its parts and the registry within one build.
  const collector = Layer.effect(Composition.Composition, Composition.make)
  return services.pipe(Layer.provideMerge(Composition.sequence(...parts)), Layer.provide(collector)) as never
}
