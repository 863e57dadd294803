/**
 * Settings: which provider serves each capability by default, the user's overrides of provider presets
 * (keys, endpoints, engines, basic auth), the URL blacklist and allowlist, result limits, the content budget,
 * compression, concurrency and timeouts. They load from code, the environment or a JSON file; invalid settings
 * fail at load with `Unavailable/invalid_config` naming the field, and nothing is ignored silently.
 *
 * @since 0.1.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Config from "effect/Config"
import type * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Blacklist from "./Blacklist.js"
import * as Capability from "./Capability.js"
import * as Compression from "./Compression.js"
import * as ContentBudget from "./ContentBudget.js"
import { optionalString, splitList } from "./internal/configText.js"
import * as HeaderValue from "./internal/headerValue.js"
import * as ParseIssues from "./internal/parseIssues.js"
import * as SettingsFile from "./internal/settingsFile.js"
import * as ProviderId from "./ProviderId.js"
import * as UrlPolicy from "./UrlPolicy.js"
import * as WebSearchError from "./WebSearchError.js"
import { MaxResults } from "./WebSearchRequest.js"

// Scheme and credentials here; the host and port rules need the whole document's urlPolicy (see validate).
const HttpUrl = Schema.String.pipe(
  Schema.filter((s) =>
    Either.match(UrlPolicy.parseHttpUrl(s), { onLeft: (error) => error.message, onRight: () => true })
  )
)

const NonEmpty = Schema.Trim.pipe(Schema.minLength(1, { message: () => "must not be empty" }))

/**
 * Text that goes into an HTTP header (a User-Agent, a basic-auth user name): non-empty once trimmed, and without
 * control characters (CR and LF would split the header). For providers' own options that are sent in headers.
 *
 * @since 0.2.0
 * @category schemas
 */
export const HeaderText = NonEmpty.pipe(HeaderValue.headerSafe)

const Secret = Schema.Redacted(HeaderText)

/**
 * Reads a duration setting: whole milliseconds (a number or a digit string) or an amount and unit such as
 * `"30 seconds"` or `"1 minute"`. Negative, fractional-millisecond and infinite values are refused.
 *
 * @since 0.1.0
 * @category conversions
 */
export const parseDuration = (input: number | string): Option.Option<Duration.Duration> => {
  if (typeof input === "number") {
    return Number.isSafeInteger(input) && input >= 0 ? Option.some(Duration.millis(input)) : Option.none()
  }
  const text = input.trim()
  if (/^\d+$/.test(text)) return parseDuration(Number(text))
  if (!/^\d+(\.\d+)? [a-z]+$/.test(text)) return Option.none()
  return Option.filter(Duration.decodeUnknown(text), Duration.isFinite)
}

const DurationSetting = (what: string, min: Duration.DurationInput, max: Duration.DurationInput) =>
  Schema.Union(Schema.Number, Schema.String).pipe(
    Schema.filter((input) => {
      const parsed = parseDuration(input)
      if (Option.isNone(parsed)) {
        return `${JSON.stringify(input)} is not a duration: give whole milliseconds (60000) or an amount and unit ("1 minute", "30 seconds")`
      }
      return (
        Duration.between(parsed.value, { minimum: min, maximum: max }) ||
        `${what} must be from ${Duration.format(min)} to ${Duration.format(max)}`
      )
    })
  )

/**
 * A provider's request budget, as a token bucket: up to `limit` calls at once, refilled at `limit` calls per
 * `window` (so over any span of time d, at most `limit + 1 + d × limit / window` calls: whole tokens come back on
 * a fixed cadence, and a burst may straddle one of them). A call over the budget waits
 * when the wait is at most `maxWait` (default 2 seconds), and otherwise fails with `RequestFailed/rate_limited`
 * carrying `retryAfter`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RateLimitInput = Schema.Struct({
  limit: Schema.Int.pipe(
    Schema.between(1, 1_000_000, { message: () => "a rate limit is an integer from 1 to 1000000 calls" })
  ),
  window: DurationSetting("a rate limit window", 1, "1 day"),
  maxWait: Schema.optional(DurationSetting("maxWait", 0, "5 minutes"))
})

/**
 * A provider's request budget, resolved.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimit {
  readonly limit: number
  readonly window: Duration.Duration
  /** The longest a call waits for budget before failing `RequestFailed/rate_limited`. */
  readonly maxWait: Duration.Duration
}

