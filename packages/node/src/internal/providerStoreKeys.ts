/**
 * The SQL provider store's keys: the check at start that the store's values are under keys it was given, and the
 * rotation that re-seals every value under the current key.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { type Context, openRow, type Row, sealCredentials, sealSettings, whole } from "./providerStoreRows.js"
import * as SecretBox from "./secretBox.js"
import * as SqlDatabase from "./sqlDatabase.js"

/** How the key options are named in messages: `WEBSEARCH_PROVIDER_STORE_KEY`, or `encryptionKey` in code. */
export interface KeyNames {
  readonly key: string
  readonly previousKeys: string
}

/**
 * Checks the keys against the store before it serves: every value is sealed under a key whose id it names (a hash
 * of the key), and a store holding values under a key that is neither the current one nor a previous one was
 * written under another key. Starting anyway would fail every instance sealed under it, so the store refuses to
 * open, saying which key ids it holds and how many instances use each (never a key). An empty store, or values
 * that are not this store's at all, are no reason to refuse (a damaged row fails only its own instance).
 */
export const checkKeys = (
  context: Context,
  names: KeyNames
): Effect.Effect<void, WebSearchError.Unavailable | SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The head's length as a literal of the statement: a parameter's type is a guess on PostgreSQL.
    const length = sql.literal(String(SecretBox.headLength))
    const heads = yield* sql<{ readonly head: string | null }>`SELECT DISTINCT head FROM (
        SELECT substr(settings, 1, ${length}) AS head FROM websearch_provider_instances
        UNION SELECT substr(credentials, 1, ${length}) AS head FROM websearch_provider_instances
      ) AS heads`
    const unknown: Array<{ readonly id: string; readonly head: string }> = []
    for (const { head } of heads) {
      const id = head === null ? undefined : SecretBox.keyIdOfHead(head)
      if (head !== null && id !== undefined && !context.keys.byId.has(id)) unknown.push({ id, head })
    }
    if (unknown.length === 0) return
    const described: Array<string> = []
    for (const { head, id } of unknown) {
      const rows = yield* sql<{ readonly count: number | string | bigint }>`SELECT COUNT(*) AS count
        FROM websearch_provider_instances WHERE substr(settings, 1, ${length}) = ${head}
          OR substr(credentials, 1, ${length}) = ${head}`
      described.push(`key ${id} (${whole(rows[0]?.count ?? 0)} instance(s))`)
    }
    const previous = [...context.keys.byId.keys()].filter((id) => id !== context.keys.current.id)
    return yield* Effect.fail(
      WebSearchError.unavailable(
        "invalid_config",
        `the provider store at ${context.target.display} holds values encrypted under ${described.join(", ")}, ` +
          `which is neither ${names.key} (key ${context.keys.current.id}) nor one of ${names.previousKeys} ` +
          `(${previous.length === 0 ? "none given" : `keys ${previous.join(", ")}`}): start with the key the store ` +
          `was written under; while a key rotation is under way, give the other key in ${names.previousKeys}`
      )
    )
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
