/**
 * The rows of the SQL provider store: how an instance is sealed into `websearch_provider_instances` (its settings
 * and credentials as JSON sealed by secretBox, its name as a JSON string) and opened from it again, or marked
 * unreadable when it does not open.
 */
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as DateTime from "effect/DateTime"
import type * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as SecretBox from "./secretBox.js"
import type * as SqlDatabase from "./sqlDatabase.js"

/** A row of `websearch_provider_instances` as the drivers give it (PostgreSQL's BIGINT arrives as text). */
export interface Row {
  readonly workspace: string
  readonly id: string
  readonly type: string
  readonly name: string | null
  readonly settings: string
  readonly credentials: string
  readonly revision: number | string | bigint
  readonly created_at: number | string | bigint
  readonly updated_at: number | string | bigint
}

const SettingsJson = Schema.parseJson(ProviderInstance.InstanceSettings)
const CredentialsJson = Schema.parseJson(ProviderInstance.InstanceCredentials)
const encodeSettings = Schema.encodeEither(SettingsJson)
const encodeCredentials = Schema.encodeEither(CredentialsJson)
const decodeSettings = Schema.decodeUnknownEither(SettingsJson)
const decodeCredentials = Schema.decodeUnknownEither(CredentialsJson)
const isInstanceId = Schema.is(ProviderInstance.InstanceId)
// The name column holds the name as a JSON string: readable in the table, and any text survives both databases
// (PostgreSQL's TEXT refuses NUL, and a lone surrogate would not survive UTF-8).
const NameJson = Schema.parseJson(Schema.String)
const decodeName = Schema.decodeUnknownEither(NameJson)

/** The name column's value. */
export const nameColumn = (name: string | undefined): string | null =>
  name === undefined ? null : JSON.stringify(name)

/** What the operations need besides the client. */
export interface Context {
  readonly target: SqlDatabase.Target
  readonly timeout: Duration.Duration
  readonly keys: SecretBox.Keyring
}

/** The store's error for a row it cannot read, naming the instance and what is wrong, never a value. */
export const unreadable = (workspace: string, id: string, what: string) =>
  WebSearchError.unavailable(
    "store_unavailable",
    `provider instance "${id}" of workspace "${workspace}" in the provider store could not be read: ${what}`
  )

/** A whole number from a driver's integer (PostgreSQL's BIGINT arrives as text); NaN when it is not one. */
export const whole = (value: number | string | bigint): number => {
  const n = Number(value)
  return Number.isSafeInteger(n) ? n : Number.NaN
}

// Why a row does not hold a readable instance, in words that name no value: a schema error would quote the
// decrypted text, so none is passed on.
const openFields = (keys: SecretBox.Keyring, row: Row): Either.Either<ProviderInstance.ProviderInstance, string> =>
  Either.gen(function* () {
    const place = (field: string): SecretBox.Place => ({ workspace: row.workspace, id: row.id, field })
    const opened = (field: "settings" | "credentials") =>
      Either.mapLeft(
        SecretBox.open(keys, place(field), row[field]),
        (failure) => `its ${field} ${SecretBox.describeFailure(failure)}`
      )
    const settings = yield* Either.flatMap(opened("settings"), (text) =>
      Either.mapLeft(decodeSettings(text), () => "its settings do not decode")
    )
    const credentials = yield* Either.flatMap(opened("credentials"), (text) =>
      Either.mapLeft(decodeCredentials(text), () => "its credentials do not decode")
    )
    const name = yield* nameOf(row)
    const header = yield* headerOf(row)
    return { ...header, ...(name === undefined ? {} : { name }), settings, credentials }
  })

const nameOf = (row: Row): Either.Either<string | undefined, string> =>
  row.name === null ? Either.right(undefined) : Either.mapLeft(decodeName(row.name), () => "its name does not decode")

// What a row says of its instance besides the sealed fields: ids, revision and times.
const headerOf = (row: Row) => {
  const revision = whole(row.revision)
  const createdAt = whole(row.created_at)
  const updatedAt = whole(row.updated_at)
  if (!isInstanceId(row.id) || !isInstanceId(row.type) || !(revision >= 1) || Number.isNaN(createdAt + updatedAt)) {
    return Either.left("its row does not hold an instance")
  }
  return Either.right({
    workspace: row.workspace,
    id: row.id,
    type: row.type,
    revision,
    createdAt: DateTime.unsafeMake(createdAt),
    updatedAt: DateTime.unsafeMake(updatedAt)
  })
}

/** Opens a row, or fails naming the instance and what went wrong, never a value. */
export const openRow = (
  keys: SecretBox.Keyring,
  row: Row
): Either.Either<ProviderInstance.ProviderInstance, WebSearchError.Unavailable> =>
  Either.mapLeft(openFields(keys, row), (what) => unreadable(row.workspace, row.id, what))

/**
 * A row as the store hands it out: opened, or, when its settings or credentials do not open (a key the store was
 * not given, a damaged value), the instance marked `unreadable` with empty settings and no credentials, so that only
 * the calls naming it fail, never its workspace. A row that does not even hold an instance's ids (no store writes
 * one) fails, naming it.
 */
export const readRow = (
  keys: SecretBox.Keyring,
  row: Row
): Either.Either<ProviderInstance.ProviderInstance, WebSearchError.Unavailable> =>
  Either.orElse(openFields(keys, row), (what) =>
    Either.match(headerOf(row), {
      onLeft: (problem) => Either.left(unreadable(row.workspace, row.id, problem)),
      onRight: (header) => {
        const name = Either.getOrUndefined(nameOf(row))
        return Either.right({
          ...header,
          ...(name === undefined ? {} : { name }),
          settings: {},
          credentials: {},
          unreadable: what
        })
      }
    })
  )

const sealed = <A>(
  keys: SecretBox.Keyring,
  workspace: string,
  id: string,
  field: "settings" | "credentials",
  encode: (a: A) => Either.Either<string, unknown>,
  value: A
): Either.Either<string, WebSearchError.Unavailable> =>
  Either.match(encode(value), {
    onLeft: () => Either.left(unreadable(workspace, id, `its ${field} could not be encoded`)),
    onRight: (text) => Either.right(SecretBox.seal(keys, { workspace, id, field }, text))
  })

/** Seals an instance's settings for its row. */
export const sealSettings = (
  keys: SecretBox.Keyring,
  workspace: string,
  id: string,
  settings: ProviderInstance.InstanceSettings
) => sealed(keys, workspace, id, "settings", encodeSettings, settings)

/** Seals an instance's credentials for its row. */
export const sealCredentials = (
  keys: SecretBox.Keyring,
  workspace: string,
  id: string,
  credentials: ProviderInstance.InstanceCredentials
) => sealed(keys, workspace, id, "credentials", encodeCredentials, credentials)
