import * as LibsqlClient from "@effect/sql-libsql/LibsqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import { mkdirSync, readdirSync, statSync } from "node:fs"
import * as net from "node:net"
import { join } from "node:path"
import * as TempDir from "../../../test-support/tempDir.js"
import * as ProviderStoreSql from "../src/ProviderStoreSql.js"
import * as Postgres from "./support/postgres.js"
import * as Conformance from "./support/providerStoreConformance.js"
import * as Rules from "./support/providerStoreRules.js"

// One PostgreSQL server for the file, started by the first test that needs it; every test gets its own database.
const serverScope = Effect.runSync(Scope.make())
let starting: Promise<Postgres.Postgres> | undefined
const server: Effect.Effect<Postgres.Postgres> = Effect.promise(
  () => (starting ??= Effect.runPromise(Scope.extend(Postgres.start(), serverScope)))
)
afterAll(() => Effect.runPromise(Scope.close(serverScope, Exit.void)))

const tables = ["websearch_provider_instances", "websearch_provider_migrations", "websearch_provider_workspaces"]

// The raw view of a database through a client of its own, as an operator's SQL shell would see it.
const rawOf = (
  client: Layer.Layer<SqlClient.SqlClient, unknown>,
  url: Redacted.Redacted<string>,
  listTables: string
) => {
  const query = (statement: string): Effect.Effect<ReadonlyArray<Record<string, unknown>>> =>
    Effect.scoped(
      Effect.gen(function* () {
        const sql = Context.get(yield* Layer.build(client), SqlClient.SqlClient)
        const rows = yield* sql.unsafe<Record<string, unknown>>(statement)
        return rows.map((row) => ({ ...row }))
      })
    ).pipe(Effect.orDie)
  const raw: Conformance.Raw = {
    tables: Effect.map(query(listTables), (rows) => rows.map((row) => String(row.name)).sort()),
    execute: query,
    cells: Effect.gen(function* () {
      const cells: Array<string> = []
      for (const table of tables) {
        for (const row of yield* query(`SELECT * FROM ${table}`)) {
          for (const value of Object.values(row)) cells.push(String(value))
        }
      }
      return cells
    }),
    rotate: (keys) => ProviderStoreSql.rotateKey({ url, ...keys })
  }
  return raw
}

const memory: Conformance.Subject = {
  name: "memory",
  database: Effect.map(ProviderStore.memory, (store) => ({ open: () => Effect.succeed(store) }))
}

let databases = 0

const sqlite: Conformance.Subject = {
  name: "SQLite",
  database: Effect.gen(function* () {
    const dir = yield* TempDir.scoped("websearch-sqlite-")
    // The store makes a missing directory itself (the default-path test shows it); here the raw client may
    // open the file first.
    mkdirSync(join(dir, "nested"))
    const path = join(dir, "nested", "providers.db")
    const url = Redacted.make(path)
    return {
      open: (keys) => ProviderStoreSql.make({ url: path, ...(keys ?? { encryptionKey: Conformance.key1 }) }),
      raw: rawOf(
        Layer.suspend(() => LibsqlClient.layer({ url: `file:${path}` })),
        url,
        "SELECT name FROM sqlite_master WHERE type = 'table'"
      )
    }
  })
}

