/**
 * The provider store's schema, as @effect/sql migrations: numbered, applied once each in order, recorded in
 * `websearch_provider_migrations`, the same statements for SQLite and PostgreSQL. A store opens a database
 * with an older schema by applying the migrations it lacks; one that has a newer schema than this code knows
 * is refused, so an older replica never writes rows it cannot read.
 *
 * Schema 1:
 * - `websearch_provider_workspaces (workspace, revision)`: one counter per workspace, bumped by triggers on
 *   the instances table, so in the same transaction as each change (of any writer, even a hand-written
 *   statement), and every replica's `revision(workspace)` sees every other's changes. An update that keeps an
 *   instance's revision (a key rotation re-encrypting it) does not bump it: readers' caches stay valid.
 * - `websearch_provider_instances (workspace, id, type, name, settings, credentials, revision, created_at,
 *   updated_at)`: `settings` and `credentials` are JSON sealed with AES-256-GCM (see secretBox), the times are
 *   epoch milliseconds.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"

/** The migrations table's name. */
export const table = "websearch_provider_migrations"

const initial = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE websearch_provider_workspaces (
    workspace TEXT PRIMARY KEY NOT NULL,
    revision BIGINT NOT NULL
  )`
  yield* sql`CREATE TABLE websearch_provider_instances (
    workspace TEXT NOT NULL,
    id TEXT NOT NULL,
    type TEXT NOT NULL,
    name TEXT,
    settings TEXT NOT NULL,
    credentials TEXT NOT NULL,
    revision BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (workspace, id)
  )`
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.all(
        [
          sql.unsafe(`CREATE FUNCTION websearch_provider_bump() RETURNS trigger LANGUAGE plpgsql AS $$
          DECLARE changed_workspace text;
          BEGIN
            IF TG_OP = 'DELETE' THEN changed_workspace := OLD.workspace; ELSE changed_workspace := NEW.workspace; END IF;
            INSERT INTO websearch_provider_workspaces AS counter (workspace, revision) VALUES (changed_workspace, 1)
              ON CONFLICT (workspace) DO UPDATE SET revision = counter.revision + 1;
            RETURN NULL;
          END $$`),
          sql.unsafe(`CREATE TRIGGER websearch_provider_instances_changed
          AFTER INSERT OR DELETE ON websearch_provider_instances
          FOR EACH ROW EXECUTE FUNCTION websearch_provider_bump()`),
          sql.unsafe(`CREATE TRIGGER websearch_provider_instances_updated
          AFTER UPDATE ON websearch_provider_instances
          FOR EACH ROW WHEN (OLD.revision IS DISTINCT FROM NEW.revision) EXECUTE FUNCTION websearch_provider_bump()`)
        ],
        { discard: true }
      ),
    orElse: () =>
      Effect.all(
        [
          ["inserted", "AFTER INSERT", "NEW"],
          ["updated", "AFTER UPDATE", "NEW"],
          ["deleted", "AFTER DELETE", "OLD"]
        ].map(([name, event, row]) =>
          sql.unsafe(`CREATE TRIGGER websearch_provider_instances_${name} ${event} ON websearch_provider_instances
            ${name === "updated" ? "WHEN NEW.revision IS NOT OLD.revision" : ""}
            BEGIN
              INSERT INTO websearch_provider_workspaces (workspace, revision) VALUES (${row}.workspace, 1)
                ON CONFLICT (workspace) DO UPDATE SET revision = revision + 1;
            END`)
        ),
        { discard: true }
      )
  })
})

/** Every migration, by `<id>_<name>`. */
export const migrations: Record<string, Effect.Effect<void, SqlError, SqlClient.SqlClient>> = {
  "1_provider_instances": initial
}

/** The newest schema this code knows. */
export const latest = 1

const run = Migrator.make({})

/** Applies the migrations the database lacks; the ids applied. */
export const migrate: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> = run({ loader: Migrator.fromRecord(migrations), table })

/** The newest migration the database has recorded (0 for none). */
export const recorded: Effect.Effect<number, SqlError, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly latest: number | string | null }>`
    SELECT MAX(migration_id) AS latest FROM ${sql(table)}
  `
  return Number(rows[0]?.latest ?? 0)
})
