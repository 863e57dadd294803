/**
 * The SQL provider store's operations on an open @effect/sql client: instances as rows of
 * `websearch_provider_instances` with their settings and credentials sealed (secretBox). Every change is one
 * statement, and the schema's triggers bump the workspace's counter row in its transaction, so
 * `revision(workspace)` is one indexed read that sees every replica's changes. Updates are conditional
 * (`WHERE revision = $n`), so of two updates at the same revision exactly one wins, on any number of replicas.
 * (One statement per change also keeps SQLite's single writer free between statements: libsql runs statements
 * synchronously, and a transaction held across awaits would make another connection's writer wait.)
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SecretBox from "./secretBox.js"
import * as SqlDatabase from "./sqlDatabase.js"

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

const unreadable = (workspace: string, id: string, what: string) =>
  WebSearchError.unavailable(
    "store_unavailable",
    `provider instance "${id}" of workspace "${workspace}" in the provider store could not be read: ${what}`
  )

const whole = (value: number | string | bigint): number => {
  const n = Number(value)
  return Number.isSafeInteger(n) ? n : Number.NaN
}

/**
 * Opens a row. Every failure names the instance and what went wrong, never a value: a schema error would quote
 * the decrypted text, so none is passed on.
 */
export const openRow = (
  keys: SecretBox.Keyring,
  row: Row
): Either.Either<ProviderInstance.ProviderInstance, WebSearchError.Unavailable> =>
  Either.gen(function* () {
    const place = (field: string): SecretBox.Place => ({ workspace: row.workspace, id: row.id, field })
    const opened = (field: "settings" | "credentials") =>
      Either.mapLeft(SecretBox.open(keys, place(field), row[field]), (failure) =>
        unreadable(row.workspace, row.id, `its ${field} ${SecretBox.describeFailure(failure)}`)
      )
    const settings = yield* Either.flatMap(opened("settings"), (text) =>
      Either.mapLeft(decodeSettings(text), () => unreadable(row.workspace, row.id, "its settings do not decode"))
    )
    const credentials = yield* Either.flatMap(opened("credentials"), (text) =>
      Either.mapLeft(decodeCredentials(text), () => unreadable(row.workspace, row.id, "its credentials do not decode"))
    )
    const name = yield* row.name === null
      ? Either.right(undefined)
      : Either.mapLeft(decodeName(row.name), () => unreadable(row.workspace, row.id, "its name does not decode"))
    const revision = whole(row.revision)
    const createdAt = whole(row.created_at)
    const updatedAt = whole(row.updated_at)
    if (!isInstanceId(row.id) || !isInstanceId(row.type) || !(revision >= 1) || Number.isNaN(createdAt + updatedAt)) {
      return yield* Either.left(unreadable(row.workspace, row.id, "its row does not hold an instance"))
    }
    return {
      workspace: row.workspace,
      id: row.id,
      type: row.type,
      ...(name === undefined ? {} : { name }),
      settings,
      credentials,
      revision,
      createdAt: DateTime.unsafeMake(createdAt),
      updatedAt: DateTime.unsafeMake(updatedAt)
    }
  })

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