/**
 * What a user may change on one capability of a provider: its endpoint.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CapabilityOverride = Schema.Struct({ apiHost: Schema.optional(HttpUrl) })

/**
 * The common fields of `providers.<id>`, which every provider takes: keys (rotated round-robin), per-capability
 * endpoints, engines, basic auth, the model and the request budget.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CommonOverride = Schema.Struct({
  apiKeys: Schema.optional(Schema.Array(Secret)),
  capabilities: Schema.optional(
    Schema.Struct({
      searchKeywords: Schema.optional(CapabilityOverride),
      fetchUrls: Schema.optional(CapabilityOverride),
      research: Schema.optional(CapabilityOverride)
    })
  ),
  engines: Schema.optional(Schema.Array(NonEmpty)),
  basicAuthUsername: Schema.optional(HeaderText),
  basicAuthPassword: Schema.optional(Secret),
  model: Schema.optional(NonEmpty),
  rateLimit: Schema.optional(RateLimitInput)
})

/**
 * The names of the common fields; every other field of `providers.<id>` is one of the provider's own options.
 *
 * @since 0.2.0
 * @category constants
 */
export const commonFields: ReadonlyArray<string> = Object.keys(CommonOverride.fields)

/**
 * What a user may change on a provider: the common fields, plus the provider's own options (the local fetcher's
 * `userAgent`, SearXNG's `fetchResults`, Google's `engineId`, a custom provider's fields). The options are kept
 * as written here and decoded by the provider's own schema when the application's layer is built, since only
 * then is it known which providers are composed. Only changed fields are stored.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProviderOverride = Schema.Struct(
  CommonOverride.fields,
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

/**
 * @since 0.1.0
 * @category models
 */
export type ProviderOverride = typeof ProviderOverride.Type

const Cidr = Schema.String.pipe(
  Schema.filter((s) => {
    const [address, bits, ...rest] = s.split("/")
    const isV4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(address) && address.split(".").every((o) => Number(o) <= 255)
    const isV6 = address.includes(":") && URL.canParse(`http://[${address}]/`)
    const max = isV4 ? 32 : 128
    return (
      ((isV4 || isV6) && rest.length === 0 && bits !== undefined && /^\d{1,3}$/.test(bits) && Number(bits) <= max) ||
      `"${s}" is not a CIDR block (198.18.0.0/15, fd00::/8)`
    )
  })
)

const Port = Schema.Int.pipe(Schema.between(1, 65535, { message: () => "a port is an integer from 1 to 65535" }))

const Milliseconds = Schema.Int.pipe(
  Schema.between(1, 3_600_000, { message: () => "a timeout is a whole number of milliseconds from 1 to 3600000" })
)

/**
 * The settings document: what `--config` takes and what `layer` accepts. Every key is optional; unknown keys
 * are errors.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SettingsInput = Schema.Struct({
  defaults: Schema.optional(
    Schema.Struct({
      searchKeywords: Schema.optional(Schema.NullOr(ProviderId.ProviderId)),
      fetchUrls: Schema.optional(Schema.NullOr(ProviderId.ProviderId)),
      research: Schema.optional(Schema.NullOr(ProviderId.ProviderId))
    })
  ),
  /** Providers tried in order when a request without a providerId fails as a whole on the default. */
  fallbacks: Schema.optional(
    Schema.Struct({
      searchKeywords: Schema.optional(Schema.Array(ProviderId.ProviderId)),
      fetchUrls: Schema.optional(Schema.Array(ProviderId.ProviderId))
    })
  ),
  providers: Schema.optional(Schema.Record({ key: ProviderId.ProviderId, value: ProviderOverride })),
  blacklist: Schema.optional(Schema.Array(Blacklist.BlacklistEntry)),
  allowlist: Schema.optional(Schema.Array(Blacklist.BlacklistEntry)),
  urlPolicy: Schema.optional(
    Schema.Struct({
      allowHosts: Schema.optional(Schema.Array(NonEmpty)),
      allowCidrs: Schema.optional(Schema.Array(Cidr)),
      allowPorts: Schema.optional(Schema.Array(Port))
    })
  ),
  maxResults: Schema.optional(MaxResults),
  concurrency: Schema.optional(
    Schema.Int.pipe(Schema.between(1, 20, { message: () => "concurrency is an integer from 1 to 20" }))
  ),
  budget: Schema.optional(ContentBudget.ContentBudget),
  compression: Schema.optional(Compression.Compression),
  timeouts: Schema.optional(
    Schema.Struct({
      searchKeywords: Schema.optional(Milliseconds),
      fetchUrls: Schema.optional(Milliseconds),
      research: Schema.optional(Milliseconds)
    })
  ),
  /** How long the result cache (when one is provided) keeps answers; 0 turns caching off for that kind. */
  cache: Schema.optional(
    Schema.Struct({
      searchKeywords: Schema.optional(DurationSetting("cache.searchKeywords", 0, "30 days")),
      fetchUrls: Schema.optional(DurationSetting("cache.fetchUrls", 0, "30 days")),
      failures: Schema.optional(DurationSetting("cache.failures", 0, "1 hour"))
    })
  )
}).annotations({ identifier: "SettingsInput" })

