/**
 * Whether the shared stores (the result cache, provider quotas and rate limits on Redis) answer. A store that
 * fails or does not answer within its bound never fails a request: the cache misses and the provider quota lets
 * calls through (see `ResultCache`, `ProviderQuota`). So an outage is invisible in answers and must be visible
 * somewhere else: the HTTP server's `GET /health` reports each store's status from this service.
 *
 * Without a shared store in context (everything in memory) there is nothing to report.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

/**
 * One store's status: `ok`, or `degraded` with why (never a password).
 *
 * @since 0.1.0
 * @category models
 */
export interface Status {
  readonly name: string
  readonly status: "ok" | "degraded"
  readonly message?: string | undefined
}

/**
 * The stores' health in context; by default there are no shared stores and nothing to report.
 *
 * @since 0.1.0
 * @category services
 */
export class StoreHealth extends Context.Reference<StoreHealth>()("@websearch/core/StoreHealth", {
  defaultValue: (): StoreHealth.Service => none
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace StoreHealth {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Checks every shared store within its own bound; never fails and never waits longer than that bound. */
    readonly check: Effect.Effect<ReadonlyArray<Status>>
  }
}

/**
 * No shared stores: an empty report.
 *
 * @since 0.1.0
 * @category constructors
 */
export const none: StoreHealth.Service = { check: Effect.succeed([]) }
