/**
 * The provider registry: the providers this application composed, resolved against the settings once, when the
 * application's layer is built. A provider module's Layer is `ProviderRegistry.register(driver)`, a part of
 * `WebSearch.layer(...parts)`; an override for an id no composed provider has, an option its schema refuses or a
 * default it cannot serve fails the start with `Unavailable/invalid_config` naming the field.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Capability from "./Capability.js"
import * as Composition from "./Composition.js"
import * as Compression from "./Compression.js"
import * as ContentBudget from "./ContentBudget.js"
import * as Instances from "./internal/resolution/instances.js"
import * as Lookup from "./internal/resolution/lookup.js"
import * as Rotate from "./internal/resolution/rotate.js"
import * as SettingsResolution from "./internal/resolution/settings.js"
import type * as Preset from "./Preset.js"
import type { ProviderConfig, ResolvedProvider } from "./ProviderConfig.js"
import type { AnyProviderDriver, ProviderDriver } from "./ProviderDriver.js"
import * as Description from "./ProviderDescription.js"
import type { ProviderId } from "./ProviderId.js"
import * as ProviderInstance from "./ProviderInstance.js"
import * as ProviderQuota from "./ProviderQuota.js"
import * as ProviderTypes from "./ProviderTypes.js"
import type * as ResultCache from "./ResultCache.js"
import type * as SearchOptions from "./SearchOptions.js"
import type * as Settings from "./Settings.js"
import * as UrlPolicy from "./UrlPolicy.js"
import * as UsageSink from "./UsageSink.js"
import * as WebSearchError from "./WebSearchError.js"

/**
 * What the registry knows of one composed provider, safe to show: key counts, never keys.
 *
 * @since 0.2.0
 * @category models
 */
export type ProviderDescription = Description.ProviderDescription

/**
 * The registry service, provided by `WebSearch.layer`.
 *
 * @since 0.1.0
 * @category services
 */
export class ProviderRegistry extends Context.Tag("@websearch/core/ProviderRegistry")<
  ProviderRegistry,
  ProviderRegistry.Service
>() {}

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace ProviderRegistry {
  /**
   * The composed providers, resolved, and what a capability call takes from them.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** The composed providers' ids, in composition order, then the settings' instances' ids. */
    readonly ids: () => ReadonlyArray<ProviderId>
    /** The driver of a composed provider, or of a settings instance's type. */
    readonly get: (id: ProviderId) => Option.Option<AnyProviderDriver>
    /** Every composed provider and settings instance, resolved. */
    readonly providers: ReadonlyMap<ProviderId, ResolvedProvider>
    /**
     * The catalogue of the composed provider types (each composed provider, not the instances), in composition
     * order.
     *
     * @since 0.2.0
     */
    readonly types: () => ReadonlyArray<ProviderTypes.ProviderType>
    /**
     * Finds a provider a call may name, without side effects: an instance of `instances` (a call's
     * `CallInstances`, consulted first), else a composed provider or a settings instance. A call instance is
     * resolved once per (workspace, id, revision, creation time); one that cannot be used (an option its type
     * refuses, a type no longer composed) fails `Unavailable/invalid_config` naming it and the field. An unknown
     * id fails `Unavailable/unknown_provider`.
     *
     * @since 0.2.0
     */
    readonly find: (
      id: ProviderId,
      instances?: ProviderInstance.CallInstances.Service | undefined
    ) => Either.Either<ProviderRegistry.Found, WebSearchError.Unavailable>
    /**
     * Resolves a stored instance as a call naming it would, without caching it: for an API or a CLI to refuse an
     * instance before storing it. Fails `Unavailable/invalid_config` naming the instance and every field at
     * fault (`options.engineId: …`, `type: no composed provider "…"`).
     *
     * @since 0.2.0
     */
    readonly checkInstance: (
      instance: ProviderInstance.ProviderInstance
    ) => Either.Either<ProviderRegistry.Found, WebSearchError.Unavailable>
    /** The default provider of each capability (settings first, then the composed bundle's proposal). */
    readonly defaults: { readonly [C in Capability.Capability]: ProviderId | null }
    /** The configured fallback chain of each list capability (empty when none). */
    readonly fallbacks: { readonly [C in Capability.ListCapability]: ReadonlyArray<ProviderId> }
    /**
     * Resolves the configuration of one capability of one provider (the current `CallInstances` consulted
     * first), taking the next API key in rotation (per provider; per workspace and revision for a call instance).
     * Fails with `Unavailable/unknown_provider` (naming the composed ids), `Unavailable/invalid_config` (an
     * unusable call instance) or `Unavailable/unsupported_capability`.
     */
    readonly resolve: (
      id: ProviderId,
      capability: Capability.Capability,
      options?: {
        readonly maxResults?: number | undefined
        readonly searchOptions?: SearchOptions.SearchOptions | undefined
      }
    ) => Effect.Effect<ProviderConfig, WebSearchError.Unavailable>
    /**
     * The configuration of one call on a provider's capability already found (a request's resolution finds and
     * checks its provider once, then configures each of its inputs): the capability's endpoint, the next API key
     * in the provider's rotation, the result count and search options given (the settings' otherwise).
     *
     * @since 0.2.0
     */
    readonly configure: (
      found: ProviderRegistry.Capable,
      options?: {
        readonly maxResults?: number | undefined
        readonly searchOptions?: SearchOptions.SearchOptions | undefined
      }
    ) => Effect.Effect<ProviderConfig>
    /**
     * The budgets and Retry-After hold-offs of these providers: the contributed `ProviderQuota` (a shared one, on
     * Redis), else one in this registry's memory.
     */
    readonly quota: ProviderQuota.ProviderQuota.Service
    /**
     * The optional services the application's parts contributed, or their defaults: no result cache, the
     * estimating token counter, BM25 ranking, a usage sink that logs.
     */
    readonly services: {
      readonly resultCache: Option.Option<ResultCache.ResultCache.Service>
      readonly tokenCounter: ContentBudget.TokenCounter.Service
      readonly chunkRanker: Compression.ChunkRanker.Service
      readonly usageSink: UsageSink.UsageSink.Service
    }
    /** A listing of the composed providers and the settings' instances (with their type) that is safe to show. */
    readonly describe: () => ReadonlyArray<Description.ProviderDescription>
  }

  /**
   * A provider a call may name, found.
   *
   * @since 0.2.0
   * @category models
   */
  export interface Found {
    readonly provider: ResolvedProvider
    readonly driver: AnyProviderDriver
    /**
     * The key the provider's call state is kept under (result cache entries, budget, Retry-After hold-off, key
     * rotation): its id, or for a call instance its workspace, id, revision and creation time
     * (`acme/prod-bing@3#1764547200000`), so two workspaces' instances of one id share nothing, and a changed or
     * re-created instance (new keys, another type) starts afresh.
     */
    readonly stateKey: string
  }

  /**
   * A provider found, with its entry for one capability (its endpoint).
   *
   * @since 0.2.0
   * @category models
   */
  export interface Capable extends Found {
    readonly entry: Preset.PresetCapability
  }
}

