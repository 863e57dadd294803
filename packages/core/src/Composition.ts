/**
 * What the parts of an application contribute to `WebSearch.layer(...parts)`: provider drivers, default
 * providers of a bundle, and the optional services (result cache, provider quota, token counter, chunk ranker,
 * usage sink). A part is a Layer that needs `Composition`, and only `WebSearch.layer` provides it, so a part
 * placed anywhere else is a type error instead of a service silently ignored. Everything contributed is read
 * once, when the application's layer is built.
 *
 * @since 0.2.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { Capability } from "./Capability.js"
import type { AnyProviderDriver } from "./ProviderDriver.js"

/**
 * The optional services a part may contribute, by name, each with its type: `resultCache` (`ResultCache.layer`),
 * `providerQuota` (`ProviderQuota.layer`), `tokenCounter` (`ContentBudget.layerTokenCounter`), `chunkRanker`
 * (`Compression.layerChunkRanker`) and `usageSink` (`UsageSink.layer`). Each service's own module adds its entry
 * (`declare module "./Composition.js"`): those modules import this one for their parts, so this one cannot import
 * their types back without a cycle, and the registry reads every contribution typed, with no cast.
 *
 * @since 0.2.0
 * @category models
 */
export interface Services {}

/**
 * The names of the optional services a part may contribute; each may be contributed once.
 *
 * @since 0.2.0
 * @category models
 */
export type ServiceName = keyof Services

/**
 * Default providers a bundle proposes (`Providers.layer` proposes DuckDuckGo for search); the settings' own
 * `defaults` win over them.
 *
 * @since 0.2.0
 * @category models
 */
export interface Defaults {
  /** Who proposes them, named in the error when two parts propose different defaults. */
  readonly source: string
  readonly defaults: { readonly [C in Capability]?: string | undefined }
}

/**
 * Everything contributed, in contribution order.
 *
 * @since 0.2.0
 * @category models
 */
export interface Contributions {
  readonly drivers: ReadonlyArray<AnyProviderDriver>
  readonly defaults: ReadonlyArray<Defaults>
  readonly services: { readonly [K in ServiceName]?: ReadonlyArray<Services[K]> }
}

/**
 * The collector that `WebSearch.layer` provides to its parts.
 *
 * @since 0.2.0
 * @category services
 */
export class Composition extends Context.Tag("@websearch/core/Composition")<Composition, Composition.Service>() {}

/**
 * @since 0.2.0
 * @category models
 */
export declare namespace Composition {
  /**
   * @since 0.2.0
   * @category models
   */
  export interface Service {
    readonly addDriver: (driver: AnyProviderDriver) => Effect.Effect<void>
    readonly addDefaults: (defaults: Defaults) => Effect.Effect<void>
    readonly addService: <K extends ServiceName>(name: K, service: Services[K]) => Effect.Effect<void>
    /** What has been contributed so far. */
    readonly contributions: () => Contributions
  }
}

/**
 * A fresh, empty collector.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<Composition.Service> = Effect.sync(() => {
  const drivers: Array<AnyProviderDriver> = []
  const defaults: Array<Defaults> = []
  const services: { [K in ServiceName]?: ReadonlyArray<Services[K]> } = {}
  return {
    addDriver: (driver) => Effect.sync(() => void drivers.push(driver)),
    addDefaults: (entry) => Effect.sync(() => void defaults.push(entry)),
    addService: (name, service) =>
      Effect.sync(() => {
        // A computed key: TypeScript cannot write `services[name]` for a generic name, but each entry pairs the
        // name with its own type by `addService`'s signature.
        Object.assign(services, { [name]: [...(services[name] ?? []), service] })
      }),
    contributions: () => ({ drivers: [...drivers], defaults: [...defaults], services: { ...services } })
  }
})

/**
 * A part that contributes one optional service; each service's module offers a typed one.
 *
 * @since 0.2.0
 * @category layers
 */
export const service = <K extends ServiceName>(name: K, value: Services[K]): Layer.Layer<never, never, Composition> =>
  Layer.effectDiscard(Effect.flatMap(Composition, (composition) => composition.addService(name, value)))

/**
 * A part that contributes one optional service built by a scoped effect (a store that opens a connection).
 *
 * @since 0.2.0
 * @category layers
 */
export const serviceScoped = <K extends ServiceName, E, R>(
  name: K,
  build: Effect.Effect<Services[K], E, R>
): Layer.Layer<never, E, Composition | Exclude<R, Scope.Scope>> =>
  Layer.scopedDiscard(
    Effect.flatMap(build, (value) => Effect.flatMap(Composition, (composition) => composition.addService(name, value)))
  )

/**
 * Several parts as one, built one after the other in the order given (not concurrently), so that contributions
 * arrive in that order: a later registration of a provider id replaces an earlier one, and listings follow it.
 *
 * @since 0.2.0
 * @category layers
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const sequence = <const Parts extends ReadonlyArray<Layer.Layer<never, any, any>>>(
  ...parts: Parts
): Layer.Layer<
  // Distributed over the parts: `Layer.Layer.Success` of a union of layers is the intersection of their outputs.
  Parts[number] extends infer P ? (P extends Layer.Layer<infer A, infer _E, infer _R> ? A : never) : never,
  Layer.Layer.Error<Parts[number]>,
  Layer.Layer.Context<Parts[number]>
> =>
  parts.reduce(
    (built: Layer.Layer<never, unknown, unknown>, next: Layer.Layer<never, unknown, unknown>) =>
      Layer.provideMerge(next, built),
    Layer.empty as Layer.Layer<never, unknown, unknown>
  ) as never