/**
 * The settings document as written (JSON-compatible; secrets as plain strings).
 *
 * @since 0.1.0
 * @category models
 */
export type SettingsInput = typeof SettingsInput.Encoded

/**
 * Values used when a setting is absent. Which provider serves a capability by default is not one of them: core
 * names no provider, so it comes from `defaults` in the settings or from the composed bundle (`Providers.layer`
 * proposes DuckDuckGo for search, the local `Fetch.layer` proposes itself for URLs).
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  maxResults: 10,
  concurrency: 5,
  timeouts: { searchKeywords: 20_000, fetchUrls: 15_000, research: 300_000 },
  cache: { searchKeywords: 600_000, fetchUrls: 3_600_000, failures: 30_000 },
  rateLimitMaxWait: 2_000
} as const

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
   * The user's overrides by provider id: the common fields decoded, the provider's own options as written. They
   * are checked against the composed providers when the application's layer is built.
   */
  readonly overrides: ReadonlyMap<ProviderId.ProviderId, ProviderOverride>
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

/**
 * The settings service.
 *
 * @since 0.1.0
 * @category tags
 */
export class Settings extends Context.Tag("@websearch/core/Settings")<Settings, Service>() {}

const invalid = (message: string) => WebSearchError.unavailable("invalid_config", `invalid settings: ${message}`)

const formatParseError = (error: ParseResult.ParseError): string => ParseIssues.format(error, "settings")

interface Origin {
  readonly source: string
  readonly environment: Option.Option<ConfigProvider.ConfigProvider>
}

const validate = (
  input: typeof SettingsInput.Type,
  origin: Origin
): Either.Either<Service, WebSearchError.Unavailable> => {
  const problems: Array<string> = []
  for (const [id, override] of Object.entries(input.providers ?? {})) {
    if ((override.basicAuthUsername === undefined) !== (override.basicAuthPassword === undefined)) {
      problems.push(`providers.${id}: basicAuthUsername and basicAuthPassword go together`)
    }
  }
  for (const capability of ["searchKeywords", "fetchUrls"] as const) {
    const chain = input.fallbacks?.[capability] ?? []
    if (chain.length > 0 && input.defaults?.[capability] === null) {
      problems.push(`fallbacks.${capability}: a fallback chain needs a default for ${capability}`)
    }
    chain.forEach((id, index) => {
      if (id === input.defaults?.[capability] || chain.indexOf(id) !== index) {
        problems.push(`fallbacks.${capability}.${index}: ${id} already comes earlier in the chain`)
      }
    })
  }
  const blacklist = Blacklist.compile(input.blacklist ?? [])
  const allowlist = Blacklist.compile(input.allowlist ?? [])
  for (const [field, compiled] of [
    ["blacklist", blacklist],
    ["allowlist", allowlist]
  ] as const) {
    if (Either.isLeft(compiled)) {
      for (const entry of compiled.left) problems.push(`${field}.${entry.index}: ${entry.message}`)
    }
  }
  const urlPolicy = UrlPolicy.make(input.urlPolicy)
  for (const problem of urlPolicy.problems) problems.push(`urlPolicy.${problem.field}: ${problem.message}`)
  // An endpoint the user set is a URL like any fetched page (DESIGN §4); the presets' own hosts are trusted.
  for (const [id, override] of Object.entries(input.providers ?? {})) {
    for (const [feature, capability] of Object.entries(override.capabilities ?? {})) {
      if (capability?.apiHost === undefined) continue
      const checked = UrlPolicy.checkUrl(urlPolicy, capability.apiHost)
      if (Either.isLeft(checked)) {
        problems.push(`providers.${id}.capabilities.${feature}.apiHost: ${checked.left.message}`)
      }
    }
  }
  if (problems.length > 0 || Either.isLeft(blacklist) || Either.isLeft(allowlist)) {
    return Either.left(invalid(problems.join("; ")))
  }
  return Either.right({
    defaults: {
      searchKeywords: input.defaults?.searchKeywords,
      fetchUrls: input.defaults?.fetchUrls,
      research: input.defaults?.research
    },
    fallbacks: {
      searchKeywords: input.fallbacks?.searchKeywords ?? [],
      fetchUrls: input.fallbacks?.fetchUrls ?? []
    },
    overrides: new Map(Object.entries(input.providers ?? {})),
    environment: origin.environment,
    source: origin.source,
    filter: { blacklist: blacklist.right, allowlist: allowlist.right },
    urlPolicy,
    maxResults: input.maxResults ?? defaults.maxResults,
    concurrency: input.concurrency ?? defaults.concurrency,
    budget: input.budget ?? ContentBudget.defaultBudget,
    compression: input.compression ?? { method: "none" },
    timeouts: {
      searchKeywords: Duration.millis(input.timeouts?.searchKeywords ?? defaults.timeouts.searchKeywords),
      fetchUrls: Duration.millis(input.timeouts?.fetchUrls ?? defaults.timeouts.fetchUrls),
      research: Duration.millis(input.timeouts?.research ?? defaults.timeouts.research)
    },
    cache: {
      searchKeywords: Option.getOrThrow(parseDuration(input.cache?.searchKeywords ?? defaults.cache.searchKeywords)),
      fetchUrls: Option.getOrThrow(parseDuration(input.cache?.fetchUrls ?? defaults.cache.fetchUrls)),
      failures: Option.getOrThrow(parseDuration(input.cache?.failures ?? defaults.cache.failures))
    }
  })
}

