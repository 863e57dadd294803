/**
 * The one conformance suite every provider store passes (core's in-memory store, SQLite, PostgreSQL): the
 * semantics of `ProviderStore.memory` (revisions from 1 growing by one per change, `revision(workspace)` moving
 * on any change in the workspace, not_found/conflict), workspace isolation, concurrent updates, changes seen
 * across two stores on one database; and for the SQL stores, what their tables hold: the schema created on an
 * empty database and re-opened, no secret in any column, key rotation, a wrong key, a ciphertext moved to
 * another row.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import type * as ProviderStore from "@websearch/core/ProviderStore"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"

type Service = ProviderStore.ProviderStore.Service

/** Keys a store is opened with (the SQL stores; the memory store ignores them). */
export interface Keys {
  readonly encryptionKey: Redacted.Redacted<string>
  readonly previousKeys?: ReadonlyArray<Redacted.Redacted<string>>
}

/** What a SQL store's database shows underneath the store. */
export interface Raw {
  /** Every cell of every table, as text. */
  readonly cells: Effect.Effect<ReadonlyArray<string>>
  /** The tables there are. */
  readonly tables: Effect.Effect<ReadonlyArray<string>>
  /** Runs a statement (`?` placeholders are not portable: give literal SQL). */
  readonly execute: (statement: string) => Effect.Effect<ReadonlyArray<Record<string, unknown>>>
  /** Re-encrypts under `keys.encryptionKey` (ProviderStoreSql.rotateKey on this database). */
  readonly rotate: (keys: Keys) => Effect.Effect<number, WebSearchError.Unavailable>
}

/** One database the suite opens stores on. */
export interface Database {
  /** Opens a store on the database, as another replica would. */
  readonly open: (keys?: Keys) => Effect.Effect<Service, WebSearchError.Unavailable, Scope.Scope>
  readonly raw?: Raw | undefined
}

export interface Subject {
  readonly name: string
  /** A new, empty database. */
  readonly database: Effect.Effect<Database, never, Scope.Scope>
}

const key = (byte: number) => Redacted.make(Buffer.alloc(32, byte).toString("base64"))
export const key1 = key(1)
export const key2 = key(2)
export const key3 = key(3)

const keyCanary = "sk-canary-4b1d"
const passwordCanary = "pw-canary-77e2"
const settingsCanary = "settings-canary-19af"

const bing = (id: string, extra?: Partial<ProviderStore.CreateInstance>): ProviderStore.CreateInstance => ({
  id,
  type: "bing",
  settings: {},
  credentials: {},
  ...extra
})

const secretOf = (instance: ProviderInstance.ProviderInstance) => ({
  apiKeys: instance.credentials.apiKeys?.map(Redacted.value),
  basicAuthPassword: Option.getOrUndefined(
    Option.map(Option.fromNullable(instance.credentials.basicAuthPassword), Redacted.value)
  )
})

const reasonOf = (error: WebSearchError.Unavailable | WebSearchError.RequestFailed) => [error._tag, error.reason]

const withCanaries: ProviderStore.CreateInstance = bing("canary", {
  name: "Canary Bing",
  settings: { proxyUrl: "http://proxy.example:3128", options: { market: "en-GB", note: settingsCanary } },
  credentials: { apiKeys: [Redacted.make(keyCanary)], basicAuthPassword: Redacted.make(passwordCanary) }
})