/**
 * The `Unavailable/unknown_provider` error for an id no composed provider has, listing the composed ids.
 *
 * @since 0.2.0
 * @category errors
 */
export const unknownProvider: (
  id: string,
  composed: ReadonlyArray<string>,
  capability?: Capability.Capability
) => WebSearchError.Unavailable = Lookup.unknownProvider

/**
 * Builds the registry from what the application's parts contributed and the settings. Fails with
 * `Unavailable/invalid_config` listing every problem.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: (
  contributions: Composition.Contributions,
  settings: Settings.Settings.Service
) => Effect.Effect<ProviderRegistry.Service, WebSearchError.Unavailable> = Effect.fnUntraced(
  function* (contributions, settings) {
    const given = contributions.services
    // `Composition.Services` types each contribution under its name: read as contributed, no cast.
    const once = <K extends Composition.ServiceName>(name: K): Option.Option<Composition.Services[K]> => {
      const values = given[name]
      return values !== undefined && values.length === 1 ? Option.some(values[0]) : Option.none()
    }
    const twice = Object.entries(given).flatMap(([name, values]) =>
      values !== undefined && values.length > 1 ? [`${name} was contributed ${values.length} times`] : []
    )
    if (twice.length > 0) {
      return yield* Effect.fail(
        WebSearchError.unavailable(
          "invalid_config",
          `invalid composition: ${twice.join("; ")}; compose each optional service once in WebSearch.layer(...)`
        )
      )
    }
    const resolved = yield* SettingsResolution.resolve(contributions, settings)
    const quota = yield* Option.match(once("providerQuota"), {
      // A store per registry, built when the registry is (not once for the module).
      onNone: () => ProviderQuota.make(ProviderQuota.memoryStore()),
      onSome: Effect.succeed
    })
    const services: ProviderRegistry.Service["services"] = {
      resultCache: once("resultCache"),
      tokenCounter: Option.getOrElse(once("tokenCounter"), () => ContentBudget.defaultTokenCounter),
      chunkRanker: Option.getOrElse(once("chunkRanker"), () => Compression.bm25Ranker),
      usageSink: Option.getOrElse(once("usageSink"), () => UsageSink.defaultSink)
    }
    const { defaults, drivers: composedDrivers, fallbacks, instances: settingsInstances } = resolved
    const drivers = new Map(composedDrivers)
    const providers = new Map(resolved.providers)
    for (const [id, entry] of settingsInstances) {
      drivers.set(id, entry.driver)
      providers.set(id, entry.provider)
    }
    const ids = Array.from(providers.keys())
    const rotation = yield* Rotate.make
    const policy = UrlPolicy.fromSettings(settings)
    const callInstances = Instances.makeCache(composedDrivers, policy)
    let types: ReadonlyArray<ProviderTypes.ProviderType> | undefined
    const known: Lookup.Known = { ids, drivers, providers, callInstances }
    const find: ProviderRegistry.Service["find"] = (id, instances) => Lookup.find(known, id, instances)
    const configure: ProviderRegistry.Service["configure"] = (found, options) =>
      Rotate.configure(rotation, settings, found, options)
    return {
      ids: () => ids,
      get: (id) => Option.fromNullable(drivers.get(id)),
      providers,
      types: () => (types ??= Array.from(composedDrivers.values(), ProviderTypes.fromDriver)),
      find,
      checkInstance: (instance) => Instances.fromStored(composedDrivers, policy, instance.workspace, instance),
      defaults,
      fallbacks,
      resolve: (id, capability, options) =>
        Effect.flatMap(ProviderInstance.CallInstances, (instances) => {
          const found = Lookup.capable(find(id, instances), id, capability)
          return Either.isLeft(found) ? Effect.fail(found.left) : configure(found.right, options)
        }),
      configure,
      quota,
      services,
      describe: () => Array.from(providers.values(), (provider) => Description.fromProvider(provider, defaults))
    } satisfies ProviderRegistry.Service
  }
)

/**
 * A part that registers a provider's driver: what every provider module's `layer` is. A later registration of
 * the same id replaces an earlier one (so an application may swap a built-in driver for its own).
 *
 * @example
 * ```ts
 * import * as Preset from "@websearch/core/Preset"
 * import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
 * import * as Effect from "effect/Effect"
 *
 * export const layer = ProviderRegistry.register({
 *   preset: Preset.make({
 *     id: "memory",
 *     name: "Memory",
 *     type: "local",
 *     credentials: "none",
 *     capabilities: [{ feature: "searchKeywords" }]
 *   }),
 *   searchKeywords: (keyword) => Effect.succeed([{ title: keyword, url: "https://example.com/", content: keyword }])
 * })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const register = <Options, OptionsEncoded>(
  driver: ProviderDriver<Options, OptionsEncoded>
): Layer.Layer<never, never, Composition.Composition> =>
  Layer.effectDiscard(Effect.flatMap(Composition.Composition, (composition) => composition.addDriver(driver)))

/**
 * A part that proposes default providers (a bundle's: `Providers.layer` proposes DuckDuckGo for search). The
 * settings' `defaults` win; two parts proposing different defaults for one capability fail the start unless the
 * settings choose.
 *
 * @since 0.2.0
 * @category layers
 */
