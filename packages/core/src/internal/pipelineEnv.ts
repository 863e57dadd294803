/**
 * What the pipeline reads, captured by the capability services when their Layer is built, and the context it
 * hands each driver call.
 */
import type * as Context from "effect/Context"
import type { DriverContext } from "../ProviderDriver.js"
import type { ProviderConfig } from "../ProviderConfig.js"
import type * as PageStore from "../PageStore.js"
import type * as ProviderRegistry from "../ProviderRegistry.js"
import type * as Settings from "../Settings.js"

/** What the pipeline reads: captured by the capability services when their Layer is built. */
export interface Env {
  readonly settings: Context.Tag.Service<typeof Settings.Settings>
  readonly registry: Context.Tag.Service<typeof ProviderRegistry.ProviderRegistry>
  /** The application's own `fetchUrls`, handed to drivers (a search provider that reads the pages it finds). */
  readonly fetchUrls: DriverContext["fetchUrls"]
  /** Where fetched pages wait to be read on (the `fetchUrls` service's own); other capabilities have none. */
  readonly pages?: PageStore.PageStore.Service | undefined
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
