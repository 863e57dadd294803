/**
 * The whole of websearch in one Layer: the three capability services, provider checks and the provider
 * registry that provider Layers register into. Compose it with the providers you want and settings:
 *
 * ```ts
 * const Live = Layer.mergeAll(Tavily.layer, Jina.layer).pipe(
 *   Layer.provideMerge(WebSearch.layer),
 *   Layer.provide(Settings.layerConfig())
 * )
 * ```
 *
 * @since 0.1.0
 */
import * as Layer from "effect/Layer"
import * as FetchUrls from "./FetchUrls.js"
import * as ProviderChecks from "./ProviderChecks.js"
import * as ProviderRegistry from "./ProviderRegistry.js"
import * as Research from "./Research.js"
import * as SearchKeywords from "./SearchKeywords.js"
import type { Settings } from "./Settings.js"

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
  | ProviderChecks.ProviderChecks
  | ProviderRegistry.ProviderRegistry

/**
 * The capability services, checks and an empty provider registry; needs `Settings`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<WebSearch, never, Settings> = ProviderChecks.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(SearchKeywords.layer, FetchUrls.layer, Research.layer)),
  Layer.provideMerge(ProviderRegistry.layer)
)
