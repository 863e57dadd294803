/**
 * A provider resolved from its preset and an override: the one place a `ResolvedProvider` is built, for composed
 * providers, settings instances and stored instances alike, and the decoding of a provider's own options.
 */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type * as Preset from "../../Preset.js"
import type { ResolvedProvider } from "../../ProviderConfig.js"
import type { AnyProviderDriver } from "../../ProviderDriver.js"
import * as SettingsInput from "../settingsInput.js"
import * as ParseIssues from "../parseIssues.js"

/**
 * Decodes a provider's own options by its schema (unknown fields refused), or the problems naming each field
 * under `field` (`providers.google`, `instances.prod-google`, `options`).
 */
export const decodeOptions = (
  driver: Pick<AnyProviderDriver, "preset" | "options">,
  rawOptions: Record<string, unknown>,
  field: string,
  takes: ReadonlyArray<string> = SettingsInput.commonFields
): Either.Either<unknown, ReadonlyArray<string>> => {
  if (driver.options === undefined) {
    const keys = Object.keys(rawOptions)
    return keys.length === 0
      ? Either.right(undefined)
      : Either.left(
          keys.map(
            (key) =>
              `${field}.${key}: ${driver.preset.name} takes no option "${key}" (the common fields are ${takes.join(", ")})`
          )
        )
  }
  const decoded = Schema.decodeUnknownEither(driver.options, { errors: "all", onExcessProperty: "error" })(rawOptions)
  return Either.mapLeft(decoded, (error) => [ParseIssues.format(error, field, true)])
}

/** A provider resolved from its preset, an override's common fields and its decoded options. */
export const fromOverride = (
  preset: Preset.Preset,
  override: SettingsInput.ProviderOverride | undefined,
  options: unknown
): ResolvedProvider => ({
  ...preset,
  capabilities: preset.capabilities.map((capability) => {
    const apiHost = override?.capabilities?.[capability.feature]?.apiHost
    return apiHost === undefined ? capability : { ...capability, apiHost }
  }),
  apiKeys: override?.apiKeys ?? [],
  engines: override?.engines ?? [],
  basicAuth:
    override?.basicAuthUsername !== undefined && override.basicAuthPassword !== undefined
      ? Option.some({ username: override.basicAuthUsername, password: override.basicAuthPassword })
      : Option.none(),
  model: Option.fromNullable(override?.model),
  proxyUrl: Option.map(Option.fromNullable(override?.proxyUrl), Redacted.make),
  rateLimit: Option.orElse(
    Option.map(Option.fromNullable(override?.rateLimit), (rate) => ({
      limit: rate.limit,
      window: Option.getOrThrow(SettingsInput.parseDuration(rate.window)),
      maxWait: Option.getOrThrow(SettingsInput.parseDuration(rate.maxWait ?? SettingsInput.defaults.rateLimitMaxWait))
    })),
    () =>
      Option.map(Option.fromNullable(preset.publishedRateLimit), (rate) => ({
        limit: rate.limit,
        window: Duration.millis(rate.windowMillis),
        maxWait: Duration.millis(rate.maxWaitMillis)
      }))
  ),
  options
})
