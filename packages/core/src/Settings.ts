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
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Blacklist from "./Blacklist.js"
import * as Capability from "./Capability.js"
import * as Compression from "./Compression.js"
import * as ContentBudget from "./ContentBudget.js"
import * as HeaderValue from "./internal/headerValue.js"
import * as ParseIssues from "./internal/parseIssues.js"
import * as SettingsFile from "./internal/settingsFile.js"
import * as Preset from "./Preset.js"
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

const Secret = Schema.Redacted(NonEmpty.pipe(HeaderValue.headerSafe))

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
 * When the local `fetch` provider renders a page in Chromium: `never` (the default), `auto` (when the HTML answer
 * is empty, tiny, a JavaScript shell or a browser check) or `always` (every HTML page).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RenderMode = Schema.Literal("never", "auto", "always")

/**
 * @since 0.1.0
 * @category models
 */
export type RenderMode = typeof RenderMode.Type

/**
 * What a user may change on one capability of a provider: its endpoint.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CapabilityOverride = Schema.Struct({ apiHost: Schema.optional(HttpUrl) })

/**
 * What a user may change on a provider: keys (rotated round-robin), per-capability endpoints, engines
 * (SearXNG), basic auth (SearXNG behind a proxy), the model (research), and the User-Agent, robots.txt
 * respect and rendering mode of the local `fetch` provider. Only changed fields are stored.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProviderOverride = Schema.Struct({
  apiKeys: Schema.optional(Schema.Array(Secret)),
  capabilities: Schema.optional(
    Schema.Struct({
      searchKeywords: Schema.optional(CapabilityOverride),
      fetchUrls: Schema.optional(CapabilityOverride),
      research: Schema.optional(CapabilityOverride)
    })
  ),
  engines: Schema.optional(Schema.Array(NonEmpty)),
  /** The search engine id some providers need besides the key (Google Custom Search's `cx`). */
  engineId: Schema.optional(NonEmpty),
  basicAuthUsername: Schema.optional(NonEmpty.pipe(HeaderValue.headerSafe)),
  basicAuthPassword: Schema.optional(Secret),
  model: Schema.optional(NonEmpty),
  rateLimit: Schema.optional(RateLimitInput),
  /** The User-Agent a local provider (`fetch`) sends instead of its default. */
  userAgent: Schema.optional(NonEmpty.pipe(HeaderValue.headerSafe)),
  /** Whether a local provider (`fetch`) obeys robots.txt; off by default. */
  respectRobotsTxt: Schema.optional(Schema.Boolean),
  /** When a local provider (`fetch`) renders pages in Chromium; `never` by default. */
  render: Schema.optional(RenderMode),
  /**
   * Whether a search provider that can (SearXNG) answers with each result's page, read through `fetchUrls`,
   * instead of its snippet; off by default.
   */
  fetchResults: Schema.optional(Schema.Boolean)
})

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
 * A provider after merging its preset with the user's override: capability endpoints merged by feature,
 * keys as `Redacted`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolvedProvider extends Preset.Preset {
  readonly apiKeys: ReadonlyArray<Redacted.Redacted<string>>
  readonly engines: ReadonlyArray<string>
  /** The provider's engine id (Google Custom Search's `cx`), when set. */
  readonly engineId: Option.Option<string>
  readonly basicAuth: Option.Option<{ readonly username: string; readonly password: Redacted.Redacted<string> }>
  readonly model: Option.Option<string>
  /** The provider's request budget; none means unlimited (a Retry-After is still honoured). */
  readonly rateLimit: Option.Option<RateLimit>
  /** A local provider's User-Agent, when the user set one. */
  readonly userAgent: Option.Option<string>
  /** Whether a local provider obeys robots.txt, when the user said. */
  readonly respectRobotsTxt: Option.Option<boolean>
  /** When a local provider renders pages in Chromium, when the user said. */
  readonly render: Option.Option<RenderMode>
  /** Whether a search provider answers with each result's page (SearXNG), when the user said. */
  readonly fetchResults: Option.Option<boolean>
}

