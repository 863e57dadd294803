/**
 * Settings: which provider serves each capability by default, the user's overrides of provider presets
 * (keys, endpoints, engines, basic auth), the URL blacklist and allowlist, result limits, the content budget,
 * compression, concurrency and timeouts. They load from code, the environment or a JSON file; invalid settings
 * fail at load with `Unavailable/invalid_config` naming the field, and nothing is ignored silently. The document's
 * schema and its parts are in `SettingsInput`, re-exported here.
 *
 * @since 0.1.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as Config from "effect/Config"
import type * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Blacklist from "./internal/blacklist.js"
import type * as Capability from "./Capability.js"
import type * as Compression from "./Compression.js"
import * as ContentBudget from "./ContentBudget.js"
import * as SettingsEnvironment from "./internal/settingsEnvironment.js"
import * as SettingsFile from "./internal/settingsFile.js"
import * as SettingsValidation from "./internal/settingsValidation.js"
import type * as ProviderId from "./ProviderId.js"
import * as Input from "./internal/settingsInput.js"
import type * as WebSearchError from "./WebSearchError.js"

/**
 * The settings document's schema and its parts (`SettingsInput`, a provider's `ProviderOverride` and its
 * `CommonOverride` fields, `RateLimitInput`, `HeaderText`), the durations they take (`parseDuration`), the
 * values used when a setting is absent (`defaults`) and how two documents overlay (`merge`). They are defined in
 * `SettingsInput`.
 *
 * @since 0.1.0
 * @category schemas
 */
export * from "./internal/settingsInput.js"

/**
 * The settings service.
 *
 * @since 0.1.0
 * @category services
 */
export class Settings extends Context.Tag("@websearch/core/Settings")<Settings, Settings.Service>() {}

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace Settings {
  /**
   * The loaded, validated settings.
   *
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /**
     * The default provider of each capability as the settings chose it: an id, `null` for "no default", or
     * `undefined` when the settings say nothing (the composed bundle's proposal applies).
     */
    readonly defaults: { readonly [C in Capability.Capability]: ProviderId.ProviderId | null | undefined }
    /** The configured fallback chain of each list capability (empty when none). */
    readonly fallbacks: { readonly [C in Capability.ListCapability]: ReadonlyArray<ProviderId.ProviderId> }
    /**
     * The providers a `searchKeywords` request naming none is fused over (empty when the default is one provider).
     */
    readonly fusion: { readonly searchKeywords: ReadonlyArray<ProviderId.ProviderId> }
    /**
     * The user's overrides by provider id: the common fields decoded, the provider's own options as written. They
     * are checked against the composed providers when the application's layer is built.
     */
    readonly overrides: ReadonlyMap<ProviderId.ProviderId, Input.ProviderOverride>
    /**
     * The provider instances the settings declare, by instance id: each a composed provider type with its own
     * override. Checked against the composed providers when the application's layer is built.
     */
    readonly instances: ReadonlyMap<ProviderId.ProviderId, Input.InstanceOverride>
    /**
     * Where per-provider environment variables (`<ID>_API_KEY`, a provider's own options) are read from when the
     * application's layer is built: the `ConfigProvider` the settings were loaded under, when they came from the
     * environment; none for settings from code or from a file alone.
     */
    readonly environment: Option.Option<ConfigProvider.ConfigProvider>
    /** Where the settings came from, for error messages ("environment", a file path, "code"). */
    readonly source: string
    readonly filter: Blacklist.UrlFilter
    /** The URL policy's entries; a loaded service holds the compiled policy here (see `UrlPolicy.fromSettings`). */
    readonly urlPolicy: {
      readonly allowHosts: ReadonlyArray<string>
      readonly allowCidrs: ReadonlyArray<string>
      readonly allowPorts: ReadonlyArray<number>
    }
    readonly maxResults: number
    readonly concurrency: number
    readonly budget: ContentBudget.ContentBudget
    readonly compression: Compression.Compression
    readonly timeouts: { readonly [C in Capability.Capability]: Duration.Duration }
    /** How long a result cache keeps successes per list capability, and the few failures it keeps at all. */
    readonly cache: {
      readonly [C in Capability.ListCapability]: Duration.Duration
    } & { readonly failures: Duration.Duration }
  }
}

