/**
 * Reading the values of parsed flags: text, lists and switches, and the checks that turn a malformed value into
 * the usage error's message (naming the flag).
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Grammar from "./grammar.js"

export const parsePort = (option: string, raw: string): Either.Either<number, string> =>
  /^\d{1,5}$/.test(raw) && Number(raw) <= 65535
    ? Either.right(Number(raw))
    : Either.left(`${option} takes a port number 0-65535, not "${raw}"`)

export const wholeNumber = (option: string, raw: string, min: number, max: number): Either.Either<number, string> =>
  /^\d{1,10}$/.test(raw) && Number(raw) >= min && Number(raw) <= max
    ? Either.right(Number(raw))
    : Either.left(`${option} takes a whole number from ${min} to ${max}, not "${raw}"`)

export const choice = <A extends string>(
  option: string,
  raw: string,
  allowed: ReadonlyArray<A>
): Either.Either<A, string> =>
  allowed.includes(raw as A)
    ? Either.right(raw as A)
    : Either.left(`${option} takes ${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}, not "${raw}"`)

export const text = (values: Grammar.Values, name: string): string | undefined => {
  const value = values[name]
  return Option.isOption(value) ? Option.getOrUndefined(value as Option.Option<string>) : undefined
}

export const list = (values: Grammar.Values, name: string): ReadonlyArray<string> => {
  const value = values[name]
  return Array.isArray(value) ? (value as ReadonlyArray<string>) : []
}

export const flag = (values: Grammar.Values, name: string): boolean => values[name] === true

/** Reads an optional value with `read`; a malformed one is the usage error's message. */
export const optional = <A>(raw: string | undefined, read: (raw: string) => Either.Either<A, string>) =>
  raw === undefined ? Either.right(undefined) : read(raw)