/**
 * Everything a driver call needs for one capability of one provider: the endpoint, one API key (rotated
 * round-robin across the configured keys), engines, basic auth, limits.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProviderConfig {
  readonly provider: ResolvedProvider
  readonly capability: Capability.Capability
  readonly apiHost: Option.Option<string>
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  /**
   * The position of `apiKey` among the configured keys (0-based): a rejected key is reported by its position,
   * never by its value.
   */
  readonly apiKeyIndex: Option.Option<number>
  readonly maxResults: number
  readonly timeout: Duration.Duration
}

/**
 * Defaults used when a setting is absent. With no configuration at all, keyword search uses DuckDuckGo
 * (keyless) and URL fetching uses the local fetch provider; research has no default.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  defaults: { searchKeywords: "duckduckgo", fetchUrls: "fetch", research: null },
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
  readonly defaults: { readonly [C in Capability.Capability]: ProviderId.ProviderId | null }
  /** The configured fallback chain of each list capability (empty when none). */
  readonly fallbacks: { readonly [C in Capability.ListCapability]: ReadonlyArray<ProviderId.ProviderId> }
  readonly providers: ReadonlyMap<ProviderId.ProviderId, ResolvedProvider>
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
  /**
   * Finds a provider and its entry for a capability, without side effects. Fails with
   * `Unavailable/unknown_provider` or `Unavailable/unsupported_capability`.
   */
  readonly lookup: (
    providerId: ProviderId.ProviderId,
    capability: Capability.Capability
  ) => Either.Either<
    { readonly provider: ResolvedProvider; readonly entry: Preset.PresetCapability },
    WebSearchError.Unavailable
  >
  /**
   * Resolves the configuration of one capability of one provider, taking the next API key in rotation.
   * Fails with `Unavailable/unknown_provider` or `Unavailable/unsupported_capability`.
   */
  readonly resolve: (
    providerId: ProviderId.ProviderId,
    capability: Capability.Capability,
    options?: { readonly maxResults?: number | undefined }
  ) => Effect.Effect<ProviderConfig, WebSearchError.Unavailable>
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

const knownIds = () => Preset.all.map((p) => p.id).join(", ")

/**
 * The `Unavailable/unknown_provider` error for an id no preset has, listing the known ids.
 *
 * @since 0.1.0
 * @category errors
 */
export const unknownProvider = (providerId: string, capability?: Capability.Capability): WebSearchError.Unavailable =>
  WebSearchError.unavailable("unknown_provider", `unknown provider "${providerId}" (known: ${knownIds()})`, {
    providerId,
    capability
  })

const resolveProvider = (preset: Preset.Preset, override: ProviderOverride | undefined): ResolvedProvider => ({
  ...preset,
  capabilities: preset.capabilities.map((capability) => {
    const apiHost = override?.capabilities?.[capability.feature]?.apiHost
    return apiHost === undefined ? capability : { ...capability, apiHost }
  }),
  apiKeys: override?.apiKeys ?? [],
  engines: override?.engines ?? [],
  engineId: Option.fromNullable(override?.engineId),
  basicAuth:
    override?.basicAuthUsername !== undefined && override.basicAuthPassword !== undefined
      ? Option.some({ username: override.basicAuthUsername, password: override.basicAuthPassword })
      : Option.none(),
  model: Option.fromNullable(override?.model),
  userAgent: Option.fromNullable(override?.userAgent),
  respectRobotsTxt: Option.fromNullable(override?.respectRobotsTxt),
  fetchResults: Option.fromNullable(override?.fetchResults),
  render: Option.fromNullable(override?.render),
  rateLimit: Option.orElse(
    Option.map(Option.fromNullable(override?.rateLimit), (rate) => ({
      limit: rate.limit,
      window: Option.getOrThrow(parseDuration(rate.window)),
      maxWait: Option.getOrThrow(parseDuration(rate.maxWait ?? defaults.rateLimitMaxWait))
    })),
    () =>
      Option.map(Option.fromNullable(preset.publishedRateLimit), (rate) => ({
        limit: rate.limit,
        window: Duration.millis(rate.windowMillis),
        maxWait: Duration.millis(rate.maxWaitMillis)
      }))
  )
})