export const conformance = (subject: Subject): void => {
  describe(`${subject.name}: the ProviderStore contract`, () => {
    it.scoped("create, read, update, set credentials and remove, with revisions and not_found/conflict", () =>
      Effect.gen(function* () {
        const store = yield* (yield* subject.database).open({ encryptionKey: key1 })
        expect(yield* store.revision("acme")).toBe(0)
        expect(yield* store.list("acme")).toEqual([])
        const created = yield* store.create("acme", bing("prod-bing", { name: "Production Bing" }))
        expect([created.workspace, created.id, created.type, created.name, created.revision]).toEqual([
          "acme",
          "prod-bing",
          "bing",
          "Production Bing",
          1
        ])
        expect(yield* store.revision("acme")).toBe(1)
        expect(reasonOf(yield* Effect.flip(store.create("acme", bing("prod-bing"))))).toEqual([
          "RequestFailed",
          "conflict"
        ])
        expect(yield* store.revision("acme")).toBe(1)

        const updated = yield* store.update("acme", "prod-bing", { settings: { engines: ["web"] }, revision: 1 })
        expect([updated.revision, updated.name, updated.settings]).toEqual([2, "Production Bing", { engines: ["web"] }])
        const renamed = yield* store.update("acme", "prod-bing", { name: "Bing" })
        expect([renamed.revision, renamed.name, renamed.settings]).toEqual([3, "Bing", { engines: ["web"] }])
        const stale = yield* Effect.flip(store.update("acme", "prod-bing", { name: "late", revision: 2 }))
        expect(reasonOf(stale)).toEqual(["RequestFailed", "conflict"])
        expect(stale.message).toContain("is at revision 3, not 2")

        const keyed = yield* store.setCredentials("acme", "prod-bing", {
          apiKeys: [Redacted.make("k1"), Redacted.make("k2")],
          basicAuthPassword: Redacted.make("pw")
        })
        expect([keyed.revision, secretOf(keyed)]).toEqual([4, { apiKeys: ["k1", "k2"], basicAuthPassword: "pw" }])
        const read = yield* store.get("acme", "prod-bing")
        expect(Option.map(read, (i) => [i.revision, i.name, i.settings, secretOf(i)])).toEqual(
          Option.some([4, "Bing", { engines: ["web"] }, { apiKeys: ["k1", "k2"], basicAuthPassword: "pw" }])
        )
        expect(Option.map(read, ProviderInstance.view)).toEqual(
          Option.some(expect.objectContaining({ credentials: { apiKeys: 2, basicAuthPassword: true } }))
        )
        const cleared = yield* store.setCredentials("acme", "prod-bing", {})
        expect([cleared.revision, secretOf(cleared)]).toEqual([5, { apiKeys: undefined, basicAuthPassword: undefined }])
        expect(yield* store.revision("acme")).toBe(5)

        yield* store.create("acme", bing("a-first"))
        yield* store.create("acme", bing("z-last"))
        expect((yield* store.list("acme")).map((i) => i.id)).toEqual(["a-first", "prod-bing", "z-last"])
        yield* store.remove("acme", "prod-bing")
        expect(yield* store.get("acme", "prod-bing")).toEqual(Option.none())
        expect(yield* store.revision("acme")).toBe(8)
        for (const failure of [
          store.remove("acme", "prod-bing"),
          store.update("acme", "prod-bing", { name: "x" }),
          store.update("acme", "prod-bing", { name: "x", revision: 1 }),
          store.setCredentials("acme", "prod-bing", {})
        ]) {
          const error = yield* Effect.flip(failure)
          expect(reasonOf(error)).toEqual(["RequestFailed", "not_found"])
          expect(error.message).toBe('workspace "acme" has no provider instance "prod-bing"')
        }
        expect(yield* store.revision("acme")).toBe(8)
      })
    )

    it.scoped("workspaces are isolated: the same id in two workspaces, lists, revisions and removals apart", () =>
      Effect.gen(function* () {
        const store = yield* (yield* subject.database).open({ encryptionKey: key1 })
        yield* store.create("team-a", bing("search", { credentials: { apiKeys: [Redacted.make("a-key")] } }))
        yield* store.create("team-b", bing("search", { credentials: { apiKeys: [Redacted.make("b-key")] } }))
        yield* store.create("team-b", bing("other"))
        expect((yield* store.list("team-a")).map((i) => [i.workspace, i.id, secretOf(i).apiKeys])).toEqual([
          ["team-a", "search", ["a-key"]]
        ])
        expect((yield* store.list("team-b")).map((i) => i.id)).toEqual(["other", "search"])
        expect([yield* store.revision("team-a"), yield* store.revision("team-b")]).toEqual([1, 2])
        yield* store.remove("team-a", "search")
        expect(yield* store.list("team-a")).toEqual([])
        expect(Option.map(yield* store.get("team-b", "search"), (i) => secretOf(i).apiKeys)).toEqual(
          Option.some(["b-key"])
        )
        expect([yield* store.revision("team-a"), yield* store.revision("team-b")]).toEqual([2, 2])
        expect(reasonOf(yield* Effect.flip(store.remove("team-c", "other")))).toEqual(["RequestFailed", "not_found"])
      })
    )

    it.scoped("two updates at the same revision, on one store and on two: one wins, the other is a conflict", () =>
      Effect.gen(function* () {
        const database = yield* subject.database
        const one = yield* database.open({ encryptionKey: key1 })
        const two = yield* database.open({ encryptionKey: key1 })
        for (const [id, first, second] of [
          ["same-store", one, one],
          ["two-stores", one, two]
        ] as const) {
          const created = yield* first.create("acme", bing(id))
          const results = yield* Effect.all(
            [
              Effect.either(first.update("acme", created.id, { name: "first", revision: 1 })),
              Effect.either(second.update("acme", created.id, { name: "second", revision: 1 }))
            ],
            { concurrency: "unbounded" }
          )
          const wins = results.filter((r) => r._tag === "Right")
          const losses = results.flatMap((r) => (r._tag === "Left" ? [reasonOf(r.left)] : []))
          expect([wins.length, losses]).toEqual([1, [["RequestFailed", "conflict"]]])
          const final = yield* second.get("acme", created.id)
          expect(Option.map(final, (i) => i.revision)).toEqual(Option.some(2))
          expect(Option.map(final, (i) => i.name)).toEqual(Option.some(wins[0]!.right.name))
        }
        // Ten unconditional updates at once all land, each its own revision.
        const all = yield* Effect.all(
          Array.from({ length: 10 }, (_, n) =>
            (n % 2 === 0 ? one : two).update("acme", "two-stores", { name: `n${n}` })
          ),
          { concurrency: "unbounded" }
        )
        expect(all.map((i) => i.revision).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
      })
    )

    it.scoped("a change through one store is seen by another store on the same database (revision, reads)", () =>
      Effect.gen(function* () {
        const database = yield* subject.database
        const writer = yield* database.open({ encryptionKey: key1 })
        const reader = yield* database.open({ encryptionKey: key1 })
        const before = yield* reader.revision("acme")
        yield* writer.create("acme", bing("shared"))
        const afterCreate = yield* reader.revision("acme")
        expect(afterCreate).toBeGreaterThan(before)
        yield* writer.setCredentials("acme", "shared", { apiKeys: [Redacted.make("rotated-key")] })
        expect(yield* reader.revision("acme")).toBeGreaterThan(afterCreate)
        expect(Option.map(yield* reader.get("acme", "shared"), (i) => secretOf(i).apiKeys)).toEqual(
          Option.some(["rotated-key"])
        )
      })
    )

    // One store for every run of the property (a new database per run would cost a PostgreSQL database each).
    const propScope = Effect.runSync(Scope.make())
    let propStore: Promise<Service> | undefined
    const sharedStore = Effect.promise(
      () =>
        (propStore ??= Effect.runPromise(
          Scope.extend(
            Effect.flatMap(subject.database, (database) => database.open({ encryptionKey: key1 })),
            propScope
          )
        ))
    )
    afterAll(() => Effect.runPromise(Scope.close(propScope, Exit.void)))
    let runs = 0

    it.effect.prop(
      "what is stored is read back as it was: names, settings and credentials of any text",
      {
        name: FastCheck.option(FastCheck.string({ maxLength: 200, unit: "binary" }), { nil: undefined }),
        market: FastCheck.string({ unit: "grapheme" }),
        depth: FastCheck.integer(),
        apiKeys: FastCheck.array(FastCheck.stringMatching(/^[\x21-\x7e]{1,40}$/), { maxLength: 5 }),
        engines: FastCheck.array(FastCheck.stringMatching(/^[a-z]{1,12}$/), { minLength: 1, maxLength: 3 })
      },
      ({ apiKeys, depth, engines, market, name }) =>
        Effect.gen(function* () {
          const store = yield* sharedStore
          const id = `any-${++runs}`
          const created = yield* store.create("prop", {
            id,
            type: "searxng",
            ...(name === undefined ? {} : { name }),
            settings: { engines, options: { market, depth, nested: { list: [market, depth] } } },
            credentials: { apiKeys: apiKeys.map(Redacted.make) }
          })
          const read = yield* store.get("prop", id)
          expect(Option.map(read, (i) => [i.name, i.settings, secretOf(i).apiKeys])).toEqual(
            Option.some([name, created.settings, apiKeys])
          )
        }),
      { fastCheck: { numRuns: 50 } }
    )
  })
}

/** The SQL stores' part: what the tables hold. */
export const sqlConformance = (subject: Subject): void => {
  describe(`${subject.name}: the SQL store's tables`, () => {
    const rawOf = (database: Database): Raw => {
      if (database.raw === undefined) throw new Error(`${subject.name} gives no raw access`)
      return database.raw
    }

    it.scoped("an empty database gets the schema on first start; re-opening it keeps the data and the schema", () =>
      Effect.gen(function* () {
        const database = yield* subject.database
        const raw = rawOf(database)
        expect(yield* raw.tables).toEqual([])
        yield* Effect.scoped(
          Effect.flatMap(database.open({ encryptionKey: key1 }), (store) => store.create("acme", withCanaries))
        )
        expect(yield* raw.tables).toEqual([
          "websearch_provider_instances",
          "websearch_provider_migrations",
          "websearch_provider_workspaces"
        ])
        const reopened = yield* database.open({ encryptionKey: key1 })
        expect(Option.map(yield* reopened.get("acme", "canary"), secretOf)).toEqual(
          Option.some({ apiKeys: [keyCanary], basicAuthPassword: passwordCanary })
        )
        expect(yield* reopened.revision("acme")).toBe(1)
        expect(yield* raw.execute("SELECT migration_id, name FROM websearch_provider_migrations")).toEqual([
          { migration_id: 1, name: "provider_instances" }
        ])
        // A schema newer than this code is refused, not written to.
        yield* raw.execute("INSERT INTO websearch_provider_migrations (migration_id, name) VALUES (99, 'future')")
        const newer = yield* Effect.flip(database.open({ encryptionKey: key1 }))
        expect(reasonOf(newer)).toEqual(["Unavailable", "store_unavailable"])
        expect(newer.message).toContain("has schema 99, newer than this version of websearch knows (1)")
      })
    )

    it.scoped("no key, password or settings text appears in any column; the encryption key neither", () =>
      Effect.gen(function* () {
        const database = yield* subject.database
        const store = yield* database.open({ encryptionKey: key1 })
        yield* store.create("acme", withCanaries)
        yield* store.update("acme", "canary", { settings: withCanaries.settings })
        yield* store.create("acme", bing("second", { credentials: withCanaries.credentials }))
        const cells = yield* rawOf(database).cells
        expect(cells.length).toBeGreaterThan(10)
        for (const canary of [keyCanary, passwordCanary, settingsCanary, Redacted.value(key1)]) {
          expect(cells.filter((cell) => cell.includes(canary))).toEqual([])
        }
        // What is in the clear: the ids, the type and the name (as a JSON string).
        expect(cells).toEqual(expect.arrayContaining(["acme", "canary", "bing", '"Canary Bing"']))
      })
    )

    it.scoped(
      "rotation: old-key rows read with previousKeys, rotateKey re-encrypts, then the old key is not needed",
      () =>
        Effect.gen(function* () {
          const database = yield* subject.database
          const raw = rawOf(database)
          yield* Effect.scoped(
            Effect.flatMap(database.open({ encryptionKey: key1 }), (s) => s.create("acme", withCanaries))
          )
          const both = yield* database.open({ encryptionKey: key2, previousKeys: [key1] })
          expect(Option.map(yield* both.get("acme", "canary"), secretOf)).toEqual(
            Option.some({ apiKeys: [keyCanary], basicAuthPassword: passwordCanary })
          )
          yield* both.create("acme", bing("new-key", { credentials: { apiKeys: [Redacted.make("under-key-2")] } }))
          const revision = yield* both.revision("acme")
          // Without the previous key the store does not open: it holds values under a key it was not given.
          const refused = yield* Effect.flip(database.open({ encryptionKey: key2 }))
          expect(reasonOf(refused)).toEqual(["Unavailable", "invalid_config"])
          expect(refused.message).toMatch(/holds values encrypted under key [0-9a-f]{8} \(1 instance\(s\)\)/)
          expect(refused.message).toContain("previousKeys")
          for (const secret of [keyCanary, Redacted.value(key1), Redacted.value(key2)]) {
            expect(refused.message).not.toContain(secret)
          }
          expect(yield* raw.rotate({ encryptionKey: key2, previousKeys: [key1] })).toBe(1)
          expect(yield* raw.rotate({ encryptionKey: key2, previousKeys: [key1] })).toBe(0)
          const without = yield* database.open({ encryptionKey: key2 })
          expect((yield* without.list("acme")).map((i) => [i.id, secretOf(i).apiKeys])).toEqual([
            ["canary", [keyCanary]],
            ["new-key", ["under-key-2"]]
          ])
          expect(yield* without.revision("acme")).toBe(revision)
          // Every value is under the new key now: a store given only the old one refuses to open.
          const old = yield* Effect.flip(database.open({ encryptionKey: key1 }))
          expect(reasonOf(old)).toEqual(["Unavailable", "invalid_config"])
          expect(old.message).toMatch(/key [0-9a-f]{8} \(2 instance\(s\)\)/)
        })
    )

    it.scoped(
      "rotation reads in pages: more instances than a page, in several workspaces, are all re-sealed",
      () =>
        Effect.gen(function* () {
          const database = yield* subject.database
          const raw = rawOf(database)
          const old = yield* database.open({ encryptionKey: key1 })
          // 150 rows (a page is 100), in workspaces whose ids interleave in key order.
          for (const workspace of ["a", "b", "c"]) {
            yield* Effect.forEach(
              Array.from({ length: 50 }, (_, i) => `i-${String(i).padStart(3, "0")}`),
              (id) =>
                old.create(workspace, bing(id, { credentials: { apiKeys: [Redacted.make(`${workspace}-${id}`)] } })),
              { concurrency: 8, discard: true }
            )
          }
          expect(yield* raw.rotate({ encryptionKey: key2, previousKeys: [key1] })).toBe(150)
          const rotated = yield* database.open({ encryptionKey: key2 })
          for (const workspace of ["a", "b", "c"]) {
            const instances = yield* rotated.list(workspace)
            expect(instances).toHaveLength(50)
            expect(instances.every((i) => secretOf(i).apiKeys?.[0] === `${workspace}-${i.id}`)).toBe(true)
          }
        }),
      // Creating the rows takes a while on a busy machine; no figure is asserted.
      120_000
    )

    it.scoped(
      "a wrong key refuses to open, naming key ids only; a value moved to another row fails only its instance",
      () =>
        Effect.gen(function* () {
          const database = yield* subject.database
          const store = yield* database.open({ encryptionKey: key1 })
          yield* store.create("acme", withCanaries)
          yield* store.create("acme", bing("victim"))
          const wrong = yield* Effect.flip(database.open({ encryptionKey: key3 }))
          expect(reasonOf(wrong)).toEqual(["Unavailable", "invalid_config"])
          for (const secret of [
            keyCanary,
            passwordCanary,
            settingsCanary,
            Redacted.value(key1),
            Redacted.value(key3)
          ]) {
            expect(JSON.stringify({ ...wrong, message: wrong.message })).not.toContain(secret)
          }
          // The canary's sealed credentials copied onto the victim's row: bound to their row, they do not open there.
          yield* rawOf(database).execute(
            "UPDATE websearch_provider_instances SET credentials = " +
              "(SELECT credentials FROM websearch_provider_instances WHERE id = 'canary') WHERE id = 'victim'"
          )
          const victim = Option.getOrThrow(yield* store.get("acme", "victim"))
          expect(victim.unreadable).toContain("fails authentication")
          expect(victim.settings).toEqual({})
          expect(victim.credentials).toEqual({})
          // The workspace's other instance is read as before; the victim is listed, marked.
          const listed = yield* store.list("acme")
          expect(listed.map((i) => [i.id, i.unreadable === undefined])).toEqual([
            ["canary", true],
            ["victim", false]
          ])
          expect(secretOf(listed[0]).apiKeys).toEqual([keyCanary])
          expect(JSON.stringify(listed[1])).not.toContain(keyCanary)
          expect(yield* store.count("acme")).toBe(2)
          // Written whole again (settings and credentials), it is readable; new settings alone are refused.
          const half = yield* Effect.flip(store.update("acme", "victim", { settings: {} }))
          expect(reasonOf(half)).toEqual(["RequestFailed", "invalid_input"])
          const repaired = yield* store.update("acme", "victim", { settings: {}, credentials: {} })
          expect(repaired.unreadable).toBeUndefined()
        })
    )
  })
}