/**
 * Options of `make`.
 *
 * @since 0.2.0
 * @category models
 */
export interface MakeOptions {
  /** Names where the document came from in error messages (a file path, "environment"). Default "code". */
  readonly source?: string | undefined
  /**
   * Whether per-provider environment variables (`<ID>_API_KEY`, `<ID>_API_HOST`, a provider's own options) are
   * read, from the `ConfigProvider` in force now, when the application's layer is built. Default false.
   */
  readonly environment?: boolean | undefined
}

const fromDocument = (
  input: typeof Input.SettingsInput.Type,
  checked: SettingsValidation.Checked,
  source: string,
  environment: Option.Option<ConfigProvider.ConfigProvider>
): Settings.Service => ({
  defaults: {
    searchKeywords: input.defaults?.searchKeywords,
    fetchUrls: input.defaults?.fetchUrls,
    research: input.defaults?.research,
    mapSite: input.defaults?.mapSite,
    crawlSite: input.defaults?.crawlSite
  },
  fallbacks: {
    searchKeywords: input.fallbacks?.searchKeywords ?? [],
    fetchUrls: input.fallbacks?.fetchUrls ?? []
  },
  fusion: { searchKeywords: input.fusion?.searchKeywords ?? [] },
  overrides: new Map(Object.entries(input.providers ?? {})),
  instances: new Map(Object.entries(input.instances ?? {})),
  environment,
  source,
  filter: checked.filter,
  urlPolicy: checked.urlPolicy,
  maxResults: input.maxResults ?? Input.defaults.maxResults,
  concurrency: input.concurrency ?? Input.defaults.concurrency,
  budget: input.budget ?? ContentBudget.defaultBudget,
  compression: input.compression ?? { method: "none" },
  timeouts: {
    searchKeywords: Duration.millis(input.timeouts?.searchKeywords ?? Input.defaults.timeouts.searchKeywords),
    fetchUrls: Duration.millis(input.timeouts?.fetchUrls ?? Input.defaults.timeouts.fetchUrls),
    research: Duration.millis(input.timeouts?.research ?? Input.defaults.timeouts.research),
    mapSite: Duration.millis(input.timeouts?.mapSite ?? Input.defaults.timeouts.mapSite),
    crawlSite: Duration.millis(input.timeouts?.crawlSite ?? Input.defaults.timeouts.crawlSite)
  },
  cache: {
    searchKeywords: Option.getOrThrow(
      Input.parseDuration(input.cache?.searchKeywords ?? Input.defaults.cache.searchKeywords)
    ),
    fetchUrls: Option.getOrThrow(Input.parseDuration(input.cache?.fetchUrls ?? Input.defaults.cache.fetchUrls)),
    failures: Option.getOrThrow(Input.parseDuration(input.cache?.failures ?? Input.defaults.cache.failures))
  }
})

