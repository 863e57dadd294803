/**
 * The `searchKeywords` capability: search the web for 1–20 keyword queries with the requested or default
 * provider, one provider call per query, merged into one `WebSearchResponse`.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { FetchUrls } from "./FetchUrls.js"
import * as CapabilityEnv from "./internal/capabilityEnv.js"
import * as Pipeline from "./internal/pipeline.js"
import type { ProviderRegistry } from "./ProviderRegistry.js"
import type { Settings } from "./Settings.js"
import type { WebSearchError } from "./WebSearchError.js"
import * as WebSearchRequest from "./WebSearchRequest.js"
import type { WebSearchResponse } from "./WebSearchResponse.js"

/**
 * The keyword-search service.
 *
 * @since 0.1.0
 * @category services
 */
export class SearchKeywords extends Context.Tag("@websearch/core/SearchKeywords")<
  SearchKeywords,
  SearchKeywords.Service
>() {}

/**
 * The service's shape: a record of functions, so a test can stand in for it.
 *
 * @example
 * ```ts
 * import * as SearchKeywords from "@websearch/core/SearchKeywords"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * // A stand-in for tests of code that searches: the service is a plain record of functions.
 * const Canned = Layer.succeed(
 *   SearchKeywords.SearchKeywords,
 *   SearchKeywords.SearchKeywords.of({
 *     searchKeywords: (request) =>
 *       Effect.succeed({
 *         query: request.keywords.join(" "),
 *         providerId: "canned",
 *         capability: "searchKeywords",
 *         inputs: request.keywords,
 *         results: request.keywords.map((keyword) => ({
 *           title: keyword,
 *           content: `about ${keyword}`,
 *           url: "https://example.com/",
 *           sourceInput: keyword
 *         })),
 *         failures: []
 *       })
 *   })
 * )
 *
 * const program = Effect.map(SearchKeywords.searchKeywords({ keywords: ["effect"] }), (r) => r.results.length)
 *
 * Effect.runPromise(program.pipe(Effect.tap(Effect.log), Effect.provide(Canned)))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export declare namespace SearchKeywords {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * Validates and normalises the request (trimmed, empty dropped, deduped), then searches every keyword.
     * Partial failures are listed in `failures`; if every keyword fails, the first keyword's error is raised
     * with every failure attached. Search options the provider cannot apply are refused before any call; the
     * domain options are enforced on the results. With `providerIds` (or the `fusion` setting) every keyword runs
     * on each provider and the rankings are fused (see `Fusion`).
     */
    readonly searchKeywords: (
      request: typeof WebSearchRequest.SearchKeywordsRequest.Encoded
    ) => Effect.Effect<WebSearchResponse, WebSearchError>
  }
}

/**
 * Builds the service from the settings, the provider registry and the `FetchUrls` service (which drivers may call).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<SearchKeywords.Service, never, Settings | ProviderRegistry | FetchUrls> = Effect.gen(
  function* () {
    const env = yield* CapabilityEnv.make
    return {
      searchKeywords: (request) =>
        Pipeline.checkPlacement(env).pipe(
          Effect.zipRight(WebSearchRequest.normalizeSearchKeywords(request)),
          Effect.flatMap((normalized) =>
            Pipeline.runList(env, { ...normalized, capability: "searchKeywords" }, (driver) => driver.searchKeywords)
          )
        )
    }
  }
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<SearchKeywords, never, Settings | ProviderRegistry | FetchUrls> = Layer.effect(
  SearchKeywords,
  make
)

/**
 * Searches with the `SearchKeywords` service in context.
 *
 * @example
 * ```ts
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as SearchKeywords from "@websearch/core/SearchKeywords"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Tavily from "@websearch/providers/Tavily"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const program = Effect.gen(function* () {
 *   const response = yield* SearchKeywords.searchKeywords({
 *     keywords: ["effect-ts layers", "effect-ts streams"],
 *     maxResults: 5
 *   })
 *   // Keywords that failed while others succeeded are listed, not raised.
 *   for (const failure of response.failures) yield* Effect.logWarning(failure.message)
 *   return response.results.map((result) => result.url)
 * })
 *
 * // TAVILY_API_KEY and WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER=tavily from the environment.
 * const Live = WebSearch.layer(Tavily.layer).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(Settings.layerConfig())
 * )
 *
 * export const main = Effect.provide(program, Live)
 * ```
 *
 * @since 0.1.0
 * @category accessors
 */
export const searchKeywords = (
  request: typeof WebSearchRequest.SearchKeywordsRequest.Encoded
): Effect.Effect<WebSearchResponse, WebSearchError, SearchKeywords> =>
  Effect.flatMap(SearchKeywords, (service) => service.searchKeywords(request))
