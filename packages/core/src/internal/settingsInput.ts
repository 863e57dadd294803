/**
 * The settings document as written: what `--config` takes and what `Settings.layer` accepts, its parts (a
 * provider's override, a request budget, durations) and how two documents overlay. `Settings` re-exports all of
 * it; the rules that need the whole document (the URL policy over user-set endpoints, fallback chains) are
 * checked when the settings load.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import type * as ProviderConfig from "../ProviderConfig.js"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Blacklist from "./blacklist.js"
import * as Compression from "../Compression.js"
import * as ContentBudget from "../ContentBudget.js"
import * as HeaderValue from "./headerValue.js"
import * as ProviderId from "../ProviderId.js"
import * as CidrBlock from "./cidr.js"
import * as UrlPolicy from "../UrlPolicy.js"
import { FusionProviderIds, MaxResults } from "../WebSearchRequest.js"

// Scheme and credentials here; the host and port rules need the whole document's urlPolicy (see validate).
const HttpUrl = Schema.String.pipe(
  Schema.filter((s) =>
    Either.match(UrlPolicy.parseHttpUrl(s), { onLeft: (error) => error.message, onRight: () => true })
  )
)

// A proxy URL may carry credentials (they become Proxy-Authorization); the message never repeats the value.
const ProxyUrl = Schema.String.pipe(
  Schema.filter((s) => {
    const text = s.trim()
    if (!URL.canParse(text)) return "must be an http(s) URL (http://proxy.example:3128)"
    const url = new URL(text)
    if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http or https URL"
    if (url.hostname === "") return "must name a host"
    if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "") {
      return "must not have a path or a query"
    }
    return true
  })
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
 * @category encoding
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
 * A provider's request budget, resolved (defined beside the resolved provider that holds it).
 *
 * @since 0.1.0
 * @category models
 */
export type RateLimit = ProviderConfig.RateLimit

/**
 * What a user may change on one capability of a provider: its endpoint.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CapabilityOverride = Schema.Struct({ apiHost: Schema.optional(HttpUrl) })

/**
 * The common fields of `providers.<id>`, which every provider takes: keys (rotated round-robin), per-capability
 * endpoints, engines, basic auth, the model, the request budget and the outbound proxy.
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
      research: Schema.optional(CapabilityOverride),
      mapSite: Schema.optional(CapabilityOverride),
      crawlSite: Schema.optional(CapabilityOverride)
    })
  ),
  engines: Schema.optional(Schema.Array(NonEmpty)),
  basicAuthUsername: Schema.optional(HeaderText),
  basicAuthPassword: Schema.optional(Secret),
  model: Schema.optional(NonEmpty),
  rateLimit: Schema.optional(RateLimitInput),
  /**
   * The outbound proxy for this provider's API calls (`http://proxy.corp:3128`, credentials allowed in the URL);
   * it passes the URL policy like any user-set endpoint. Without it, `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` apply.
   */
  proxyUrl: Schema.optional(ProxyUrl)
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

/**
 * A provider instance declared in the settings (`instances.<id>`): the composed provider type it configures
 * (`type`), an optional display `name`, and the same fields as `providers.<type>` (the common fields and the
 * type's own options, decoded by the type's schema when the application's layer is built). The id is the user's
 * choice (`prod-bing`, `test-searxng`) and may not be a composed provider's id; requests name it in `providerId`
 * or `providerIds`, and `defaults`, `fallbacks` and `fusion` may name it.
 *
 * @since 0.2.0
 * @category schemas
 */
