/**
 * Searches run with the token's workspace's instances from the `ProviderStore`: a key set through
 * `PUT …/credentials` is the key the provider receives on the very next search (no restart), a workspace's
 * instance cannot be named by another workspace's token, each request costs one `revision` call (the list is read
 * again only after a change), and two servers sharing one database (a throwaway PostgreSQL, a SQLite file), each
 * with its own `ProviderStoreSql`, see each other's changes on their next request.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as ProviderStoreSql from "@websearch/node/ProviderStoreSql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { join } from "node:path"
import * as TempDir from "../../../test-support/tempDir.js"
import * as Postgres from "../../node/test/support/postgres.js"
import * as Management from "./support/management.js"
import * as Support from "./support/server.js"

const firstKey = "sk-canary-first-2b7d4e91a0"
const secondKey = "sk-canary-second-9c3f1a6e52"

// A scripted Tavily that records the key each call received.
const recording = () => {
  const tavily = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
  const services = Support.live([tavily.driver], {
    defaults: { searchKeywords: "tavily" },
    providers: { tavily: { apiKeys: ["composed-key-0123"] } }
  })
  return { recorder: tavily.recorder, services }
}

// The store, with a count of each read the search path makes.
const counted = (store: ProviderStore.ProviderStore.Service) => {
  const reads = { revision: 0, list: 0 }
  const service: ProviderStore.ProviderStore.Service = {
    ...store,
    revision: (workspace) => Effect.suspend(() => ((reads.revision += 1), store.revision(workspace))),
    list: (workspace) => Effect.suspend(() => ((reads.list += 1), store.list(workspace)))
  }
  return { reads, layer: Layer.succeed(ProviderStore.ProviderStore, service) }
}

const instance = "/v1/workspaces/acme/providers/acme-tavily"

describe("searches with a workspace's stored instances", () => {
  it.scoped("a key set through the API is used by the next search, with one revision check per request", () =>
    Effect.gen(function* () {
      const { recorder, services } = recording()
      const store = counted(yield* ProviderStore.memory)
      const { call, seen } = Management.client(yield* Management.start(services, store.layer))
      const { acmeAdmin, acmeMember, betaAdmin } = Management.tokens
      const search = (token: string, keyword: string) =>
        call("POST", "/v1/search", token, { keywords: [keyword], providerId: "acme-tavily" })

      const created = yield* call("POST", "/v1/workspaces/acme/providers", acmeAdmin, {
        id: "acme-tavily",
        type: "tavily",
        credentials: { apiKeys: [firstKey] }
      })
      expect(created.status).toBe(201)
      const before = { ...store.reads }
      // A member token of the workspace uses its instances (managing them is the admin's).
      expect((yield* search(acmeMember, "one")).json).toMatchObject({ providerId: "acme-tavily" })
      expect((yield* search(acmeMember, "two")).status).toBe(200)
      expect(recorder.calls.map((c) => [c.input, c.apiKey])).toEqual([
        ["one", firstKey],
        ["two", firstKey]
      ])
      // Two searches: two revision checks, one list (the first after the create), none for the unchanged second.
      expect({ revision: store.reads.revision - before.revision, list: store.reads.list - before.list }).toEqual({
        revision: 2,
        list: 1
      })

      expect((yield* call("PUT", `${instance}/credentials`, acmeAdmin, { apiKeys: [secondKey] })).status).toBe(200)
      expect((yield* search(acmeMember, "three")).status).toBe(200)
      expect(recorder.calls.at(-1)).toMatchObject({ input: "three", apiKey: secondKey })

      // Another workspace cannot name acme's instance: to its token there is no such provider.
      const foreign = yield* search(betaAdmin, "four")
      expect(foreign.status).toBe(503)
      expect(foreign.json).toMatchObject({ _tag: "Unavailable", reason: "unknown_provider" })
      // Said exactly as for an id nobody has: nothing tells beta that acme has it.
      const nobody = yield* call("POST", "/v1/search", betaAdmin, { keywords: ["four"], providerId: "nobody-has" })
      expect(foreign.text.replaceAll("acme-tavily", "ID")).toBe(nobody.text.replaceAll("nobody-has", "ID"))
      // Removing the instance takes effect at once too.
      expect((yield* call("DELETE", instance, acmeAdmin)).status).toBe(204)
      expect((yield* search(acmeMember, "five")).status).toBe(503)
      // The composed provider still answers with its own key, and no call ever sent acme's keys elsewhere.
      expect((yield* call("POST", "/v1/search", acmeMember, { keywords: ["six"] })).status).toBe(200)
      expect(recorder.calls.map((c) => c.input)).toEqual(["one", "two", "three", "six"])
      expect(recorder.calls.at(-1)?.apiKey).toBe("composed-key-0123")
      const everything = seen.join("\n")
      for (const key of [firstKey, secondKey]) expect(everything.includes(key)).toBe(false)
    })
  )

  // Each replica opens the database itself (its own connections, its own cache of instances), as two processes
  // would: what one writes, the other sees through the store's per-workspace revision.
  const replicas = (name: string, url: Effect.Effect<string | Redacted.Redacted<string>, never, Scope.Scope>) =>
    it.scoped(`two servers on one ${name}: a key changed through one is used by the other's next search`, () =>
      Effect.gen(function* () {
        const database = yield* url
        const encryptionKey = ProviderStoreSql.generateKey()
        const store = () => ProviderStoreSql.layer({ url: database, encryptionKey })
        const one = recording()
        const two = recording()
        const first = Management.client(yield* Management.start(one.services, store()))
        const second = Management.client(yield* Management.start(two.services, store()))
        const { acmeAdmin, acmeMember } = Management.tokens
        const search = (client: typeof first, keyword: string) =>
          client.call("POST", "/v1/search", acmeMember, { keywords: [keyword], providerId: "acme-tavily" })
        const created = yield* first.call("POST", "/v1/workspaces/acme/providers", acmeAdmin, {
          id: "acme-tavily",
          type: "tavily",
          credentials: { apiKeys: [firstKey] }
        })
        expect(created.status).toBe(201)
        expect((yield* search(second, "a")).status).toBe(200)
        expect(two.recorder.calls.at(-1)).toMatchObject({ input: "a", apiKey: firstKey })
        const rotated = yield* first.call("PUT", `${instance}/credentials`, acmeAdmin, { apiKeys: [secondKey] })
        expect(rotated.status).toBe(200)
        expect((yield* search(second, "b")).status).toBe(200)
        expect(two.recorder.calls.at(-1)).toMatchObject({ input: "b", apiKey: secondKey })
        // Replica 2 lists what replica 1 wrote, and a delete through replica 2 is seen by replica 1.
        const listed = yield* second.call("GET", "/v1/workspaces/acme/providers", acmeAdmin)
        expect(listed.json).toMatchObject([{ id: "acme-tavily", credentials: { apiKeys: 1 }, revision: 2 }])
        expect((yield* second.call("DELETE", instance, acmeAdmin)).status).toBe(204)
        expect((yield* search(first, "c")).status).toBe(503)
        expect(one.recorder.calls).toEqual([])
        const everything = [...first.seen, ...second.seen].join("\n")
        for (const key of [firstKey, secondKey, Redacted.value(encryptionKey)]) {
          expect(everything.includes(key)).toBe(false)
        }
      })
    )

  replicas(
    "PostgreSQL",
    Effect.map(Postgres.start(), (pg) => pg.url("postgres"))
  )
  replicas(
    "SQLite file",
    Effect.map(TempDir.scoped("websearch-server-store-"), (dir) => join(dir, "providers.db"))
  )
})
