/**
 * A composed provider after merging its preset with the user's override and the environment, and what one driver
 * call is given: the endpoint of its capability, one API key taken in rotation, limits.
 *
 * @since 0.2.0
 */
import type * as Duration from "effect/Duration"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { Capability } from "./Capability.js"
import type { Preset } from "./Preset.js"
import type { SearchOptions } from "./SearchOptions.js"

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
 * A provider after merging its preset with the user's override: capability endpoints merged by feature, keys as
 * `Redacted`, the provider's own options as its schema decoded them.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResolvedProvider extends Preset {
  readonly apiKeys: ReadonlyArray<Redacted.Redacted<string>>
  readonly engines: ReadonlyArray<string>
  readonly basicAuth: Option.Option<{ readonly username: string; readonly password: Redacted.Redacted<string> }>
  readonly model: Option.Option<string>
  /** The provider's request budget; none means unlimited (a Retry-After is still honoured). */
  readonly rateLimit: Option.Option<RateLimit>
  /**
   * The outbound proxy of this provider's calls, as the settings or instance gave it (may carry credentials:
   * never log it whole). None: the standard proxy environment applies.
   */
  readonly proxyUrl: Option.Option<Redacted.Redacted<string>>
  /** The provider's own options, decoded by its schema (`undefined` for a provider without options). */
  readonly options: unknown
  /**
   * For a provider instance (declared in the settings' `instances`, or one of a call's `CallInstances`): the
   * composed provider type it configures. Its `id` is then the instance id, and its `name` the instance's own.
   * Absent for a composed provider.
   *
   * @since 0.2.0
   */
  readonly instanceOf?: string | undefined
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
  readonly capability: Capability
  readonly apiHost: Option.Option<string>
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  /**
   * The position of `apiKey` among the configured keys (0-based): a rejected key is reported by its position,
   * never by its value.
   */
  readonly apiKeyIndex: Option.Option<number>
  readonly maxResults: number
  /**
   * The caller's search options (`searchKeywords` only; empty otherwise). A driver reads those it declares in
   * `ProviderDriver.searchOptions` and maps them to its parameters.
   */
  readonly searchOptions: SearchOptions
  readonly timeout: Duration.Duration
}
