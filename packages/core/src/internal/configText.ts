/**
 * Reading environment text with `Config`: an optional variable (blank counts as unset, the value trimmed), an
 * optional secret (the same, kept `Redacted`), comma-separated lists, and the problems a `ConfigError` holds, one
 * per variable. One copy for every package that reads the environment: the settings' own variables, the
 * per-provider ones, the server's and the CLI's.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

const present = (s: string): Option.Option<string> => (s.trim() === "" ? Option.none() : Option.some(s.trim()))

/**
 * An optional variable: unset or blank is none; the value is trimmed.
 *
 * @since 0.2.0
 * @category constructors
 */
export const optionalString = (name: string): Config.Config<Option.Option<string>> =>
  Config.option(Config.string(name)).pipe(Config.map(Option.flatMap(present)))

/**
 * An optional secret (a key, a password): unset or blank is none; the value is trimmed and stays redacted.
 *
 * @since 0.2.0
 * @category constructors
 */
export const optionalSecret = (name: string): Config.Config<Option.Option<Redacted.Redacted<string>>> =>
  Config.option(Config.redacted(name)).pipe(
    Config.map(Option.flatMap((secret) => Option.map(present(Redacted.value(secret)), Redacted.make)))
  )

/**
 * A comma-separated list, items trimmed, empty items dropped.
 *
 * @since 0.2.0
 * @category utils
 */
export const splitList = (s: string): Array<string> =>
  s
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0)

/**
 * An optional comma-separated list.
 *
 * @since 0.2.0
 * @category constructors
 */
export const optionalList = (name: string): Config.Config<Option.Option<Array<string>>> =>
  Config.map(optionalString(name), Option.map(splitList))

/**
 * An optional comma-separated list of secrets (several API keys, rotated): each item stays redacted.
 *
 * @since 0.2.0
 * @category constructors
 */
export const optionalSecretList = (name: string): Config.Config<Option.Option<Array<Redacted.Redacted<string>>>> =>
  Config.map(
    optionalSecret(name),
    Option.map((secret) => splitList(Redacted.value(secret)).map((item) => Redacted.make(item)))
  )

/**
 * The fields that were set, each unwrapped; the others are left out (not `undefined`).
 *
 * @since 0.2.0
 * @category utils
 */
export const setFields = <R extends { readonly [key: string]: Option.Option<unknown> }>(
  fields: R
): { -readonly [K in keyof R]?: R[K] extends Option.Option<infer A> ? A : never } =>
  Object.fromEntries(
    Object.entries(fields).flatMap(([key, value]) => (Option.isSome(value) ? [[key, value.value]] : []))
  ) as { -readonly [K in keyof R]?: R[K] extends Option.Option<infer A> ? A : never }

// A variable's name is its path as the environment provider joins it.
const variable = (path: ReadonlyArray<string>): string => path.join("_")

const oneProblem = (_: unknown, path: Array<string>, message: string): ReadonlyArray<string> => [
  `${variable(path)}: ${message}`
]

const problemsReducer: ConfigError.ConfigErrorReducer<unknown, ReadonlyArray<string>> = {
  andCase: (_, left, right) => [...left, ...right],
  orCase: (_, left, right) => [...left, ...right],
  invalidDataCase: oneProblem,
  missingDataCase: oneProblem,
  sourceUnavailableCase: oneProblem,
  unsupportedCase: oneProblem
}

/**
 * Every problem of a `ConfigError` as `VARIABLE: why`, in the order the variables were read.
 *
 * @since 0.2.0
 * @category utils
 */
export const problems = (error: ConfigError.ConfigError): ReadonlyArray<string> =>
  ConfigError.reduceWithContext(error, undefined, problemsReducer)
