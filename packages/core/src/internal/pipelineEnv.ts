/**
 * What the pipeline reads, captured by the capability services when their Layer is built, and the context it
 * hands each driver call.
 */
import * as Context from "effect/Context"
import * as Compression from "../Compression.js"
import * as ContentBudget from "../ContentBudget.js"
import type { DriverContext } from "../ProviderDriver.js"
import type { ProviderConfig } from "../ProviderConfig.js"
import type * as PageStore from "../PageStore.js"
import type * as ProviderRegistry from "../ProviderRegistry.js"
import type * as Settings from "../Settings.js"
import * as UsageSink from "../UsageSink.js"

/** What the pipeline reads: captured by the capability services when their Layer is built. */
export interface Env {
  readonly settings: Context.Tag.Service<typeof Settings.Settings>
  readonly registry: Context.Tag.Service<typeof ProviderRegistry.ProviderRegistry>
  /** The application's own `fetchUrls`, handed to drivers (a search provider that reads the pages it finds). */
  readonly fetchUrls: DriverContext["fetchUrls"]
  /** Where fetched pages wait to be read on (the `fetchUrls` service's own); other capabilities have none. */
  readonly pages?: PageStore.PageStore.Service | undefined
  /**
   * The composed services a driver reaches through the public API (`UsageSink.report`, `Compression.compress`), or
   * `undefined` when none was composed: each then reads its default by itself.
   */
  readonly driverServices:
    Context.Context<UsageSink.UsageSink | ContentBudget.TokenCounter | Compression.ChunkRanker> | undefined
}

/**
 * The pipeline's environment, with the context every driver call runs in: the composed usage sink, token counter
 * and chunk ranker, built once here. A driver is foreign code that reports usage or compresses through the public
 * functions, which read the context; inside its call that context holds the composed services (nothing is provided
 * when none was composed: the defaults are what the context gives anyway).
 */
export const make = (fields: Omit<Env, "driverServices">): Env => {
  const services = fields.registry.services
  const composed =
    services.usageSink !== UsageSink.defaultSink ||
    services.tokenCounter !== ContentBudget.defaultTokenCounter ||
    services.chunkRanker !== Compression.bm25Ranker
  return {
    ...fields,
    driverServices: composed
      ? Context.make(UsageSink.UsageSink, services.usageSink).pipe(
          Context.add(ContentBudget.TokenCounter, services.tokenCounter),
          Context.add(Compression.ChunkRanker, services.chunkRanker)
        )
      : undefined
  }
}

/**
 * A driver context for a call: the resolved configuration, the provider's options, the late-bound fetcher and the
 * composed usage sink.
 */
export const driverContext = (env: Env, config: ProviderConfig): DriverContext =>
  // `Object.assign`, not `{ ...config, options, fetchUrls }`: on Node 20 a key added after a spread costs about a
  // microsecond per key (the clone's map does not take the transition), once per input of every request.
  Object.assign({}, config, {
    options: config.provider.options,
    fetchUrls: env.fetchUrls,
    usageSink: env.registry.services.usageSink
  })
