/**
 * The SQL provider store's operations on an open @effect/sql client: instances as rows of
 * `websearch_provider_instances` with their settings and credentials sealed (`providerStoreRows`). Every change is
 * one statement, and the schema's triggers bump the workspace's counter row in its transaction, so
 * `revision(workspace)` is one indexed read that sees every replica's changes. Updates are conditional
 * (`WHERE revision = $n`), so of two updates at the same revision exactly one wins, on any number of replicas.
 * (One statement per change also keeps SQLite's single writer free between statements: libsql runs statements
 * synchronously, and a transaction held across awaits would make another connection's writer wait.)
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as ProviderInstance from "@websearch/core/ProviderInstance"
import type * as ProviderStore from "@websearch/core/ProviderStore"
import * as ProviderStoreRules from "@websearch/core/internal/providerStoreRules"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import {
  type Context,
  nameColumn,
  readRow,
  type Row,
  sealCredentials,
  sealSettings,
  whole
} from "./providerStoreRows.js"
import * as SqlDatabase from "./sqlDatabase.js"

/** The store's operations. */
export const make = (
  context: Context
): Effect.Effect<ProviderStore.ProviderStore.Service, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { keys, target, timeout } = context
    const run = <A, E extends ProviderStore.StoreError | SqlError>(effect: Effect.Effect<A, E>) =>
      SqlDatabase.bounded(target, timeout, effect)
    // An unreadable instance is said once per read, for the operator (the key id at most, never a value).
    const open = (row: Row) =>
      Either.match(readRow(keys, row), {
        onLeft: Effect.fail,
        onRight: (instance) =>
          instance.unreadable === undefined
            ? Effect.succeed(instance)
            : Effect.as(
                Effect.logWarning(
                  `provider instance "${instance.id}" of workspace "${instance.workspace}" could not be read: ` +
                    `${instance.unreadable}; calls naming it fail until it is written again or the store gets its key`
                ),
                instance
              )
      })
    const fromEither = <A, E>(either: Either.Either<A, E>) =>
      Either.match(either, { onLeft: (error: E) => Effect.fail(error), onRight: (a: A) => Effect.succeed(a) })

    const currentRevision = (workspace: string, id: string) =>
      Effect.map(
        sql<{ readonly revision: number | string }>`SELECT revision FROM websearch_provider_instances
          WHERE workspace = ${workspace} AND id = ${id}`,
        (rows) => Option.map(Option.fromNullable(rows[0]), (row) => whole(row.revision))
      )
    const changed = (workspace: string, id: string, rows: ReadonlyArray<Row>) =>
      rows[0] === undefined ? Effect.fail(ProviderStoreRules.notFound(workspace, id)) : open(rows[0])

    // A new name alone: one statement, the sealed fields untouched.
    const rename = (workspace: string, id: string, input: ProviderStore.UpdateInstance, at: number) =>
      Effect.gen(function* () {
        const rows = yield* sql<Row>`UPDATE websearch_provider_instances SET
            name = ${input.name === undefined ? sql`name` : sql`${nameColumn(input.name)}`},
            revision = revision + 1,
            updated_at = ${at}
          WHERE workspace = ${workspace} AND id = ${id}
            ${input.revision === undefined ? sql`` : sql`AND revision = ${input.revision}`}
          RETURNING *`
        if (rows[0] === undefined && input.revision !== undefined) {
          const current = yield* currentRevision(workspace, id)
          if (Option.isSome(current)) {
            return yield* Effect.fail(ProviderStoreRules.staleRevision(id, input.revision, current.value))
          }
        }
        return yield* changed(workspace, id, rows)
      })

    // New settings or credentials: judged (`checkUpdate`) against the instance as read, and written only if it is
    // still at the revision read, so no change slips between the judgement and the write. Without a revision of the
    // caller's, a lost race is read again and judged again, a few times.
    const rewrite = (workspace: string, id: string, input: ProviderStore.UpdateInstance, at: number) => {
      const attempt = Effect.gen(function* () {
        const found = yield* sql<Row>`SELECT * FROM websearch_provider_instances
          WHERE workspace = ${workspace} AND id = ${id}`
        if (found[0] === undefined) return yield* Effect.fail(ProviderStoreRules.notFound(workspace, id))
        const current = yield* fromEither(readRow(keys, found[0]))
        if (input.revision !== undefined && input.revision !== current.revision) {
          return yield* Effect.fail(ProviderStoreRules.staleRevision(id, input.revision, current.revision))
        }
        yield* fromEither(ProviderStoreRules.checkSize(input))
        yield* fromEither(ProviderStoreRules.checkUpdate(current, input))
        const settings =
          input.settings === undefined
            ? undefined
            : yield* fromEither(sealSettings(keys, workspace, id, input.settings))
        const credentials =
          input.credentials === undefined
            ? undefined
            : yield* fromEither(sealCredentials(keys, workspace, id, input.credentials))
        const rows = yield* sql<Row>`UPDATE websearch_provider_instances SET
            name = ${input.name === undefined ? sql`name` : sql`${nameColumn(input.name)}`},
            settings = ${settings === undefined ? sql`settings` : sql`${settings}`},
            credentials = ${credentials === undefined ? sql`credentials` : sql`${credentials}`},
            revision = revision + 1,
            updated_at = ${at}
          WHERE workspace = ${workspace} AND id = ${id} AND revision = ${current.revision}
          RETURNING *`
        return Option.fromNullable(rows[0])
      })
      const loop = (
        left: number
      ): Effect.Effect<ProviderInstance.ProviderInstance, ProviderStore.StoreError | SqlError> =>
        Effect.flatMap(attempt, (written) =>
          Option.match(written, {
            onSome: open,
            onNone: () =>
              left > 1
                ? loop(left - 1)
                : input.revision !== undefined
                  ? Effect.flatMap(currentRevision(workspace, id), (now) =>
                      Effect.fail(
                        Option.match(now, {
                          onNone: () => ProviderStoreRules.notFound(workspace, id),
                          onSome: (revision) =>
                            ProviderStoreRules.staleRevision(id, input.revision ?? revision, revision)
                        })
                      )
                    )
                  : Effect.fail(
                      WebSearchError.requestFailed(
                        "conflict",
                        `provider instance "${id}" kept changing while it was being updated: read it again and retry`
                      )
                    )
          })
        )
      return loop(input.revision === undefined ? 5 : 1)
    }

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
      count: (workspace) =>
        run(
          Effect.map(
            sql<{ readonly count: number | string | bigint }>`SELECT COUNT(*) AS count FROM websearch_provider_instances
              WHERE workspace = ${workspace}`,
            (rows) => whole(rows[0]?.count ?? 0)
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
              yield* fromEither(ProviderStoreRules.checkSize(input))
              const settings = yield* fromEither(sealSettings(keys, workspace, input.id, input.settings))
              const credentials = yield* fromEither(sealCredentials(keys, workspace, input.id, input.credentials))
              const rows = yield* sql<Row>`INSERT INTO websearch_provider_instances
                  (workspace, id, type, name, settings, credentials, revision, created_at, updated_at)
                VALUES (${workspace}, ${input.id}, ${input.type}, ${nameColumn(input.name)}, ${settings}, ${credentials},
                  1, ${at}, ${at})
                ON CONFLICT (workspace, id) DO NOTHING
                RETURNING *`
              if (rows[0] === undefined) return yield* Effect.fail(ProviderStoreRules.exists(workspace, input.id))
              return yield* open(rows[0])
            })
          )
        ),
      update: (workspace, id, input) =>
        Effect.flatMap(Clock.currentTimeMillis, (at) =>
          run(
            input.settings === undefined && input.credentials === undefined
              ? rename(workspace, id, input, at)
              : rewrite(workspace, id, input, at)
          )
        ),
      remove: (workspace, id) =>
        run(
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly id: string }>`DELETE FROM websearch_provider_instances
              WHERE workspace = ${workspace} AND id = ${id} RETURNING id`
            if (rows[0] === undefined) return yield* Effect.fail(ProviderStoreRules.notFound(workspace, id))
          })
        ),
      setCredentials: (workspace, id, credentials) =>
        Effect.flatMap(Clock.currentTimeMillis, (at) =>
          run(
            Effect.gen(function* () {
              yield* fromEither(ProviderStoreRules.checkSize({ credentials }))
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
