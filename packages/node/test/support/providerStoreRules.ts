/**
 * The rules every provider store enforces on what it is given, whichever surface gave it (the HTTP API, the CLI,
 * an application's own code): a key never follows an endpoint or proxy it was not set for, an instance's settings
 * and credentials are bounded in size, and a workspace's instances are counted without being read.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import type * as ProviderStore from "@websearch/core/ProviderStore"
import * as ProviderStoreRules from "@websearch/core/internal/providerStoreRules"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Conformance from "./providerStoreConformance.js"

const keysOf = (instance: ProviderInstance.ProviderInstance) => ({
  apiKeys: instance.credentials.apiKeys?.map(Redacted.value),
  basicAuthPassword: Option.getOrUndefined(
    Option.map(Option.fromNullable(instance.credentials.basicAuthPassword), Redacted.value)
  )
})

const keyed: ProviderStore.CreateInstance = {
  id: "keyed",
  type: "searxng",
  settings: {
    capabilities: { searchKeywords: { apiHost: "https://searx.example.com/?api_key=query-secret&lang=en" } },
    proxyUrl: "http://proxy-user:proxy-pass@proxy.example.com:3128",
    basicAuthUsername: "searx",
    engines: ["google"]
  },
  credentials: { apiKeys: [Redacted.make("endpoint-key-1")], basicAuthPassword: Redacted.make("endpoint-pw") }
}

const failure = (error: WebSearchError.WebSearchError) => [error._tag, error.reason, error.message]

export const rules = (subject: Conformance.Subject): void => {
  describe(`${subject.name}: what a store refuses`, () => {
    it.scoped("settings that send an instance's credentials elsewhere need the credentials again", () =>
      Effect.gen(function* () {
        const store = yield* (yield* subject.database).open()
        const created = yield* store.create("acme", keyed)
        // The same places: the settings as stored, and as the view shows them (scrubbed) written back.
        const same = yield* store.update("acme", "keyed", { settings: { ...keyed.settings, engines: ["bing"] } })
        const shown = ProviderInstance.view(same).settings
        const back = yield* store.update("acme", "keyed", { settings: shown })
        expect(keysOf(back)).toEqual({ apiKeys: ["endpoint-key-1"], basicAuthPassword: "endpoint-pw" })
        expect(back.revision).toBe(created.revision + 2)

        const moves: ReadonlyArray<readonly [ProviderInstance.InstanceSettings, string]> = [
          [
            { ...keyed.settings, capabilities: { searchKeywords: { apiHost: "https://attacker.example" } } },
            "settings.capabilities.searchKeywords.apiHost"
          ],
          [{ ...keyed.settings, capabilities: {} }, "settings.capabilities.searchKeywords.apiHost"],
          [{ ...keyed.settings, proxyUrl: "http://proxy.attacker.example:3128" }, "settings.proxyUrl"],
          [{ engines: ["google"], basicAuthUsername: "searx" }, "settings.capabilities.searchKeywords.apiHost"]
        ]
        for (const [settings, field] of moves) {
          const refused = yield* Effect.flip(store.update("acme", "keyed", { settings }))
          expect(failure(refused).slice(0, 2)).toEqual(["RequestFailed", "invalid_input"])
          expect(refused.message).toContain(field)
          expect(refused.message).toContain("credentials")
          expect(JSON.stringify(failure(refused))).not.toContain("endpoint-key-1")
        }
        // Nothing was changed by the refusals.
        const kept = Option.getOrThrow(yield* store.get("acme", "keyed"))
        expect([kept.revision, kept.settings, keysOf(kept)]).toEqual([
          back.revision,
          back.settings,
          { apiKeys: ["endpoint-key-1"], basicAuthPassword: "endpoint-pw" }
        ])

        // With the credentials in the same change, the move is made: new keys, or none.
        const moved = yield* store.update("acme", "keyed", {
          settings: { ...keyed.settings, capabilities: { searchKeywords: { apiHost: "https://searx2.example.com" } } },
          credentials: { apiKeys: [Redacted.make("new-endpoint-key")], basicAuthPassword: Redacted.make("pw2") }
        })
        expect(keysOf(moved)).toEqual({ apiKeys: ["new-endpoint-key"], basicAuthPassword: "pw2" })
        const cleared = yield* store.update("acme", "keyed", {
          settings: { proxyUrl: "http://proxy.attacker.example:3128" },
          credentials: {}
        })
        expect(keysOf(cleared)).toEqual({ apiKeys: undefined, basicAuthPassword: undefined })
        // An instance without credentials moves freely.
        const free = yield* store.update("acme", "keyed", {
          settings: { capabilities: { searchKeywords: { apiHost: "https://anywhere.example" } } }
        })
        expect(free.settings.capabilities?.searchKeywords?.apiHost).toBe("https://anywhere.example")
      })
    )

    it.scoped("an instance's settings and credentials are bounded in size, each refusal naming its field", () =>
      Effect.gen(function* () {
        const store = yield* (yield* subject.database).open()
        const big = { options: { blob: "x".repeat(ProviderStoreRules.maxFieldBytes) } }
        const manyKeys = { apiKeys: Array.from({ length: 60 }, (_, i) => Redacted.make(`${i}-${"k".repeat(300)}`)) }
        const refusals = [
          yield* Effect.flip(store.create("acme", { id: "big", type: "searxng", settings: big, credentials: {} })),
          yield* Effect.flip(store.create("acme", { id: "big", type: "searxng", settings: {}, credentials: manyKeys }))
        ]
        yield* store.create("acme", { id: "small", type: "searxng", settings: {}, credentials: {} })
        refusals.push(
          yield* Effect.flip(store.update("acme", "small", { settings: big })),
          yield* Effect.flip(store.setCredentials("acme", "small", manyKeys))
        )
        expect(refusals.map((error) => [error.reason, error.message.split(":")[0]])).toEqual([
          ["invalid_input", "settings"],
          ["invalid_input", "credentials"],
          ["invalid_input", "settings"],
          ["invalid_input", "credentials"]
        ])
        for (const error of refusals) {
          expect(error.message).toContain(`at most ${ProviderStoreRules.maxFieldBytes}`)
          expect(error.message).not.toContain("kkkk")
        }
        expect(yield* store.count("acme")).toBe(1)
      })
    )

    it.scoped("count says how many instances a workspace holds, each workspace apart", () =>
      Effect.gen(function* () {
        const store = yield* (yield* subject.database).open()
        expect(yield* store.count("acme")).toBe(0)
        for (const id of ["a", "b", "c"]) {
          yield* store.create("acme", { id, type: "searxng", settings: {}, credentials: {} })
        }
        yield* store.create("other", { id: "a", type: "searxng", settings: {}, credentials: {} })
        yield* store.remove("acme", "b")
        expect([yield* store.count("acme"), yield* store.count("other"), yield* store.count("none")]).toEqual([2, 1, 0])
      })
    )
  })
}
