/**
 * Rotating the provider store's key with replicas running, as the README says, step by step: each replica is a
 * server with its own `ProviderStoreSql` configured by the README's environment variables alone (the options
 * `websearch serve` reads), on one database (a SQLite file, a throwaway PostgreSQL). At every step replicas on
 * both sides of the step serve together, and every search of the workspace, on its instances and on the composed
 * provider, answers. Then what the old procedure broke: a replica left on the old key alone, while another writes
 * under the new one, fails only the instance it cannot read (never its workspace or the composed providers), and a
 * replica started with a key the store holds nothing under refuses to start, naming key ids, never a key.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ProviderStoreSql from "@websearch/node/ProviderStoreSql"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import { join } from "node:path"
import * as TempDir from "../../../test-support/tempDir.js"
import * as Postgres from "../../node/test/support/postgres.js"
import * as Management from "./support/management.js"
import * as Support from "./support/server.js"

const firstKey = "sk-rotation-first-51c0"
const secondKey = "sk-rotation-second-8ad2"

type Env = Readonly<Record<string, string>>
type Client = ReturnType<typeof Management.client>

/** The environment of a replica: the store's URL and the README's key variables. */
const storeEnv = (url: string, vars: Env): ConfigProvider.ConfigProvider =>
  ConfigProvider.fromMap(new Map(Object.entries({ WEBSEARCH_PROVIDER_STORE: url, ...vars })))

// The store a replica opens, configured by its environment alone (what `websearch serve` does).
const storeOf = (url: string, vars: Env) =>
  ProviderStoreSql.layerConfig().pipe(Layer.provide(Layer.setConfigProvider(storeEnv(url, vars))))

// A database, two fresh keys, and the capability services of every replica: a scripted Tavily that records the key
// of each call, the default for searches, with a composed key of its own.
const setup = (database: Effect.Effect<string, never, Scope.Scope>) =>
  Effect.map(database, (url) => {
    const tavily = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
    const services = Support.live([tavily.driver], {
      defaults: { searchKeywords: "tavily" },
      providers: { tavily: { apiKeys: ["composed-key-0123"] } }
    })
    const oldKey = Redacted.value(ProviderStoreSql.generateKey())
    const newKey = Redacted.value(ProviderStoreSql.generateKey())
    return { url, oldKey, newKey, tavily, services }
  })