const pickDefault = (input: typeof SettingsInput.Type, capability: Capability.Capability): string | null => {
  const chosen = input.defaults?.[capability]
  return chosen === undefined ? defaults.defaults[capability] : chosen
}

// The providers whose API needs an engine id beside the key (Google Custom Search's `cx`).
const enginesIdProviders: ReadonlySet<string> = new Set(["google"])

// The search providers that can answer with each result's page instead of its snippet.
const fetchResultsProviders: ReadonlySet<string> = new Set(["searxng"])

const validate = (input: typeof SettingsInput.Type): Either.Either<Service, WebSearchError.Unavailable> => {
  const problems: Array<string> = []
  for (const [id, override] of Object.entries(input.providers ?? {})) {
    const preset = Preset.byId.get(id)
    if (preset === undefined) {
      problems.push(`providers.${id}: unknown provider (known: ${knownIds()})`)
      continue
    }
    for (const feature of Object.keys(override.capabilities ?? {}) as Array<Capability.Capability>) {
      if (!Preset.supports(preset, feature)) {
        problems.push(`providers.${id}.capabilities.${feature}: ${id} has no ${feature} capability`)
      }
    }
    if ((override.basicAuthUsername === undefined) !== (override.basicAuthPassword === undefined)) {
      problems.push(`providers.${id}: basicAuthUsername and basicAuthPassword go together`)
    }
    if (override.engineId !== undefined && !enginesIdProviders.has(id)) {
      problems.push(`providers.${id}.engineId: only ${Array.from(enginesIdProviders).join(", ")} take an engineId`)
    }
    if (override.fetchResults !== undefined && !fetchResultsProviders.has(id)) {
      problems.push(
        `providers.${id}.fetchResults: only ${Array.from(fetchResultsProviders).join(", ")} take fetchResults`
      )
    }
    for (const field of ["userAgent", "respectRobotsTxt", "render"] as const) {
      if (override[field] !== undefined && preset.type !== "local") {
        problems.push(`providers.${id}.${field}: only local providers (fetch) take ${field}`)
      }
    }
  }
  const chosen: { [C in Capability.Capability]: string | null } = {
    searchKeywords: pickDefault(input, "searchKeywords"),
    fetchUrls: pickDefault(input, "fetchUrls"),
    research: pickDefault(input, "research")
  }
  for (const capability of Capability.all) {
    const id = chosen[capability]
    if (id === null) continue
    const preset = Preset.byId.get(id)
    if (preset === undefined) problems.push(`defaults.${capability}: unknown provider "${id}" (known: ${knownIds()})`)
    else if (!Preset.supports(preset, capability)) {
      problems.push(`defaults.${capability}: ${id} has no ${capability} capability`)
    }
  }
  for (const capability of ["searchKeywords", "fetchUrls"] as const) {
    const chain = input.fallbacks?.[capability] ?? []
    if (chain.length > 0 && chosen[capability] === null) {
      problems.push(`fallbacks.${capability}: a fallback chain needs defaults.${capability}`)
    }
    chain.forEach((id, index) => {
      const preset = Preset.byId.get(id)
      const field = `fallbacks.${capability}.${index}`
      if (preset === undefined) problems.push(`${field}: unknown provider "${id}" (known: ${knownIds()})`)
      else if (!Preset.supports(preset, capability)) problems.push(`${field}: ${id} has no ${capability} capability`)
      else if (id === chosen[capability] || chain.indexOf(id) !== index) {
        problems.push(`${field}: ${id} already comes earlier in the chain`)
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
  const providers = new Map(
    Preset.all.map((preset) => [preset.id, resolveProvider(preset, input.providers?.[preset.id])] as const)
  )
  const rotation = new Map<string, number>()
  const maxResults = input.maxResults ?? defaults.maxResults
  const timeoutsResolved = {
    searchKeywords: Duration.millis(input.timeouts?.searchKeywords ?? defaults.timeouts.searchKeywords),
    fetchUrls: Duration.millis(input.timeouts?.fetchUrls ?? defaults.timeouts.fetchUrls),
    research: Duration.millis(input.timeouts?.research ?? defaults.timeouts.research)
  }
  const lookup: Service["lookup"] = (providerId, capability) => {
    const provider = providers.get(providerId)
    if (provider === undefined) {
      return Either.left(unknownProvider(providerId, capability))
    }
    const entry = provider.capabilities.find((c) => c.feature === capability)
    if (entry === undefined) {
      return Either.left(
        WebSearchError.unavailable(
          "unsupported_capability",
          `${provider.name} (${providerId}) does not support ${capability}; it supports ${provider.capabilities
            .map((c) => c.feature)
            .join(", ")}`,
          { providerId, capability }
        )
      )
    }
    return Either.right({ provider, entry })
  }
  const resolve: Service["resolve"] = (providerId, capability, options) =>
    Effect.suspend(() => {
      const found = lookup(providerId, capability)
      if (Either.isLeft(found)) return Effect.fail(found.left)
      const { entry, provider } = found.right
      let apiKey = Option.none<Redacted.Redacted<string>>()
      let apiKeyIndex = Option.none<number>()
      if (provider.apiKeys.length > 0) {
        const next = rotation.get(providerId) ?? 0
        rotation.set(providerId, (next + 1) % provider.apiKeys.length)
        apiKey = Option.some(provider.apiKeys[next])
        apiKeyIndex = Option.some(next)
      }
      return Effect.succeed({
        provider,
        capability,
        apiHost: Option.fromNullable(entry.apiHost),
        apiKey,
        apiKeyIndex,
        maxResults: options?.maxResults ?? maxResults,
        timeout: timeoutsResolved[capability]
      })
    })
  return Either.right({
    defaults: chosen,
    fallbacks: {
      searchKeywords: input.fallbacks?.searchKeywords ?? [],
      fetchUrls: input.fallbacks?.fetchUrls ?? []
    },
    providers,
    filter: { blacklist: blacklist.right, allowlist: allowlist.right },
    urlPolicy,
    maxResults,
    concurrency: input.concurrency ?? defaults.concurrency,
    budget: input.budget ?? ContentBudget.defaultBudget,
    compression: input.compression ?? { method: "none" },
    timeouts: timeoutsResolved,
    cache: {
      searchKeywords: Option.getOrThrow(parseDuration(input.cache?.searchKeywords ?? defaults.cache.searchKeywords)),
      fetchUrls: Option.getOrThrow(parseDuration(input.cache?.fetchUrls ?? defaults.cache.fetchUrls)),
      failures: Option.getOrThrow(parseDuration(input.cache?.failures ?? defaults.cache.failures))
    },
    lookup,
    resolve
  })
}

const decodeInput = Schema.decodeUnknownEither(SettingsInput, { errors: "all", onExcessProperty: "error" })

/**
 * Validates a settings document and builds the service. `source` names where the document came from in
 * error messages (a file path, "environment").
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (input: unknown, source = "code"): Effect.Effect<Service, WebSearchError.Unavailable> =>
  Either.match(decodeInput(input), {
    onLeft: (error) => Effect.fail(invalid(`${formatParseError(error)} (from ${source})`)),
    onRight: (decoded) =>
      Either.match(validate(decoded), {
        onLeft: (error) =>
          Effect.fail(new WebSearchError.Unavailable({ ...error, message: `${error.message} (from ${source})` })),
        onRight: Effect.succeed
      })
  })

/**
 * Settings from code.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (input: SettingsInput = {}): Layer.Layer<Settings, WebSearchError.Unavailable> =>
  Layer.effect(Settings, make(input))

const optionalString = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.flatMap((s) => (s.trim() === "" ? Option.none() : Option.some(s.trim()))))
  )

const splitList = (s: string) =>
  s
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0)

/**
 * Reads a settings document from the environment (or any `ConfigProvider`):
 * - `WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER`, `WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER`,
 *   `WEBSEARCH_DEFAULT_RESEARCH_PROVIDER` (`none` for no default);
 * - per provider, with its id upper-cased and `-` as `_`: `<ID>_API_KEY` (several keys comma-separated, rotated),
 *   `<ID>_API_HOST` (single-capability providers) or `<ID>_<CAPABILITY>_API_HOST` (`JINA_FETCH_URLS_API_HOST`),
 *   `<ID>_ENGINES` (comma-separated), `<ID>_BASIC_AUTH_USERNAME`, `<ID>_BASIC_AUTH_PASSWORD`, `<ID>_MODEL`,
 *   `<ID>_RATE_LIMIT` (`100/1 minute`: calls per window), `<ID>_RATE_LIMIT_MAX_WAIT` (`2 seconds`),
 *   `GOOGLE_ENGINE_ID`, `SEARXNG_FETCH_RESULTS` (`true` / `false`);
 * - for local providers: `FETCH_USER_AGENT`, `FETCH_RESPECT_ROBOTS_TXT` (`true` / `false`), `FETCH_RENDER`
 *   (`never`, `auto` or `always`);
 * - `WEBSEARCH_CACHE_SEARCH_KEYWORDS_TTL`, `WEBSEARCH_CACHE_FETCH_URLS_TTL`, `WEBSEARCH_CACHE_FAILURES_TTL`
 *   (milliseconds or `"10 minutes"`);
 * - `WEBSEARCH_FALLBACK_SEARCH_KEYWORDS_PROVIDERS`, `WEBSEARCH_FALLBACK_FETCH_URLS_PROVIDERS` (comma-separated);
 * - `WEBSEARCH_MAX_RESULTS`, `WEBSEARCH_CONCURRENCY`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromConfig: Effect.Effect<SettingsInput, WebSearchError.Unavailable> = Effect.gen(function* () {
  const document: {
    defaults?: Record<string, string | null>
    fallbacks?: Record<string, ReadonlyArray<string>>
    providers?: Record<string, Record<string, unknown>>
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
  for (const preset of Preset.all) {
    const prefix = ProviderId.toEnvName(preset.id)
    const override: Record<string, unknown> = {}
    const keys = yield* optionalString(`${prefix}_API_KEY`)
    if (Option.isSome(keys)) override.apiKeys = splitList(keys.value)
    const host = yield* optionalString(`${prefix}_API_HOST`)
    const capabilities: Record<string, { apiHost: string }> = {}
    if (Option.isSome(host)) {
      if (preset.capabilities.length === 1) capabilities[preset.capabilities[0].feature] = { apiHost: host.value }
      else {
        problems.push(
          `${prefix}_API_HOST: ${preset.id} has several capabilities; set ${preset.capabilities
            .map((c) => `${prefix}_${Capability.toEnvName(c.feature)}_API_HOST`)
            .join(" or ")}`
        )
      }
    }
    for (const capability of preset.capabilities) {
      const capabilityHost = yield* optionalString(`${prefix}_${Capability.toEnvName(capability.feature)}_API_HOST`)
      if (Option.isSome(capabilityHost)) capabilities[capability.feature] = { apiHost: capabilityHost.value }
    }
    if (Object.keys(capabilities).length > 0) override.capabilities = capabilities
    const engines = yield* optionalString(`${prefix}_ENGINES`)
    if (Option.isSome(engines)) override.engines = splitList(engines.value)
    const engineId = yield* optionalString(`${prefix}_ENGINE_ID`)
    if (Option.isSome(engineId)) override.engineId = engineId.value
    const username = yield* optionalString(`${prefix}_BASIC_AUTH_USERNAME`)
    if (Option.isSome(username)) override.basicAuthUsername = username.value
    const password = yield* optionalString(`${prefix}_BASIC_AUTH_PASSWORD`)
    if (Option.isSome(password)) override.basicAuthPassword = password.value
    const model = yield* optionalString(`${prefix}_MODEL`)
    if (Option.isSome(model)) override.model = model.value
    if (fetchResultsProviders.has(preset.id)) {
      const fetchResults = yield* Config.option(Config.boolean(`${prefix}_FETCH_RESULTS`))
      if (Option.isSome(fetchResults)) override.fetchResults = fetchResults.value
    }
    if (preset.type === "local") {
      const userAgent = yield* optionalString(`${prefix}_USER_AGENT`)
      if (Option.isSome(userAgent)) override.userAgent = userAgent.value
      const robots = yield* Config.option(Config.boolean(`${prefix}_RESPECT_ROBOTS_TXT`))
      if (Option.isSome(robots)) override.respectRobotsTxt = robots.value
      const render = yield* optionalString(`${prefix}_RENDER`)
      if (Option.isSome(render)) {
        if (Schema.is(RenderMode)(render.value)) override.render = render.value
        else problems.push(`${prefix}_RENDER: "${render.value}" is not never, auto or always`)
      }
    }
    const rateLimit = yield* optionalString(`${prefix}_RATE_LIMIT`)
    const maxWait = yield* optionalString(`${prefix}_RATE_LIMIT_MAX_WAIT`)
    if (Option.isSome(rateLimit)) {
      const [limit, window, ...rest] = rateLimit.value.split("/").map((part) => part.trim())
      if (!/^\d+$/.test(limit) || window === undefined || rest.length > 0) {
        problems.push(`${prefix}_RATE_LIMIT: "${rateLimit.value}" is not LIMIT/WINDOW (100/1 minute)`)
      } else {
        override.rateLimit = {
          limit: Number(limit),
          window,
          ...(Option.isSome(maxWait) ? { maxWait: maxWait.value } : {})
        }
      }
    } else if (Option.isSome(maxWait)) {
      problems.push(`${prefix}_RATE_LIMIT_MAX_WAIT: set ${prefix}_RATE_LIMIT too`)
    }
    if (Object.keys(override).length > 0) document.providers = { ...document.providers, [preset.id]: override }
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
    Effect.flatMap(fromConfig, (document) => make(document, "environment"))
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
      return yield* make(merge(file, env), `${path} and environment`)
    })
  )

/**
 * A listing of the resolved providers that is safe to show: key counts, never keys.
 *
 * @since 0.1.0
 * @category conversions
 */
export const describeProviders = (
  settings: Service
): ReadonlyArray<{
  readonly id: string
  readonly name: string
  readonly type: string
  readonly credentials: string
  readonly apiKeys: number
  readonly capabilities: ReadonlyArray<{ readonly feature: Capability.Capability; readonly apiHost: string | null }>
  readonly defaultFor: ReadonlyArray<Capability.Capability>
}> =>
  Array.from(settings.providers.values(), (provider) => ({
    id: provider.id,
    name: provider.name,
    type: provider.type,
    credentials: provider.credentials,
    apiKeys: provider.apiKeys.length,
    capabilities: provider.capabilities.map((c) => ({ feature: c.feature, apiHost: c.apiHost ?? null })),
    defaultFor: Capability.all.filter((c) => settings.defaults[c] === provider.id)
  }))