/** The store's operations. */
export const make = (
  context: Context
): Effect.Effect<ProviderStore.ProviderStore.Service, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { keys, target, timeout } = context
    const run = <A, E extends ProviderStore.StoreError | SqlError>(effect: Effect.Effect<A, E>) =>
      SqlDatabase.bounded(target, timeout, effect)
    const open = (row: Row) => Either.match(openRow(keys, row), { onLeft: Effect.fail, onRight: Effect.succeed })
    const fromEither = <A>(either: Either.Either<A, WebSearchError.Unavailable>) =>
      Either.match(either, { onLeft: Effect.fail, onRight: Effect.succeed })

    const currentRevision = (workspace: string, id: string) =>
      Effect.map(
        sql<{ readonly revision: number | string }>`SELECT revision FROM websearch_provider_instances
          WHERE workspace = ${workspace} AND id = ${id}`,
        (rows) => Option.map(Option.fromNullable(rows[0]), (row) => whole(row.revision))
      )
    const changed = (workspace: string, id: string, rows: ReadonlyArray<Row>) =>
      rows[0] === undefined ? Effect.fail(ProviderStore.notFound(workspace, id)) : open(rows[0])

    return {
      list: (workspace) =>
        run(
          Effect.flatMap(sql<Row>`SELECT * FROM websearch_provider_instances WHERE workspace = ${workspace}`, (rows) =>
            Effect.map(
              Effect.forEach(rows, open),
              // Sorted here, not by ORDER BY: a PostgreSQL collation may order '-' and '_' unlike the other stores.
              (instances) => instances.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            )
          )
        ),
      get: (workspace, id) =>
        run(
          Effect.flatMap(
            sql<Row>`SELECT * FROM websearch_provider_instances WHERE workspace = ${workspace} AND id = ${id}`,
            (rows) => (rows[0] === undefined ? Effect.succeedNone : Effect.asSome(open(rows[0])))
          )
        ),
      create: (workspace, input) =>
        Effect.flatMap(Clock.currentTimeMillis, (at) =>
          run(
            Effect.gen(function* () {
              const settings = yield* fromEither(sealSettings(keys, workspace, input.id, input.settings))
              const credentials = yield* fromEither(sealCredentials(keys, workspace, input.id, input.credentials))
              const rows = yield* sql<Row>`INSERT INTO websearch_provider_instances
                  (workspace, id, type, name, settings, credentials, revision, created_at, updated_at)
                VALUES (${workspace}, ${input.id}, ${input.type}, ${nameColumn(input.name)}, ${settings}, ${credentials},
                  1, ${at}, ${at})
                ON CONFLICT (workspace, id) DO NOTHING
                RETURNING *`
              if (rows[0] === undefined) return yield* Effect.fail(ProviderStore.exists(workspace, input.id))
              return yield* open(rows[0])
            })
          )
        ),
      update: (workspace, id, input) =>
        Effect.flatMap(Clock.currentTimeMillis, (at) =>
          run(
            Effect.gen(function* () {
              const settings =
                input.settings === undefined
                  ? undefined
                  : yield* fromEither(sealSettings(keys, workspace, id, input.settings))
              const rows = yield* sql<Row>`UPDATE websearch_provider_instances SET
                  name = ${input.name === undefined ? sql`name` : sql`${nameColumn(input.name)}`},
                  settings = ${settings === undefined ? sql`settings` : sql`${settings}`},
                  revision = revision + 1,
                  updated_at = ${at}
                WHERE workspace = ${workspace} AND id = ${id}
                  ${input.revision === undefined ? sql`` : sql`AND revision = ${input.revision}`}
                RETURNING *`
              if (rows[0] === undefined && input.revision !== undefined) {
                const current = yield* currentRevision(workspace, id)
                if (Option.isSome(current)) {
                  return yield* Effect.fail(ProviderStore.staleRevision(id, input.revision, current.value))
                }
              }
              return yield* changed(workspace, id, rows)
            })
          )
        ),
      remove: (workspace, id) =>
        run(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly id: string }>`DELETE FROM websearch_provider_instances
              WHERE workspace = ${workspace} AND id = ${id} RETURNING id`
            if (rows[0] === undefined) return yield* Effect.fail(ProviderStore.notFound(workspace, id))
          })
        ),
      setCredentials: (workspace, id, credentials) =>
        Effect.flatMap(Clock.currentTimeMillis, (at) =>
          run(
            Effect.gen(function* () {
              const value = yield* fromEither(sealCredentials(keys, workspace, id, credentials))
              const rows = yield* sql<Row>`UPDATE websearch_provider_instances SET
                  credentials = ${value}, revision = revision + 1, updated_at = ${at}
                WHERE workspace = ${workspace} AND id = ${id}
                RETURNING *`
              return yield* changed(workspace, id, rows)
            })
          )
        ),
      revision: (workspace) =>
        run(
          Effect.map(
            sql<{ readonly revision: number | string }>`SELECT revision FROM websearch_provider_workspaces
              WHERE workspace = ${workspace}`,
            (rows) => (rows[0] === undefined ? 0 : whole(rows[0].revision))
          )
        )
    }
  })

/**
 * Re-seals under the current key every value sealed under another one; the number of instances re-sealed. Each
 * row is rewritten only if it still holds what was read (a concurrent change wins and is already under the
 * current key). Revisions do not move: the instances are the same.
 */
export const rotate = (context: Context): Effect.Effect<number, WebSearchError.Unavailable, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { target, timeout } = context
    let rotated = 0
    // In pages in key order, so memory stays one page whatever the store holds.
    let after: { readonly workspace: string; readonly id: string } | undefined = undefined
    while (true) {
      const from: { readonly workspace: string; readonly id: string } | undefined = after
      const rows: ReadonlyArray<Row> = yield* SqlDatabase.bounded(
        target,
        timeout,
        sql<Row>`SELECT * FROM websearch_provider_instances
          ${from === undefined ? sql`` : sql`WHERE workspace > ${from.workspace} OR (workspace = ${from.workspace} AND id > ${from.id})`}
          ORDER BY workspace, id LIMIT ${rotatePage}`
      )
      const last = rows[rows.length - 1]
      if (last === undefined) break
      after = { workspace: last.workspace, id: last.id }
      rotated += yield* rotateRows(context, sql, rows)
    }
    return rotated
  })

const rotatePage = 100

const rotateRows = (context: Context, sql: SqlClient.SqlClient, rows: ReadonlyArray<Row>) =>
  Effect.gen(function* () {
    const { keys, target, timeout } = context
    const current = keys.current.id
    let rotated = 0
    for (const row of rows) {
      if (SecretBox.sealedKeyId(row.settings) === current && SecretBox.sealedKeyId(row.credentials) === current) {
        continue
      }
      const instance = yield* Either.match(openRow(keys, row), { onLeft: Effect.fail, onRight: Effect.succeed })
      const settings = yield* Either.match(sealSettings(keys, row.workspace, row.id, instance.settings), {
        onLeft: Effect.fail,
        onRight: Effect.succeed
      })
      const credentials = yield* Either.match(sealCredentials(keys, row.workspace, row.id, instance.credentials), {
        onLeft: Effect.fail,
        onRight: Effect.succeed
      })
      const written = yield* SqlDatabase.bounded(
        target,
        timeout,
        sql<{ readonly id: string }>`UPDATE websearch_provider_instances SET settings = ${settings},
            credentials = ${credentials}
          WHERE workspace = ${row.workspace} AND id = ${row.id} AND settings = ${row.settings}
            AND credentials = ${row.credentials}
          RETURNING id`
      )
      if (written.length > 0) rotated += 1
    }
    return rotated
  })
