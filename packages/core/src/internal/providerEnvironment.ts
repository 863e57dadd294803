/**
 * A composed provider's environment variables, read when the application's layer is built: the common ones named
 * after its id (`<ID>_API_KEY`, `<ID>_API_HOST` or `<ID>_<CAPABILITY>_API_HOST`, `<ID>_ENGINES`,
 * `<ID>_BASIC_AUTH_USERNAME`, `<ID>_BASIC_AUTH_PASSWORD`, `<ID>_MODEL`, `<ID>_RATE_LIMIT`,
 * `<ID>_RATE_LIMIT_MAX_WAIT`) and the provider's own (its driver's `optionsConfig`). The result is an override
 * as written in a settings file, laid over the settings' own.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Capability from "../Capability.js"
import { optionalString, splitList } from "./configText.js"
import type { AnyProviderDriver } from "../ProviderDriver.js"
import * as ProviderId from "../ProviderId.js"

/** What was read: the override fields found, and the problems (named by variable). */
export interface Read {
  readonly override: Record<string, unknown>
  readonly problems: ReadonlyArray<string>
}

/** The variable names of a provider's common fields, for messages and documentation. */
export const names = (driver: AnyProviderDriver): ReadonlyArray<string> => {
  const prefix = ProviderId.toEnvName(driver.preset.id)
  const hosts =
    driver.preset.capabilities.length === 1
      ? [`${prefix}_API_HOST`]
      : driver.preset.capabilities.map((c) => `${prefix}_${Capability.toEnvName(c.feature)}_API_HOST`)
  return [
    `${prefix}_API_KEY`,
    ...hosts,
    `${prefix}_ENGINES`,
    `${prefix}_BASIC_AUTH_USERNAME`,
    `${prefix}_BASIC_AUTH_PASSWORD`,
    `${prefix}_MODEL`,
    `${prefix}_RATE_LIMIT`,
    `${prefix}_RATE_LIMIT_MAX_WAIT`
  ]
}

/** Reads one provider's variables from the `ConfigProvider` in context. */
export const read = (driver: AnyProviderDriver): Effect.Effect<Read> =>
  Effect.gen(function* () {
    const { preset } = driver
    const prefix = ProviderId.toEnvName(preset.id)
    const override: Record<string, unknown> = {}
    const problems: Array<string> = []
    const get = (name: string) =>
      Effect.catchAll(optionalString(name), (error) => {
        problems.push(`${name}: ${String(error)}`)
        return Effect.succeed(Option.none<string>())
      })
    const keys = yield* get(`${prefix}_API_KEY`)
    if (Option.isSome(keys)) override.apiKeys = splitList(keys.value)
    const capabilities: Record<string, { apiHost: string }> = {}
    const host = yield* get(`${prefix}_API_HOST`)
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
      const capabilityHost = yield* get(`${prefix}_${Capability.toEnvName(capability.feature)}_API_HOST`)
      if (Option.isSome(capabilityHost)) capabilities[capability.feature] = { apiHost: capabilityHost.value }
    }
    if (Object.keys(capabilities).length > 0) override.capabilities = capabilities
    const engines = yield* get(`${prefix}_ENGINES`)
    if (Option.isSome(engines)) override.engines = splitList(engines.value)
    const username = yield* get(`${prefix}_BASIC_AUTH_USERNAME`)
    if (Option.isSome(username)) override.basicAuthUsername = username.value
    const password = yield* get(`${prefix}_BASIC_AUTH_PASSWORD`)
    if (Option.isSome(password)) override.basicAuthPassword = password.value
    const model = yield* get(`${prefix}_MODEL`)
    if (Option.isSome(model)) override.model = model.value
    const rateLimit = yield* get(`${prefix}_RATE_LIMIT`)
    const maxWait = yield* get(`${prefix}_RATE_LIMIT_MAX_WAIT`)
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
    if (driver.optionsConfig !== undefined) {
      const options = yield* Effect.either(driver.optionsConfig)
      if (options._tag === "Left") problems.push(describeConfigError(options.left))
      else {
        for (const [key, value] of Object.entries(options.right as Record<string, unknown>)) {
          if (value !== undefined) override[key] = value
        }
      }
    }
    return { override, problems }
  })

// A ConfigError prints as `(Invalid data at NAME: "why")`; the variable and the reason are what a user needs.
const describeConfigError = (error: unknown): string =>
  String(error).replace(/^\(?Invalid data at ([^:]+): "([\s\S]*)"\)?$/, "$1: $2")
