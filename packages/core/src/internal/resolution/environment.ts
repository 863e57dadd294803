/**
 * A composed provider's environment variables, read when the application's layer is built: the common ones named
 * after its id (`<ID>_API_KEY`; `<ID>_API_HOST` for every capability, `<ID>_<CAPABILITY>_API_HOST` for one, which
 * wins; `<ID>_ENGINES`, `<ID>_BASIC_AUTH_USERNAME`, `<ID>_BASIC_AUTH_PASSWORD`, `<ID>_MODEL`, `<ID>_RATE_LIMIT`,
 * `<ID>_RATE_LIMIT_MAX_WAIT`) and the provider's own (its driver's `optionsConfig`). Each is one `Config`; keys and
 * the password are read `Redacted` and stay so. The common fields come back as an override, decoded by
 * `EnvironmentOverride` and laid over the settings' own.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { AnyProviderDriver } from "../../ProviderDriver.js"
import * as SettingsInput from "../settingsInput.js"
import * as ConfigText from "../configText.js"
import * as Variables from "./variables.js"

/**
 * The common fields as the environment gives them: as in a settings file, except that keys and the password are
 * already `Redacted` (they never pass through a plain string field).
 */
export const EnvironmentOverride = Schema.Struct({
  ...SettingsInput.CommonOverride.fields,
  apiKeys: Schema.optional(Schema.Array(Schema.RedactedFromSelf(SettingsInput.HeaderText))),
  basicAuthPassword: Schema.optional(Schema.RedactedFromSelf(SettingsInput.HeaderText))
})

/** What was read: the common fields found (for `EnvironmentOverride`), the provider's own options, the problems. */
export interface Read {
  readonly override: Record<string, unknown>
  readonly options: Record<string, unknown>
  /** One per malformed variable, named by the variable. */
  readonly problems: ReadonlyArray<string>
}

/** The variable names of a provider's common fields, for messages and documentation. */
export const names = (driver: AnyProviderDriver): ReadonlyArray<string> => {
  const id = driver.preset.id
  const hosts = [
    Variables.apiHost(id),
    ...(driver.preset.capabilities.length === 1
      ? []
      : driver.preset.capabilities.map((c) => Variables.capabilityApiHost(id, c.feature)))
  ]
  return [
    Variables.apiKey(id),
    ...hosts,
    Variables.field(id, "ENGINES"),
    Variables.field(id, "BASIC_AUTH_USERNAME"),
    Variables.field(id, "BASIC_AUTH_PASSWORD"),
    Variables.field(id, "MODEL"),
    Variables.field(id, "RATE_LIMIT"),
    Variables.field(id, "RATE_LIMIT_MAX_WAIT")
  ]
}

const refuse = (name: string, message: string) => ConfigError.InvalidData([name], message)

// `<ID>_API_HOST` is every capability's endpoint (one host serves the provider's whole API, as for Tavily or Exa);
// `<ID>_<CAPABILITY>_API_HOST` sets one capability's, and wins over it (Jina's search and reader hosts differ).
const apiHosts = (driver: Pick<AnyProviderDriver, "preset">, id: string) => {
  const { capabilities } = driver.preset
  const all = ConfigText.optionalString(Variables.apiHost(id))
  const each = Config.all(
    capabilities.map((c) => ConfigText.optionalString(Variables.capabilityApiHost(id, c.feature)))
  )
  return Config.map(Config.all([all, each]), ([one, several]) => {
    const entries = capabilities.flatMap((c, i) =>
      Option.toArray(
        Option.map(
          Option.orElse(several[i], () => one),
          (apiHost) => [c.feature, { apiHost }] as const
        )
      )
    )
    return entries.length === 0 ? Option.none() : Option.some(Object.fromEntries(entries))
  })
}

// `LIMIT/WINDOW` (`100/1 minute`); the window and the wait are checked as durations with the rest of the override.
const rateLimit = (id: string) =>
  Config.mapOrFail(
    Config.all([
      ConfigText.optionalString(Variables.field(id, "RATE_LIMIT")),
      ConfigText.optionalString(Variables.field(id, "RATE_LIMIT_MAX_WAIT"))
    ]),
    ([rate, maxWait]) => {
      if (Option.isNone(rate)) {
        return Option.isNone(maxWait)
          ? Either.right(Option.none())
          : Either.left(
              refuse(Variables.field(id, "RATE_LIMIT_MAX_WAIT"), `set ${Variables.field(id, "RATE_LIMIT")} too`)
            )
      }
      const [limit, window, ...rest] = rate.value.split("/").map((part) => part.trim())
      if (!/^\d+$/.test(limit) || window === undefined || rest.length > 0) {
        return Either.left(
          refuse(Variables.field(id, "RATE_LIMIT"), `"${rate.value}" is not LIMIT/WINDOW (100/1 minute)`)
        )
      }
      return Either.right(
        Option.some({
          limit: Number(limit),
          window,
          ...Option.match(maxWait, { onNone: () => ({}), onSome: (w) => ({ maxWait: w }) })
        })
      )
    }
  )

/** The common variables of one provider, as one `Config` of the override fields that were set. */
export const common = (driver: Pick<AnyProviderDriver, "preset">): Config.Config<Record<string, unknown>> => {
  const id = driver.preset.id
  return Config.map(
    Config.all({
      apiKeys: ConfigText.optionalSecretList(Variables.apiKey(id)),
      capabilities: apiHosts(driver, id),
      engines: ConfigText.optionalList(Variables.field(id, "ENGINES")),
      basicAuthUsername: ConfigText.optionalString(Variables.field(id, "BASIC_AUTH_USERNAME")),
      basicAuthPassword: ConfigText.optionalSecret(Variables.field(id, "BASIC_AUTH_PASSWORD")),
      model: ConfigText.optionalString(Variables.field(id, "MODEL")),
      rateLimit: rateLimit(id)
    }),
    ConfigText.setFields
  )
}

/** Reads one provider's variables from the `ConfigProvider` in context; a malformed one is a problem, not a failure. */
export const read: (driver: Pick<AnyProviderDriver, "preset" | "optionsConfig">) => Effect.Effect<Read> =
  Effect.fnUntraced(function* (driver) {
    const problems: Array<string> = []
    // The common variables and the provider's own are read apart, so a problem in each is reported.
    const override = yield* Effect.either(common(driver))
    if (Either.isLeft(override)) problems.push(...ConfigText.problems(override.left))
    const options: Record<string, unknown> = {}
    if (driver.optionsConfig !== undefined) {
      const read = yield* Effect.either(driver.optionsConfig)
      if (Either.isLeft(read)) problems.push(...ConfigText.problems(read.left))
      else {
        for (const [key, value] of Object.entries(read.right as Record<string, unknown>)) {
          if (value !== undefined) options[key] = value
        }
      }
    }
    return { override: Either.getOrElse(override, () => ({})), options, problems }
  })