const decodeInput = Schema.decodeUnknownEither(SettingsInput, { errors: "all", onExcessProperty: "error" })

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

/**
 * Validates a settings document and builds the service.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  input: unknown,
  options?: string | MakeOptions
): Effect.Effect<Service, WebSearchError.Unavailable> =>
  Effect.gen(function* () {
    const { environment, source = "code" } = typeof options === "string" ? { source: options } : (options ?? {})
    const provider =
      environment === true ? Option.some(yield* Effect.configProviderWith(Effect.succeed)) : Option.none()
    return yield* Either.match(decodeInput(input), {
      onLeft: (error) => Effect.fail(invalid(`${formatParseError(error)} (from ${source})`)),
      onRight: (decoded) =>
        Either.match(validate(decoded, { source, environment: provider }), {
          onLeft: (error) =>
            Effect.fail(new WebSearchError.Unavailable({ ...error, message: `${error.message} (from ${source})` })),
          onRight: Effect.succeed
        })
    })
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
export const layer = (input: SettingsInput = {}): Layer.Layer<Settings, WebSearchError.Unavailable> =>
  Layer.effect(Settings, make(input))

/**
 * Reads the application-wide part of a settings document from the environment (or any `ConfigProvider`):
 * - `WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER`, `WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER`,
 *   `WEBSEARCH_DEFAULT_RESEARCH_PROVIDER` (`none` for no default);
 * - `WEBSEARCH_CACHE_SEARCH_KEYWORDS_TTL`, `WEBSEARCH_CACHE_FETCH_URLS_TTL`, `WEBSEARCH_CACHE_FAILURES_TTL`
 *   (milliseconds or `"10 minutes"`);
 * - `WEBSEARCH_FALLBACK_SEARCH_KEYWORDS_PROVIDERS`, `WEBSEARCH_FALLBACK_FETCH_URLS_PROVIDERS` (comma-separated);
 * - `WEBSEARCH_MAX_RESULTS`, `WEBSEARCH_CONCURRENCY`.
 *
 * Per-provider variables (`<ID>_API_KEY` and the like, see `ProviderEnvironment`) are read for the composed
 * providers when the application's layer is built, since only then is it known which providers there are.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromConfig: Effect.Effect<SettingsInput, WebSearchError.Unavailable> = Effect.gen(function* () {
  const document: {
    defaults?: Record<string, string | null>
    fallbacks?: Record<string, ReadonlyArray<string>>
    maxResults?: number
    concurrency?: number
    cache?: Record<string, string>
  } = {}
  const problems: Array<string> = []
  for (const capability of Capability.all) {
    const name = `WEBSEARCH_DEFAULT_${Capability.toEnvName(capability)}_PROVIDER`
    const value = yield* optionalString(name)
    if (Option.isSome(value)) {
      document.defaults = { ...document.defaults, [capability]: value.value === "none" ? null : value.value }
    }
  }
  for (const capability of ["searchKeywords", "fetchUrls"] as const) {
    const chain = yield* optionalString(`WEBSEARCH_FALLBACK_${Capability.toEnvName(capability)}_PROVIDERS`)
    if (Option.isSome(chain)) document.fallbacks = { ...document.fallbacks, [capability]: splitList(chain.value) }
  }
  const maxResults = yield* Config.option(Config.integer("WEBSEARCH_MAX_RESULTS"))
  if (Option.isSome(maxResults)) document.maxResults = maxResults.value
  const concurrency = yield* Config.option(Config.integer("WEBSEARCH_CONCURRENCY"))
  if (Option.isSome(concurrency)) document.concurrency = concurrency.value
  for (const kind of ["searchKeywords", "fetchUrls", "failures"] as const) {
    const name = kind === "failures" ? "FAILURES" : Capability.toEnvName(kind)
    const ttl = yield* optionalString(`WEBSEARCH_CACHE_${name}_TTL`)
    if (Option.isSome(ttl)) document.cache = { ...document.cache, [kind]: ttl.value }
  }
  if (problems.length > 0) return yield* Effect.fail(invalid(`${problems.join("; ")} (from environment)`))
  return document as SettingsInput
}).pipe(
  Effect.catchTag("ConfigError", (error) =>
    Effect.fail(
      invalid(`${String(error).replace(/^\(?Invalid data at ([^:]+): "([\s\S]*)"\)?$/, "$1: $2")} (from environment)`)
    )
  )
)

/**
 * Overlays one settings document on another: scalar and list keys of the overlay win, `defaults`, `providers`
 * (per provider, per field, per capability), `urlPolicy`, `timeouts` and `cache` merge key by key.
 *
 * @since 0.1.0
 * @category combinators
 */