export const proposeDefaults = (
  source: string,
  defaults: { readonly [C in Capability.Capability]?: ProviderId | undefined }
): Layer.Layer<never, never, Composition.Composition> =>
  Layer.effectDiscard(
    Effect.flatMap(Composition.Composition, (composition) => composition.addDefaults({ source, defaults }))
  )

/**
 * A provider's own options as the settings (and the environment, when they came from it) give them, decoded by
 * its schema: for a driver that needs them when its Layer is built (the local fetcher builds its transport's
 * User-Agent and robots.txt cache from them). The registry decodes them the same way for every call's context.
 *
 * @since 0.2.0
 * @category constructors
 */
export const options = <Options, OptionsEncoded>(
  driver: Pick<ProviderDriver<Options, OptionsEncoded>, "preset" | "options" | "optionsConfig">,
  settings: Settings.Settings.Service
): Effect.Effect<Options | undefined, WebSearchError.Unavailable> =>
  Effect.flatMap(SettingsResolution.resolveOne(driver, settings), (one) =>
    one.problems.length > 0
      ? Effect.fail(SettingsResolution.invalid(one.problems, settings.source))
      : Effect.succeed(one.options as Options | undefined)
  )

// A proxy URL's password (decoded, as it travels), and `user:password`, whose base64 is the Proxy-Authorization
// token: a proxy or a transport error may echo either.
const proxySecrets = (url: string): ReadonlyArray<string> => {
  const trimmed = url.trim()
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`
  if (!URL.canParse(text)) return []
  const parsed = new URL(text)
  if (parsed.password === "") return []
  try {
    const user = decodeURIComponent(parsed.username)
    const password = decodeURIComponent(parsed.password)
    return [password, `${user}:${password}`]
  } catch {
    return [parsed.password]
  }
}

/**
 * The secrets of a resolved provider, for scrubbing: its API keys, basic-auth password and its proxy URL's
 * password.
 *
 * @since 0.2.0
 * @category accessors
 */
export const secretsOf = (provider: ResolvedProvider): ReadonlyArray<string> => [
  ...provider.apiKeys.map(Redacted.value),
  ...Option.match(provider.basicAuth, { onNone: () => [], onSome: (auth) => [Redacted.value(auth.password)] }),
  ...Option.match(provider.proxyUrl, { onNone: () => [], onSome: (url) => proxySecrets(Redacted.value(url)) })
]
