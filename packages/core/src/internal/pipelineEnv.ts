/**
 * What the pipeline reads, captured by the capability services when their Layer is built, and the services it
 * provides to post-processing and driver calls.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Compression from "../Compression.js"
import * as ContentBudget from "../ContentBudget.js"
import type { DriverContext } from "../ProviderDriver.js"
import type { ProviderConfig } from "../ProviderConfig.js"
import type * as PageStore from "../PageStore.js"
import type * as ProviderRegistry from "../ProviderRegistry.js"
import type * as Settings from "../Settings.js"
import * as UsageSink from "../UsageSink.js"
import * as WebSearchError from "../WebSearchError.js"

/** What the pipeline reads: captured by the capability services when their Layer is built. */
export interface Env {
  readonly settings: Context.Tag.Service<typeof Settings.Settings>
  readonly registry: Context.Tag.Service<typeof ProviderRegistry.ProviderRegistry>
  /** The application's own `fetchUrls`, handed to drivers (a search provider that reads the pages it finds). */
  readonly fetchUrls: DriverContext["fetchUrls"]
  /** Where fetched pages wait to be read on (the `fetchUrls` service's own); other capabilities have none. */
  readonly pages?: PageStore.PageStore.Service | undefined
}

/** A driver context for a call: the resolved configuration, the provider's options and the late-bound fetcher. */
export const driverContext = (env: Env, config: ProviderConfig): DriverContext => ({
  ...config,
  options: config.provider.options,
  fetchUrls: env.fetchUrls
})

/**
 * The optional services are read once, from the composition; one provided to a call instead (or beside
 * `WebSearch.layer`, which puts it in every call's context) would be ignored, so it fails loudly, saying where
 * it belongs.
 */
export const checkPlacement = (env: Env): Effect.Effect<void, WebSearchError.Unavailable> =>
  Effect.flatMap(Effect.context<never>(), (context) => {
    const { services } = env.registry
    const misplaced = [
      [ContentBudget.TokenCounter.key, services.tokenCounter, "a TokenCounter", "ContentBudget.layerTokenCounter"],
      [Compression.ChunkRanker.key, services.chunkRanker, "a ChunkRanker", "Compression.layerChunkRanker"],
      [UsageSink.UsageSink.key, services.usageSink, "a UsageSink", "UsageSink.layer"]
    ].find(
      ([key, captured]) => context.unsafeMap.has(key as string) && context.unsafeMap.get(key as string) !== captured
    )
    return misplaced === undefined
      ? Effect.void
      : Effect.fail(
          WebSearchError.unavailable(
            "invalid_config",
            `${misplaced[2]} was provided to this call or beside WebSearch.layer, where websearch ignores it: compose it as a part, WebSearch.layer(..., ${misplaced[3]}(...))`
          )
        )
  })

/** Runs post-processing and driver calls with the composed token counter, ranker and usage sink. */
export const withServices = <A, E, R>(env: Env, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.provideService(ContentBudget.TokenCounter, env.registry.services.tokenCounter),
    Effect.provideService(Compression.ChunkRanker, env.registry.services.chunkRanker),
    Effect.provideService(UsageSink.UsageSink, env.registry.services.usageSink)
  )
