/**
 * Provider checks: run every capability of a provider once with a stable input (`test query`,
 * `https://example.com`, a one-line research brief) and report each capability's outcome, so a user learns
 * which endpoint or capability is broken. A provider passes only when every capability passes.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { Capability } from "./Capability.js"
import * as CrawlSite from "./CrawlSite.js"
import { FetchUrls } from "./FetchUrls.js"
import * as MapSite from "./MapSite.js"
import { ProviderId } from "./ProviderId.js"
import * as ProviderInstance from "./ProviderInstance.js"
import { Research } from "./Research.js"
import { SearchKeywords } from "./SearchKeywords.js"
import * as ProviderRegistry from "./ProviderRegistry.js"
import * as WebSearchError from "./WebSearchError.js"

/**
 * The stable inputs each capability is checked with.
 *
 * @since 0.1.0
 * @category constants
 */
export const checkInputs = {
  searchKeywords: "test query",
  fetchUrls: "https://example.com",
  research: "What is the capital of France? Cite one source."
} as const

/**
 * One capability's check: `ok` with the number of results, or the error, always with the capability named.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CapabilityCheck = Schema.Struct({
  capability: Capability,
  ok: Schema.Boolean,
  results: Schema.Number,
  durationMs: Schema.Number,
  error: Schema.optional(WebSearchError.WebSearchError)
})

/**
 * @since 0.1.0
 * @category models
 */
export type CapabilityCheck = typeof CapabilityCheck.Type

/**
 * A provider's check: passes when every capability passes.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProviderCheck = Schema.Struct({
  providerId: ProviderId,
  ok: Schema.Boolean,
  capabilities: Schema.Array(CapabilityCheck)
})

/**
 * @since 0.1.0
 * @category models
 */
export type ProviderCheck = typeof ProviderCheck.Type

/**
 * The checks service.
 *
 * @since 0.1.0
 * @category services
 */
export class ProviderChecks extends Context.Tag("@websearch/core/ProviderChecks")<
  ProviderChecks,
  ProviderChecks.Service
>() {}

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace ProviderChecks {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * Checks every capability of a provider: a composed one, a settings instance, or an instance of the current
     * `CallInstances` (run with that instance's configuration). Fails only when the id is unknown
     * (`Unavailable/unknown_provider`) or names a call instance that cannot be used (`Unavailable/invalid_config`).
     */
    readonly check: (providerId: string) => Effect.Effect<ProviderCheck, WebSearchError.Unavailable>
  }
}

/**
 * Builds the service from the capability services.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<
  ProviderChecks.Service,
  never,
  ProviderRegistry.ProviderRegistry | SearchKeywords | FetchUrls | Research | MapSite.MapSite | CrawlSite.CrawlSite
> = Effect.gen(function* () {
  const registry = yield* ProviderRegistry.ProviderRegistry
  const search = yield* SearchKeywords
  const fetch = yield* FetchUrls
  const research = yield* Research
  const map = yield* MapSite.MapSite
  const crawl = yield* CrawlSite.CrawlSite
  const run = (
    providerId: ProviderId,
    capability: Capability
  ): Effect.Effect<number, WebSearchError.WebSearchError> => {
    switch (capability) {
      case "searchKeywords":
        return Effect.map(
          search.searchKeywords({ providerId, keywords: [checkInputs.searchKeywords] }),
          (r) => r.results.length
        )
      case "fetchUrls":
        return Effect.map(fetch.fetchUrls({ providerId, urls: [checkInputs.fetchUrls] }), (r) => r.results.length)
      case "research":
        return Effect.map(
          research.research({ providerId, query: checkInputs.research, allowedDomains: [] }),
          (r) => r.sources.length
        )
      case "mapSite":
        return Effect.map(map.mapSite({ providerId, url: checkInputs.fetchUrls, limit: 10 }), (r) => r.links.length)
      case "crawlSite":
        // One page: the check proves the provider reads the site, not that it can crawl all of it.
        return Effect.map(
          Effect.provideService(
            CrawlSite.collect({ providerId, url: checkInputs.fetchUrls, maxPages: 1, maxDepth: 1 }),
            CrawlSite.CrawlSite,
            crawl
          ),
          (r) => r.pages.length
        )
    }
  }
  const checkOne = Effect.fnUntraced(function* (providerId: ProviderId, capability: Capability) {
    const start = yield* Clock.currentTimeMillis
    const outcome = yield* Effect.either(run(providerId, capability))
    const durationMs = (yield* Clock.currentTimeMillis) - start
    return outcome._tag === "Right"
      ? { capability, ok: true, results: outcome.right, durationMs }
      : {
          capability,
          ok: false,
          results: 0,
          durationMs,
          // The capability is always named, so a user knows which endpoint failed.
          error: WebSearchError.annotate(outcome.left, {
            capability,
            message: `${capability} check failed: ${outcome.left.message}`
          })
        }
  })
  return {
    check: (providerId) =>
      Effect.gen(function* () {
        const instances = yield* ProviderInstance.CallInstances
        const found = registry.find(providerId, instances)
        if (Either.isLeft(found)) return yield* Effect.fail(found.left)
        const { provider } = found.right
        const capabilities = yield* Effect.forEach(provider.capabilities, (c) => checkOne(provider.id, c.feature))
        return { providerId: provider.id, ok: capabilities.every((c) => c.ok), capabilities }
      }).pipe(Effect.withSpan("websearch.check", { attributes: { "websearch.provider": providerId } }))
  }
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<
  ProviderChecks,
  never,
  ProviderRegistry.ProviderRegistry | SearchKeywords | FetchUrls | Research | MapSite.MapSite | CrawlSite.CrawlSite
> = Layer.effect(ProviderChecks, make)

/**
 * Checks a provider with the `ProviderChecks` service in context.
 *
 * @since 0.1.0
 * @category accessors
 */
export const check = (providerId: string): Effect.Effect<ProviderCheck, WebSearchError.Unavailable, ProviderChecks> =>
  Effect.flatMap(ProviderChecks, (service) => service.check(providerId))
