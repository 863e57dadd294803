/**
 * The provider registry: which drivers this application composed, and their request budgets in memory. Provider
 * Layers register their driver when built and remove it when their scope closes; capability services look
 * drivers up at call time.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { ProviderDriver } from "./ProviderDriver.js"
import type { ProviderId } from "./ProviderId.js"
import * as ProviderQuota from "./ProviderQuota.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Registers a driver for the scope of the caller; a later registration of the same id replaces it. */
  readonly register: (driver: ProviderDriver) => Effect.Effect<void, never, Scope.Scope>
  readonly get: (id: ProviderId) => Option.Option<ProviderDriver>
  readonly ids: () => ReadonlyArray<ProviderId>
  /**
   * The budgets and Retry-After hold-offs of these providers, in memory: what the pipeline uses when no
   * `ProviderQuota` is in context (a shared one, on Redis, replaces it).
   */
  readonly quota: ProviderQuota.ProviderQuota.Service
}

/**
 * The registry service.
 *
 * @since 0.1.0
 * @category tags
 */
export class ProviderRegistry extends Context.Tag("@websearch/core/ProviderRegistry")<ProviderRegistry, Service>() {}

/**
 * Builds an empty registry.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Service> = Effect.map(
  // A store per registry, built when the registry is (not once for the module).
  Effect.suspend(() => ProviderQuota.make(ProviderQuota.memoryStore())),
  (quota) => {
    const drivers = new Map<ProviderId, ProviderDriver>()
    return {
      register: (driver) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            drivers.set(driver.preset.id, driver)
          }),
          () =>
            Effect.sync(() => {
              if (drivers.get(driver.preset.id) === driver) drivers.delete(driver.preset.id)
            })
        ),
      get: (id) => Option.fromNullable(drivers.get(id)),
      ids: () => Array.from(drivers.keys()),
      quota
    }
  }
)

/**
 * An empty registry, to which provider Layers add their drivers.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<ProviderRegistry> = Layer.effect(ProviderRegistry, make)

/**
 * A Layer that registers a driver: what every provider module's `layer` is built from.
 *
 * @since 0.1.0
 * @category layers
 */
export const register = (driver: ProviderDriver): Layer.Layer<never, never, ProviderRegistry> =>
  Layer.scopedDiscard(Effect.flatMap(ProviderRegistry, (registry) => registry.register(driver)))
