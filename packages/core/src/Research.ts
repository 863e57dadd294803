/**
 * The `research` capability: one brief, researched by a hosted provider (OpenAI's Responses API with the
 * `web_search` tool), answered with a report, the queries it ran and the sources it cited.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { FetchUrls } from "./FetchUrls.js"
import * as CapabilityEnv from "./internal/capabilityEnv.js"
import * as Pipeline from "./internal/pipeline.js"
import * as Check from "./internal/resolution/check.js"
import type { ProviderId } from "./ProviderId.js"
import { ProviderRegistry } from "./ProviderRegistry.js"
import type { Settings } from "./Settings.js"
import type * as WebSearchError from "./WebSearchError.js"
import * as WebSearchRequest from "./WebSearchRequest.js"
import type { ResearchResponse } from "./WebSearchResponse.js"

/**
 * The research service.
 *
 * @since 0.1.0
 * @category services
 */
export class Research extends Context.Tag("@websearch/core/Research")<Research, Research.Service>() {}

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace Research {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Validates the brief (1–1000 characters, at most 20 domains) before any paid call, then researches it. */
    readonly research: (
      request: typeof WebSearchRequest.ResearchRequest.Encoded
    ) => Effect.Effect<ResearchResponse, WebSearchError.WebSearchError>
  }
}

/**
 * Builds the service from the settings and the provider registry.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Research.Service, never, Settings | ProviderRegistry | FetchUrls> = Effect.gen(
  function* () {
    const env = yield* CapabilityEnv.make
    return {
      research: (request) =>
        Pipeline.checkPlacement(env).pipe(
          Effect.zipRight(WebSearchRequest.decodeResearch(request)),
          Effect.flatMap((decoded) => Pipeline.runResearch(env, decoded))
        )
    }
  }
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Research, never, Settings | ProviderRegistry | FetchUrls> = Layer.effect(Research, make)

/**
 * Researches with the `Research` service in context.
 *
 * @example
 * ```ts
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as Research from "@websearch/core/Research"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as OpenAi from "@websearch/providers/OpenAi"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const program = Effect.map(
 *   Research.research({ query: "How do Effect layers share a service?", allowedDomains: ["effect.website"] }),
 *   (response) => `${response.report}\n\n${response.sources.map((source) => source.url).join("\n")}`
 * )
 *
 * const Live = WebSearch.layer(OpenAi.layer).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(Settings.layer({ defaults: { research: "openai" }, providers: { openai: { apiKeys: ["sk-…"] } } }))
 * )
 *
 * export const main = Effect.provide(program, Live)
 * ```
 *
 * @since 0.1.0
 * @category accessors
 */
export const research = (
  request: typeof WebSearchRequest.ResearchRequest.Encoded
): Effect.Effect<ResearchResponse, WebSearchError.WebSearchError, Research> =>
  Effect.flatMap(Research, (service) => service.research(request))

/**
 * The provider a research request that names none runs on, checked as that request would check it before any
 * call: a default is set, it is composed and implements research, it has its API key and an endpoint. Fails with
 * the error the request would meet (`no_default_provider`, `missing_credentials`, …). Nothing is called: this is
 * for a surface that offers research only when it can run (the MCP server lists `web_research` only then).
 *
 * @example
 * ```ts
 * import * as Research from "@websearch/core/Research"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * // No research provider is composed here, so research is not offered.
 * export const offered = Research.defaultProvider.pipe(
 *   Effect.match({ onFailure: (error) => `not offered: ${error.reason}`, onSuccess: (id) => `offered on ${id}` }),
 *   Effect.provide(WebSearch.layer().pipe(Layer.provide(Settings.layer({}))))
 * )
 * ```
 *
 * @since 0.2.0
 * @category accessors
 */
export const defaultProvider: Effect.Effect<ProviderId, WebSearchError.Unavailable, ProviderRegistry> = Effect.flatMap(
  ProviderRegistry,
  (registry) =>
    Effect.map(
      Check.resolve({ registry }, undefined, "research", (driver) => driver.research),
      (resolved) => resolved.providerId
    )
)