/**
 * Validates a settings document and builds the service.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (
  input: unknown,
  options?: string | MakeOptions
) => Effect.Effect<Settings.Service, WebSearchError.Unavailable> = Effect.fnUntraced(function* (input, options) {
  const { environment, source = "code" } = typeof options === "string" ? { source: options } : (options ?? {})
  const provider = environment === true ? Option.some(yield* Effect.configProviderWith(Effect.succeed)) : Option.none()
  const decoded = SettingsValidation.decode(input)
  if (Either.isLeft(decoded)) return yield* Effect.fail(SettingsValidation.invalidFrom([decoded.left], source))
  const checked = SettingsValidation.check(decoded.right)
  if (Either.isLeft(checked)) return yield* Effect.fail(SettingsValidation.invalidFrom(checked.left, source))
  return fromDocument(decoded.right, checked.right, source, provider)
})

/**
 * Settings from code.
 *
 * @example
 * ```ts
 * import * as Settings from "@websearch/core/Settings"
 *
 * const SettingsLive = Settings.layer({
 *   defaults: { searchKeywords: "tavily" },
 *   providers: { tavily: { apiKeys: ["tvly-…"] } },
 *   maxResults: 5
 * })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (input: Input.SettingsInput = {}): Layer.Layer<Settings, WebSearchError.Unavailable> =>
  Layer.effect(Settings, make(input))

/**
 * Reads the application-wide part of a settings document from the environment (or any `ConfigProvider`):
 * - `WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER`, `WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER`,
 *   `WEBSEARCH_DEFAULT_RESEARCH_PROVIDER` (`none` for no default);
 * - `WEBSEARCH_CACHE_SEARCH_KEYWORDS_TTL`, `WEBSEARCH_CACHE_FETCH_URLS_TTL`, `WEBSEARCH_CACHE_FAILURES_TTL`
 *   (milliseconds or `"10 minutes"`);
 * - `WEBSEARCH_FALLBACK_SEARCH_KEYWORDS_PROVIDERS`, `WEBSEARCH_FALLBACK_FETCH_URLS_PROVIDERS` (comma-separated);
 * - `WEBSEARCH_FUSION_SEARCH_KEYWORDS_PROVIDERS` (2–5 comma-separated ids: a fused search as the default);
 * - `WEBSEARCH_MAX_RESULTS`, `WEBSEARCH_CONCURRENCY`;
 * - `WEBSEARCH_ALLOW_HOSTS`, `WEBSEARCH_ALLOW_CIDRS` (comma-separated: the URL policy's `allowHosts` and
 *   `allowCidrs`, so an application can reach a local endpoint; each entry checked as in a settings file).
 *
 * A malformed variable fails with `Unavailable/invalid_config` naming it (every malformed one, not the first).
 * Per-provider variables (`<ID>_API_KEY` and the like, see `ProviderEnvironment`) are read for the composed
 * providers when the application's layer is built, since only then is it known which providers there are.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromConfig: Effect.Effect<Input.SettingsInput, WebSearchError.Unavailable> = SettingsEnvironment.read

/**
 * The application-wide part of a settings document as one `Config`: the `WEBSEARCH_*` variables `fromConfig`
 * lists. An application that names its settings otherwise passes its own `Config` of a document to `layerConfig`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const config: Config.Config<Input.SettingsInput> = SettingsEnvironment.config

/**
 * Settings read through a `Config` (by default `config`, the `WEBSEARCH_*` variables, see `fromConfig`) from the
 * application's `ConfigProvider`. The document read is checked as any other; a malformed value fails with
 * `Unavailable/invalid_config` naming it. The composed providers' own variables (`<ID>_API_KEY` and the like) are
 * read from the same `ConfigProvider` when the application's layer is built.
 *
 * @example
 * ```ts
 * import * as Settings from "@websearch/core/Settings"
 * import * as Config from "effect/Config"
 *
 * // The default search provider under the application's own variable name.
 * const Live = Settings.layerConfig(
 *   Config.map(Config.string("APP_SEARCH_PROVIDER"), (id) => ({ defaults: { searchKeywords: id } }))
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  source: Config.Config<Input.SettingsInput> = config
): Layer.Layer<Settings, WebSearchError.Unavailable> =>
  Layer.effect(
    Settings,
    Effect.flatMap(SettingsEnvironment.readFrom(source), (document) =>
      make(document, { source: "environment", environment: true })
    )
  )

/**
 * Reads and parses a JSON settings file (at most 1 MiB, nested at most 32 levels); fails with
 * `Unavailable/invalid_config` naming the file, never quoting it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const readFile: (
  path: string
) => Effect.Effect<Input.SettingsInput, WebSearchError.Unavailable, FileSystem.FileSystem> = SettingsFile.read

/**
 * Settings from a JSON file, with the environment laid over it when `env` is true (the CLI's behaviour).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFile = (
  path: string,
  options?: { readonly env?: boolean }
): Layer.Layer<Settings, WebSearchError.Unavailable, FileSystem.FileSystem> =>
  Layer.effect(
    Settings,
    Effect.gen(function* () {
      const file = yield* readFile(path)
      // The file is checked on its own first: `merge` assumes objects (a file holding `null` would throw), and a
      // malformed value the environment happens to replace must still be reported, not ignored silently.
      if (options?.env !== true || Either.isLeft(SettingsValidation.decode(file))) return yield* make(file, path)
      const env = yield* fromConfig
      return yield* make(Input.merge(file, env), { source: `${path} and environment`, environment: true })
    })
  )
