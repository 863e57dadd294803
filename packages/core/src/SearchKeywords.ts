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
 * @category tags
 */
export class SearchKeywords extends Context.Tag("@websearch/core/SearchKeywords")<
  SearchKeywords,
  SearchKeywords.Service
>() {}

/**
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
     * with every failure attached.
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
 * @since 0.1.0
 * @category accessors
 */
export const searchKeywords = (
  request: typeof WebSearchRequest.SearchKeywordsRequest.Encoded
): Effect.Effect<WebSearchResponse, WebSearchError, SearchKeywords> =>
  Effect.flatMap(SearchKeywords, (service) => service.searchKeywords(request))