const rotation = (name: string, database: Effect.Effect<string, never, Scope.Scope>) =>
  describe(`key rotation on a ${name}`, () => {
    it.scoped("the README's steps, with replicas on both sides of each step serving together", () =>
      Effect.gen(function* () {
        const { newKey, oldKey, services, tavily, url } = yield* setup(database)
        const { acmeAdmin, acmeMember } = Management.tokens
        // A replica with its own scope, so a step can stop it as a rolling restart does.
        const replica = (vars: Env) =>
          Effect.gen(function* () {
            const scope = yield* Scope.make()
            const base = yield* Scope.extend(Management.start(services, storeOf(url, vars)), scope)
            return { ...Management.client(base), stop: Scope.close(scope, Exit.void) }
          })
        const searches = (client: Client, ids: ReadonlyArray<string>) =>
          Effect.forEach([...ids, undefined], (providerId) =>
            Effect.map(
              client.call("POST", "/v1/search", acmeMember, {
                keywords: [`on ${providerId ?? "tavily"}`],
                ...(providerId === undefined ? {} : { providerId })
              }),
              (answer) => [providerId ?? "tavily", answer.status]
            )
          )
        const allAnswer = (ids: ReadonlyArray<string>) => [...ids, "tavily"].map((id) => [id, 200])

        // Before: every replica on the old key.
        const before = yield* replica({ WEBSEARCH_PROVIDER_STORE_KEY: oldKey })
        const created = yield* before.call("POST", "/v1/workspaces/acme/providers", acmeAdmin, {
          id: "acme-tavily",
          type: "tavily",
          credentials: { apiKeys: [firstKey] }
        })
        expect(created.status).toBe(201)

        // Step 1: replicas restart with the old key current and the new one readable.
        const step1 = yield* replica({
          WEBSEARCH_PROVIDER_STORE_KEY: oldKey,
          WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS: newKey
        })
        expect(yield* searches(before, ["acme-tavily"])).toEqual(allAnswer(["acme-tavily"]))
        expect(yield* searches(step1, ["acme-tavily"])).toEqual(allAnswer(["acme-tavily"]))
        yield* before.stop

        // Step 2: replicas restart with the new key current and the old one readable, while step-1 replicas serve.
        const step2 = yield* replica({
          WEBSEARCH_PROVIDER_STORE_KEY: newKey,
          WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS: oldKey
        })
        const keyed = yield* step2.call("PUT", "/v1/workspaces/acme/providers/acme-tavily/credentials", acmeAdmin, {
          apiKeys: [secondKey]
        })
        expect(keyed.status).toBe(200)
        const second = yield* step2.call("POST", "/v1/workspaces/acme/providers", acmeAdmin, {
          id: "acme-second",
          type: "tavily",
          credentials: { apiKeys: [secondKey] }
        })
        expect(second.status).toBe(201)
        const renamed = yield* step1.call("PATCH", "/v1/workspaces/acme/providers/acme-second", acmeAdmin, {
          name: "renamed under the old key"
        })
        expect(renamed.status).toBe(200)
        const ids = ["acme-tavily", "acme-second"]
        expect(yield* searches(step1, ids)).toEqual(allAnswer(ids))
        expect(yield* searches(step2, ids)).toEqual(allAnswer(ids))
        yield* step1.stop

        // Step 3: `websearch providers rotate-key` once, in the step-2 environment (what the command runs).
        const rotated = yield* ProviderStoreSql.rotateKeyConfig().pipe(
          Effect.withConfigProvider(
            storeEnv(url, { WEBSEARCH_PROVIDER_STORE_KEY: newKey, WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS: oldKey })
          )
        )
        expect(rotated).toBeGreaterThanOrEqual(1)

        // Step 4: replicas restart without the previous key; the old key alone no longer opens the store.
        const after = yield* replica({ WEBSEARCH_PROVIDER_STORE_KEY: newKey })
        expect(yield* searches(after, ids)).toEqual(allAnswer(ids))
        expect(yield* searches(step2, ids)).toEqual(allAnswer(ids))
        const stale = yield* Effect.flip(replica({ WEBSEARCH_PROVIDER_STORE_KEY: oldKey }))
        expect([stale._tag, stale.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(stale.message).toContain("WEBSEARCH_PROVIDER_STORE_KEY")
        expect(stale.message).toContain("WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS")
        for (const secret of [oldKey, newKey, firstKey, secondKey]) expect(stale.message).not.toContain(secret)
        // The keys each search used: the instance's own, never another's.
        expect(new Set(tavily.recorder.calls.map((c) => c.apiKey))).toEqual(
          new Set([firstKey, secondKey, "composed-key-0123"])
        )
      })
    )

    it.scoped("a replica left on the old key alone fails only the instance written under the new one", () =>
      Effect.gen(function* () {
        const { newKey, oldKey, services, url } = yield* setup(database)
        const { acmeAdmin, acmeMember } = Management.tokens
        const old = Management.client(
          yield* Management.start(services, storeOf(url, { WEBSEARCH_PROVIDER_STORE_KEY: oldKey }))
        )
        const kept = yield* old.call("POST", "/v1/workspaces/acme/providers", acmeAdmin, {
          id: "kept",
          type: "tavily",
          credentials: { apiKeys: [firstKey] }
        })
        expect(kept.status).toBe(201)
        // The old procedure: a replica started on the new key while this one still runs on the old key alone.
        const fresh = Management.client(
          yield* Management.start(
            services,
            storeOf(url, { WEBSEARCH_PROVIDER_STORE_KEY: newKey, WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS: oldKey })
          )
        )
        const written = yield* fresh.call("POST", "/v1/workspaces/acme/providers", acmeAdmin, {
          id: "written-new",
          type: "tavily",
          credentials: { apiKeys: [secondKey] }
        })
        expect(written.status).toBe(201)
        const search = (providerId?: string) =>
          old.call("POST", "/v1/search", acmeMember, {
            keywords: ["x"],
            ...(providerId === undefined ? {} : { providerId })
          })
        expect((yield* search()).status).toBe(200)
        expect((yield* search("kept")).status).toBe(200)
        const unreadable = yield* search("written-new")
        expect(unreadable.status).toBe(503)
        expect(unreadable.json).toMatchObject({ _tag: "Unavailable", reason: "store_unavailable" })
        expect(unreadable.text).toContain('"written-new"')
        expect(unreadable.text).toMatch(/key [0-9a-f]{8}/)
        // The admin sees it listed, marked, with nothing of its secrets.
        const listed = yield* old.call("GET", "/v1/workspaces/acme/providers", acmeAdmin)
        expect(listed.json).toMatchObject([
          { id: "kept" },
          { id: "written-new", credentials: { apiKeys: 0 }, unreadable: expect.stringContaining("key") }
        ])
        for (const secret of [oldKey, newKey, firstKey, secondKey]) {
          expect([...old.seen, ...fresh.seen].join("\n")).not.toContain(secret)
        }
      })
    )
  })

rotation(
  "SQLite file",
  Effect.map(TempDir.scoped("websearch-rotation-"), (dir) => join(dir, "providers.db"))
)
rotation(
  "PostgreSQL",
  Effect.map(Postgres.start(), (pg) => Redacted.value(pg.url("postgres")))
)
