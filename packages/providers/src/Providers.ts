/**
 * Every remote provider of this package in one Layer, for applications (and the CLI) that want them all: an
 * application that wants only some composes those modules' layers instead. Each driver captures the
 * `HttpClient` in context when the Layer is built.
 *
 * @example
 * ```ts
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Providers from "@websearch/providers/Providers"
 * import * as Layer from "effect/Layer"
 *
 * // The settings say which providers have keys and which is the default of each capability.
 * export const Live = WebSearch.layer(Providers.layer).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(Settings.layerConfig())
 * )
 * ```
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Composition from "@websearch/core/Composition"
import type * as Preset from "@websearch/core/Preset"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Baidu from "./Baidu.js"
import * as Bing from "./Bing.js"
import * as Bocha from "./Bocha.js"
import * as Brave from "./Brave.js"
import * as DuckDuckGo from "./DuckDuckGo.js"
import * as Exa from "./Exa.js"
import * as ExaMcp from "./ExaMcp.js"
import * as Firecrawl from "./Firecrawl.js"
import * as GoogleSearch from "./GoogleSearch.js"
import * as Jina from "./Jina.js"
import * as Kagi from "./Kagi.js"
import * as Keenable from "./Keenable.js"
import * as Ollama from "./Ollama.js"
import * as OpenAi from "./OpenAi.js"
import * as Perplexity from "./Perplexity.js"
import * as Querit from "./Querit.js"
import * as SearXng from "./SearXng.js"
import * as SerpApi from "./SerpApi.js"
import * as Serper from "./Serper.js"
import * as Tavily from "./Tavily.js"
import * as Zhipu from "./Zhipu.js"

// The catalogue, written once: every remote provider with its driver, in display order. `presets` and `layer`
// are both read from it. OpenAI is last and apart: its Layer also checks the configured model.
const drivers = [
  Tavily,
  Exa,
  ExaMcp,
  SearXng,
  Jina,
  Zhipu,
  Bocha,
  Querit,
  Brave,
  Serper,
  GoogleSearch,
  Bing,
  Baidu,
  Ollama,
  Keenable,
  DuckDuckGo,
  Firecrawl,
  Perplexity,
  Kagi,
  SerpApi
] as const

/**
 * The presets of the providers `layer` registers, in display order: the catalogue of this package.
 *
 * @since 0.2.0
 * @category constants
 */
export const presets: ReadonlyArray<Preset.Preset> = [...drivers.map((provider) => provider.preset), OpenAi.preset]

/**
 * The ids of the providers `layer` registers, in display order.
 *
 * @since 0.1.0
 * @category constants
 */
export const ids: ReadonlyArray<string> = presets.map((preset) => preset.id)

/**
 * Registers every remote provider's driver, and proposes DuckDuckGo (keyless) as the default search provider
 * (the settings' `defaults.searchKeywords` wins).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<never, never, Composition.Composition | HttpClient.HttpClient> = Composition.sequence(
  ProviderRegistry.proposeDefaults("@websearch/providers Providers.layer", { searchKeywords: DuckDuckGo.providerId }),
  // The drivers are registered by one Layer, in catalogue order: twenty Layers of one driver each cost a command's
  // cold start about 30 ms of CPU and 6 MiB more to build (measured on Node 22).
  Layer.effectDiscard(
    Effect.gen(function* () {
      const composition = yield* Composition.Composition
      for (const provider of drivers) {
        yield* composition.addDriver(yield* provider.make)
      }
    })
  ),
  // Its own Layer: it also checks the configured model when the settings are in context.
  OpenAi.layer
)