export const InstanceOverride = Schema.Struct(
  {
    type: ProviderId.ProviderId,
    name: Schema.optional(NonEmpty.pipe(Schema.maxLength(200))),
    ...CommonOverride.fields
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

/**
 * @since 0.2.0
 * @category models
 */
export type InstanceOverride = typeof InstanceOverride.Type

/**
 * The fields of `instances.<id>` that are not the type's own options: `type`, `name` and the common fields.
 *
 * @since 0.2.0
 * @category constants
 */
export const instanceFields: ReadonlyArray<string> = ["type", "name", ...commonFields]

// One CIDR parser: the URL policy's own, so what the settings accept is what the policy compiles.
const Cidr = CidrBlock.CidrString

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
      research: Schema.optional(Schema.NullOr(ProviderId.ProviderId)),
      mapSite: Schema.optional(Schema.NullOr(ProviderId.ProviderId)),
      crawlSite: Schema.optional(Schema.NullOr(ProviderId.ProviderId))
    })
  ),
  /** Providers tried in order when a request without a providerId fails as a whole on the default. */
  fallbacks: Schema.optional(
    Schema.Struct({
      searchKeywords: Schema.optional(Schema.Array(ProviderId.ProviderId)),
      fetchUrls: Schema.optional(Schema.Array(ProviderId.ProviderId))
    })
  ),
  /**
   * A fused search as the default: a `searchKeywords` request naming no provider runs on each of these 2–5
   * providers and their rankings are fused (see `Fusion`). Replaces the single default and its fallback chain.
   */
  fusion: Schema.optional(Schema.Struct({ searchKeywords: Schema.optional(FusionProviderIds) })),
  providers: Schema.optional(Schema.Record({ key: ProviderId.ProviderId, value: ProviderOverride })),
  /** Named provider instances: several configurations of one provider type (see `InstanceOverride`). */
  instances: Schema.optional(Schema.Record({ key: ProviderId.ProviderId, value: InstanceOverride })),
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
      research: Schema.optional(Milliseconds),
      /** The whole map of a site. */
      mapSite: Schema.optional(Milliseconds),
      /** The whole crawl of a site (each page also has `fetchUrls`'s timeout): at the limit it stops, keeping its pages. */
      crawlSite: Schema.optional(Milliseconds)
    })
  ),
  /** How long the result cache (when one is provided) keeps answers; 0 turns caching off for that kind. */
  cache: Schema.optional(
    Schema.Struct({
      searchKeywords: Schema.optional(DurationSetting("cache.searchKeywords", 0, "30 days")),
      fetchUrls: Schema.optional(DurationSetting("cache.fetchUrls", 0, "30 days")),
      failures: Schema.optional(DurationSetting("cache.failures", 0, "1 hour")),
      /** The `websearch` command keeps its answers on disk between runs (off unless true; servers ignore it). */
      persistent: Schema.optional(Schema.Boolean)
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
  timeouts: { searchKeywords: 20_000, fetchUrls: 15_000, research: 300_000, mapSite: 60_000, crawlSite: 600_000 },
  cache: { searchKeywords: 600_000, fetchUrls: 3_600_000, failures: 30_000 },
  rateLimitMaxWait: 2_000
} as const

// One override over another: fields of the overlay win, per-capability endpoints merge by capability.
const mergeEntries = <A extends { readonly capabilities?: object | undefined }>(
  base: Readonly<Record<string, A>> | undefined,
  overlay: Readonly<Record<string, A>> | undefined
): Record<string, A> => {
  const merged: Record<string, A> = { ...base }
  for (const [id, override] of Object.entries(overlay ?? {})) {
    const previous = merged[id]
    merged[id] =
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
  return merged
}

/**
 * Overlays one settings document on another: scalar and list keys of the overlay win, `defaults`, `fallbacks`,
 * `fusion`, `providers` and `instances` (per entry, per field, per capability), `urlPolicy`, `timeouts` and
 * `cache` merge key by key.
 *
 * @since 0.1.0
 * @category combinators
 */
export const merge = (base: SettingsInput, overlay: SettingsInput): SettingsInput => {
  const providers = mergeEntries(base.providers, overlay.providers)
  const instances = mergeEntries(base.instances, overlay.instances)
  return {
    ...base,
    ...overlay,
    ...(base.defaults !== undefined || overlay.defaults !== undefined
      ? { defaults: { ...base.defaults, ...overlay.defaults } }
      : {}),
    ...(Object.keys(providers).length > 0 ? { providers } : {}),
    ...(Object.keys(instances).length > 0 ? { instances } : {}),
    ...(base.fallbacks !== undefined || overlay.fallbacks !== undefined
      ? { fallbacks: { ...base.fallbacks, ...overlay.fallbacks } }
      : {}),
    ...(base.fusion !== undefined || overlay.fusion !== undefined
      ? { fusion: { ...base.fusion, ...overlay.fusion } }
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
