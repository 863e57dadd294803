/**
 * What the pipeline reads, captured by the capability services when their Layer is built, and the services it
 * provides to post-processing and driver calls.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Tracer from "effect/Tracer"
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
export const driverContext = (env: Env, config: ProviderConfig): DriverContext =>
  // `Object.assign`, not `{ ...config, options, fetchUrls }`: on Node 20 a key added after a spread costs about a
  // microsecond per key (the clone's map does not take the transition), once per input of every request.
  Object.assign({}, config, { options: config.provider.options, fetchUrls: env.fetchUrls })

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

type Services = ProviderRegistry.ProviderRegistry.Service["services"]

// One context per composition, built on first use: providing it with the span is one change of the fiber's
// context, where a `provideService` per service made three more, each costing about as much as a span
// (bench/pipeline-call.ts).
const contexts = new WeakMap<
  Services,
  Context.Context<ContentBudget.TokenCounter | Compression.ChunkRanker | UsageSink.UsageSink>
>()

const servicesContext = (services: Services) => {
  let context = contexts.get(services)
  if (context === undefined) {
    context = Context.make(ContentBudget.TokenCounter, services.tokenCounter).pipe(
      Context.add(Compression.ChunkRanker, services.chunkRanker),
      Context.add(UsageSink.UsageSink, services.usageSink)
    )
    contexts.set(services, context)
  }
  return context
}

/**
 * A capability's span around a whole request, with the composed token counter, ranker and usage sink in context
 * for everything inside (post-processing, driver calls): `Effect.withSpan`'s meaning, the span and the services
 * provided in one change of the fiber's context instead of two.
 */
export const withSpanAndServices =
  (env: Env, name: string, options: Tracer.SpanOptions) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.useSpan(name, options, (span) =>
      Effect.provide(effect, Context.add(servicesContext(env.registry.services), Tracer.ParentSpan, span))
    ) as Effect.Effect<A, E, R>