const postgres: Conformance.Subject = {
  name: "PostgreSQL",
  database: Effect.gen(function* () {
    const pg = yield* server
    const name = `store_${process.pid}_${++databases}`
    yield* Effect.orDie(
      Effect.scoped(
        Effect.flatMap(Layer.build(PgClient.layer({ url: pg.url("postgres") })), (context) =>
          Effect.provide(
            Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${name}`)),
            context
          )
        )
      )
    )
    const url = pg.url(name)
    return {
      open: (keys) => ProviderStoreSql.make({ url, ...(keys ?? { encryptionKey: Conformance.key1 }) }),
      raw: rawOf(
        PgClient.layer({ url }),
        url,
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'"
      )
    }
  })
}

Conformance.conformance(memory)
Rules.rules(memory)
Conformance.conformance(sqlite)
Conformance.sqlConformance(sqlite)
Rules.rules(sqlite)
Conformance.conformance(postgres)
Conformance.sqlConformance(postgres)
Rules.rules(postgres)

describe("ProviderStoreSql options and configuration", () => {
  const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromJson(env))

  it.effect("a key that is not the base64 of 32 bytes fails invalid_config naming the option, not echoing it", () =>
    Effect.gen(function* () {
      for (const bad of ["too-short-secret-value", Buffer.alloc(31, 7).toString("base64"), `${"A".repeat(43)}=!`]) {
        const error = yield* Effect.flip(
          Effect.scoped(ProviderStoreSql.make({ url: "/nonexistent/x.db", encryptionKey: Redacted.make(bad) }))
        )
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toMatch(/^encryptionKey must be the base64 of exactly 32 random bytes/)
        expect(error.message).not.toContain(bad)
      }
      const previous = yield* Effect.flip(
        Effect.scoped(
          ProviderStoreSql.make({
            url: "/nonexistent/x.db",
            encryptionKey: Conformance.key1,
            previousKeys: [Conformance.key2, Redacted.make("old-but-bad")]
          })
        )
      )
      expect(previous.message).toMatch(/^previousKeys \(item 2\) must be/)
    })
  )

  it.effect(
    "the environment: a missing or bad key names its variable; an unknown URL scheme names the store variable",
    () =>
      Effect.gen(function* () {
        const missing = yield* Effect.flip(ProviderStoreSql.optionsConfig().pipe(withEnv({})))
        expect([missing.reason, missing.message.split(" ")[0]]).toEqual([
          "invalid_config",
          "WEBSEARCH_PROVIDER_STORE_KEY"
        ])
        const bad = yield* Effect.flip(
          ProviderStoreSql.optionsConfig().pipe(withEnv({ WEBSEARCH_PROVIDER_STORE_KEY: "secret-but-short" }))
        )
        expect(bad.message).toMatch(/^WEBSEARCH_PROVIDER_STORE_KEY must be the base64/)
        expect(bad.message).not.toContain("secret-but-short")
        const previous = yield* Effect.flip(
          ProviderStoreSql.optionsConfig().pipe(
            withEnv({
              WEBSEARCH_PROVIDER_STORE_KEY: Redacted.value(Conformance.key1),
              WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS: `${Redacted.value(Conformance.key2)}, nope`
            })
          )
        )
        expect(previous.message).toMatch(/^WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS \(item 2\) must be/)
        const scheme = yield* Effect.flip(
          ProviderStoreSql.optionsConfig().pipe(
            withEnv({
              WEBSEARCH_PROVIDER_STORE: "mysql://root:hunter2@db/x",
              WEBSEARCH_PROVIDER_STORE_KEY: Redacted.value(Conformance.key1)
            })
          )
        )
        expect(scheme.message).toMatch(/^WEBSEARCH_PROVIDER_STORE has the scheme "mysql:"/)
        expect(scheme.message).not.toContain("hunter2")
      })
  )

  it.scoped("layerConfig takes the application's own Config: its variable names reach the store", () =>
    Effect.gen(function* () {
      const home = yield* TempDir.scoped("websearch-own-config-")
      const own = Config.all({
        url: Config.string("APP_STORE_FILE"),
        encryptionKey: Config.redacted("APP_STORE_KEY"),
        timeout: Config.succeed(3000)
      })
      const env = { APP_STORE_FILE: join(home, "own.db"), APP_STORE_KEY: Redacted.value(Conformance.key1) }
      const options = yield* ProviderStoreSql.optionsConfig(own).pipe(withEnv(env))
      expect(options.url).toBe(join(home, "own.db"))
      expect(Redacted.value(options.encryptionKey)).toBe(Redacted.value(Conformance.key1))
      expect(options.timeout).toBe(3000)
      const store = yield* Layer.build(ProviderStoreSql.layerConfig(own)).pipe(withEnv(env))
      yield* Effect.provide(
        Effect.flatMap(ProviderStore.ProviderStore, (s) =>
          s.create("default", { id: "x", type: "bing", settings: {}, credentials: {} })
        ),
        store
      )
      expect(statSync(join(home, "own.db")).isFile()).toBe(true)
      // The application's Config missing a variable is refused as invalid_config, naming it.
      const missing = yield* Effect.flip(ProviderStoreSql.optionsConfig(own).pipe(withEnv({})))
      expect(missing.reason).toBe("invalid_config")
      expect(missing.message).toContain("APP_STORE_FILE")
    })
  )

  it.scoped(
    "by default the store is websearch/websearch-providers.db under XDG_DATA_HOME, in a private directory",
    () =>
      Effect.gen(function* () {
        const home = yield* TempDir.scoped("websearch-xdg-")
        const env = { XDG_DATA_HOME: home, WEBSEARCH_PROVIDER_STORE_KEY: Redacted.value(Conformance.key1) }
        const options = yield* ProviderStoreSql.optionsConfig().pipe(withEnv(env))
        expect(options.url).toBe(join(home, "websearch", "websearch-providers.db"))
        const store = yield* Layer.build(ProviderStoreSql.layerConfig()).pipe(withEnv(env))
        yield* Effect.provide(
          Effect.flatMap(ProviderStore.ProviderStore, (s) =>
            s.create("default", { id: "x", type: "bing", settings: {}, credentials: {} })
          ),
          store
        )
        expect(statSync(join(home, "websearch")).mode & 0o777).toBe(0o700)
        expect(statSync(join(home, "websearch", "websearch-providers.db")).isFile()).toBe(true)
      })
  )

  it.scoped("the SQLite file, its write-ahead log and shared-memory file are readable by this user only", () =>
    Effect.gen(function* () {
      const dir = yield* TempDir.scoped("websearch-mode-")
      const path = join(dir, "providers.db")
      // A permissive umask, as a shell or a container may have: the files are private all the same.
      const umask = yield* Effect.acquireRelease(
        Effect.sync(() => process.umask(0o002)),
        (previous) => Effect.sync(() => process.umask(previous))
      )
      expect(umask).toBeTypeOf("number")
      const store = yield* ProviderStoreSql.make({ url: path, encryptionKey: Conformance.key1 })
      yield* store.create("acme", { id: "x", type: "bing", settings: {}, credentials: {} })
      const files = readdirSync(dir).sort()
      expect(files).toEqual(["providers.db", "providers.db-shm", "providers.db-wal"])
      for (const file of files)
        expect({ file, mode: statSync(join(dir, file)).mode & 0o777 }).toEqual({ file, mode: 0o600 })
    })
  )

  it.scoped("a PostgreSQL server that accepts and never answers fails store_unavailable within the timeout", () =>
    Effect.gen(function* () {
      const sockets: Array<net.Socket> = []
      const silent = yield* Effect.acquireRelease(
        Effect.async<net.Server>((resume) => {
          const s = net.createServer((socket) => void sockets.push(socket))
          s.listen(0, "127.0.0.1", () => resume(Effect.succeed(s)))
        }),
        (s) => Effect.sync(() => (sockets.forEach((socket) => socket.destroy()), s.close()))
      )
      const port = (silent.address() as net.AddressInfo).port
      const url = Redacted.make(`postgres://websearch:pg-hung-password@127.0.0.1:${port}/x`)
      const error = yield* Effect.flip(
        ProviderStoreSql.make({ url, encryptionKey: Conformance.key1, timeout: "300 millis" })
      )
      expect([error._tag, error.reason]).toEqual(["Unavailable", "store_unavailable"])
      expect(error.message).toContain(`postgres://websearch:***@127.0.0.1:${port}/x`)
      expect(error.message).not.toContain("pg-hung-password")
    })
  )

  it.effect("generateKey gives a key the store takes, different each time", () =>
    Effect.gen(function* () {
      const keys = new Set(Array.from({ length: 20 }, () => Redacted.value(ProviderStoreSql.generateKey())))
      expect(keys.size).toBe(20)
      for (const key of keys) expect(Buffer.from(key, "base64").length).toBe(32)
    })
  )
})