export const merge = (base: SettingsInput, overlay: SettingsInput): SettingsInput => {
  const providers: Record<string, ProviderOverrideInput> = { ...base.providers }
  for (const [id, override] of Object.entries(overlay.providers ?? {})) {
    const previous = providers[id]
    providers[id] =
      previous === undefined
        ? override
        : {
            ...previous,
            ...override,
            ...(previous.capabilities !== undefined || override.capabilities !== undefined
              ? { capabilities: { ...previous.capabilities, ...override.capabilities } }
              : {})
          }
  }
  return {
    ...base,
    ...overlay,
    ...(base.defaults !== undefined || overlay.defaults !== undefined
      ? { defaults: { ...base.defaults, ...overlay.defaults } }
      : {}),
    ...(Object.keys(providers).length > 0 ? { providers } : {}),
    ...(base.fallbacks !== undefined || overlay.fallbacks !== undefined
      ? { fallbacks: { ...base.fallbacks, ...overlay.fallbacks } }
      : {}),
    ...(base.urlPolicy !== undefined || overlay.urlPolicy !== undefined
      ? { urlPolicy: { ...base.urlPolicy, ...overlay.urlPolicy } }
      : {}),
    ...(base.timeouts !== undefined || overlay.timeouts !== undefined
      ? { timeouts: { ...base.timeouts, ...overlay.timeouts } }
      : {}),
    ...(base.cache !== undefined || overlay.cache !== undefined ? { cache: { ...base.cache, ...overlay.cache } } : {})
  }
}

type ProviderOverrideInput = typeof ProviderOverride.Encoded

/**
 * Settings from the environment (see `fromConfig`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (): Layer.Layer<Settings, WebSearchError.Unavailable> =>
  Layer.effect(
    Settings,
    Effect.flatMap(fromConfig, (document) => make(document, { source: "environment", environment: true }))
  )

/**
 * Reads and parses a JSON settings file; fails with `Unavailable/invalid_config` naming the file.
 *
 * @since 0.1.0
 * @category constructors
 */
export const readFile = (
  path: string
): Effect.Effect<SettingsInput, WebSearchError.Unavailable, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const text = yield* Effect.mapError(SettingsFile.readText(path), invalid)
    return yield* Effect.try({
      try: () => JSON.parse(text) as SettingsInput,
      catch: (error) => invalid(`settings file ${path} is not valid JSON: ${jsonProblem(text, error)}`)
    })
  })

// V8's message quotes the text around an unexpected token, which may be an API key: only the kind of problem and
// where it is (line and column) are kept.
const jsonProblem = (text: string, error: unknown): string => {
  const message = error instanceof Error ? error.message : ""
  const kind = message
    .split('"')[0]
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/[,.\s]+$/, "")
    .slice(0, 60)
  const position = /at position (\d+)/.exec(message)
  if (position === null) return kind
  const before = text.slice(0, Number(position[1]))
  const line = before.split("\n").length
  return `${kind} at line ${line}, column ${before.length - before.lastIndexOf("\n")}`
}

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
      if (options?.env !== true || Either.isLeft(decodeInput(file))) return yield* make(file, path)
      const env = yield* fromConfig
      return yield* make(merge(file, env), { source: `${path} and environment`, environment: true })
    })
  )
