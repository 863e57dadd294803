import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as ProviderChecks from "../src/ProviderChecks.js"
import * as ProviderInstance from "../src/ProviderInstance.js"
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as ResultCache from "../src/ResultCache.js"
import { searchKeywords } from "../src/SearchKeywords.js"
import * as Drivers from "./support/drivers.js"
import * as Echo from "./support/echo.js"
import * as Stores from "./support/stores.js"

const epoch = DateTime.unsafeMake(0)

const stored = (
  workspace: string,
  id: string,
  fields: {
    readonly type?: string
    readonly keys?: ReadonlyArray<string>
    readonly settings?: ProviderInstance.InstanceSettings
    readonly revision?: number
    readonly name?: string
    readonly created?: number
  } = {}
): ProviderInstance.ProviderInstance => ({
  workspace,
  id,
  type: fields.type ?? "echo",
  ...(fields.name === undefined ? {} : { name: fields.name }),
  settings: fields.settings ?? {},
  credentials: { apiKeys: (fields.keys ?? [`${workspace}-key`]).map((key) => Redacted.make(key)) },
  revision: fields.revision ?? 1,
  createdAt: fields.created === undefined ? epoch : DateTime.unsafeMake(fields.created),
  updatedAt: epoch
})

const host = (url: string): ProviderInstance.InstanceSettings => ({
  capabilities: { searchKeywords: { apiHost: url } }
})

const search = (providerId: string, keyword = "q") => searchKeywords({ keywords: [keyword], providerId })

describe("CallInstances", () => {
  it.effect("a call names an instance of its workspace, resolved with the instance's settings and credentials", () => {
    const echo = Echo.makeEcho()
    const prod = stored("acme", "prod", {
      name: "Production echo",
      settings: { ...host("https://prod.echo.example/"), options: { region: "eu" } }
    })
    return Effect.gen(function* () {
      const answer = yield* search("prod").pipe(ProviderInstance.withInstances("acme", [prod]))
      expect(answer.providerId).toBe("prod")
      expect(echo.seen).toEqual([
        {
          providerId: "prod",
          name: "Production echo",
          apiKey: "acme-key",
          apiHost: "https://prod.echo.example/",
          options: { region: "eu" },
          input: "q"
        }
      ])
      // Outside the workspace the id is unknown.
      const unknown = yield* Effect.flip(search("prod"))
      expect([unknown.reason, unknown.providerId]).toEqual(["unknown_provider", "prod"])
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  it.effect(
    "two workspaces' instances of one id share no cache entry, and a new revision is not served old answers",
    () => {
      const echo = Echo.makeEcho()
      const store = Stores.cacheStore()
      return Effect.gen(function* () {
        const inAcme = ProviderInstance.withInstances("acme", [
          stored("acme", "main", { settings: host("https://a.echo.example/") })
        ])
        const inBeta = ProviderInstance.withInstances("beta", [
          stored("beta", "main", { settings: host("https://a.echo.example/") })
        ])
        yield* search("main").pipe(inAcme)
        yield* search("main").pipe(inBeta)
        expect(echo.seen.map((s) => s.apiKey)).toEqual(["acme-key", "beta-key"])
        // The same workspace and revision again: a hit.
        yield* search("main").pipe(inAcme)
        expect(echo.seen).toHaveLength(2)
        // The instance changed (a new key): its revision moved, the old answers are not its answers.
        const changed = stored("acme", "main", {
          settings: host("https://a.echo.example/"),
          keys: ["rotated"],
          revision: 2
        })
        yield* search("main").pipe(ProviderInstance.withInstances("acme", [changed]))
        expect(echo.seen.map((s) => s.apiKey)).toEqual(["acme-key", "beta-key", "rotated"])
        expect(store.entries.size).toBe(3)
        for (const key of store.entries.keys()) expect(key).not.toContain("-key")
      }).pipe(Effect.provide(Drivers.layer([echo.driver], {}, undefined, [ResultCache.layer(store)])))
    }
  )

  it.effect("a rate limit and a Retry-After hold-off of one workspace's instance never hold another's", () => {
    const echo = Echo.makeEcho()
    const limited: ProviderInstance.InstanceSettings = { rateLimit: { limit: 1, window: "1 hour", maxWait: 0 } }
    return Effect.gen(function* () {
      const inAcme = ProviderInstance.withInstances("acme", [stored("acme", "main", { settings: limited })])
      const inBeta = ProviderInstance.withInstances("beta", [stored("beta", "main", { settings: limited })])
      yield* search("main").pipe(inAcme)
      const over = yield* Effect.flip(search("main").pipe(inAcme))
      expect([over.reason, over.providerId]).toEqual(["rate_limited", "main"])
      yield* search("main").pipe(inBeta)

      // Retry-After: the hold-off is acme's "held" instance's, not beta's.
      const inAcmeHeld = ProviderInstance.withInstances("acme", [stored("acme", "held")])
      const inBetaHeld = ProviderInstance.withInstances("beta", [stored("beta", "held")])
      const asked = yield* Effect.flip(search("held", "limited").pipe(inAcmeHeld))
      expect([asked.reason, asked.providerId, asked.retryAfter]).toEqual(["rate_limited", "held", 60])
      const held = yield* Effect.flip(search("held").pipe(inAcmeHeld))
      expect(held.message).toContain("Retry-After")
      yield* search("held").pipe(inBetaHeld)
      // New credentials (a new revision) start afresh.
      yield* search("held").pipe(ProviderInstance.withInstances("acme", [stored("acme", "held", { revision: 2 })]))
      expect(echo.seen.map((s) => `${s.apiKey}:${s.input}`)).toEqual([
        "acme-key:q",
        "beta-key:q",
        "acme-key:limited",
        "beta-key:q",
        "acme-key:q"
      ])
    }).pipe(Effect.provide(Drivers.layer([echo.driver], {}, "default")))
  })

  it.effect("keys rotate per instance and workspace", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const acme = ProviderInstance.withInstances("acme", [stored("acme", "main", { keys: ["a1", "a2"] })])
      const beta = ProviderInstance.withInstances("beta", [stored("beta", "main", { keys: ["b1", "b2"] })])
      yield* search("main", "1").pipe(acme)
      yield* search("main", "2").pipe(beta)
      yield* search("main", "3").pipe(acme)
      yield* search("main", "4").pipe(beta)
      yield* search("main", "5").pipe(acme)
      expect(echo.seen.map((s) => s.apiKey)).toEqual(["a1", "b1", "a2", "b2", "a1"])
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  it.effect("a bad stored instance fails only the calls naming it, with invalid_config naming it and the field", () => {
    const echo = Echo.makeEcho()
    const instances = [
      stored("acme", "good"),
      stored("acme", "bad-option", { settings: { options: { region: "mars" } } }),
      stored("acme", "gone-type", { type: "retired" }),
      stored("acme", "echo"),
      stored("acme", "inside", { settings: host("http://127.0.0.1:9/") }),
      stored("acme", "half-auth", { settings: { basicAuthUsername: "user" } })
    ]
    return Effect.gen(function* () {
      const failed = (id: string) => Effect.flip(search(id).pipe(ProviderInstance.withInstances("acme", instances)))
      const option = yield* failed("bad-option")
      expect([option._tag, option.reason, option.providerId]).toEqual(["Unavailable", "invalid_config", "bad-option"])
      expect(option.message).toContain(
        'the provider instance "bad-option" of workspace "acme" cannot be used: options.region: '
      )
      expect((yield* failed("gone-type")).message).toContain('type: no composed provider "retired" (composed: echo)')
      expect((yield* failed("echo")).message).toContain('id: "echo" is the id of a composed provider')
      expect((yield* failed("inside")).message).toContain(
        "settings.capabilities.searchKeywords.apiHost: http://127.0.0.1:9 is refused"
      )
      expect((yield* failed("half-auth")).message).toContain("settings.basicAuthUsername: ")
      const good = yield* search("good").pipe(ProviderInstance.withInstances("acme", instances))
      expect(good.providerId).toBe("good")
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  it.effect("errors name the instance the caller used and carry no credential", () => {
    const echo = Echo.makeEcho()
    const canary = "canary-9f3a1c7e-secret"
    const instances = [
      stored("acme", "canaried", { keys: [canary], settings: { basicAuthUsername: "u" } }),
      {
        ...stored("acme", "with-pass", { settings: { basicAuthUsername: "u" } }),
        credentials: { apiKeys: [Redacted.make(canary)], basicAuthPassword: Redacted.make(`${canary}-pw`) }
      }
    ]
    return Effect.gen(function* () {
      const within = ProviderInstance.withInstances("acme", instances)
      const rejected = yield* Effect.flip(search("with-pass", "rejected").pipe(within))
      const unusable = yield* Effect.flip(search("canaried").pipe(within))
      const check = yield* ProviderChecks.check("with-pass").pipe(within)
      expect([rejected.reason, rejected.providerId]).toEqual(["credentials_rejected", "with-pass"])
      expect(unusable.reason).toBe("invalid_config")
      for (const text of [
        rejected.message,
        JSON.stringify(rejected),
        unusable.message,
        JSON.stringify(unusable),
        JSON.stringify(check)
      ]) {
        expect(text).not.toContain(canary)
      }
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  it.effect("a check of a call instance runs the type's checks with the instance's configuration", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const check = yield* ProviderChecks.check("prod").pipe(
        ProviderInstance.withInstances("acme", [stored("acme", "prod", { settings: host("https://p.echo.example/") })])
      )
      expect([check.providerId, check.ok, check.capabilities.map((c) => c.capability)]).toEqual([
        "prod",
        true,
        ["searchKeywords"]
      ])
      expect(echo.seen.map((s) => [s.apiKey, s.apiHost, s.input])).toEqual([
        ["acme-key", "https://p.echo.example/", ProviderChecks.checkInputs.searchKeywords]
      ])
      const bad = yield* Effect.flip(
        ProviderChecks.check("bad").pipe(
          ProviderInstance.withInstances("acme", [stored("acme", "bad", { type: "retired" })])
        )
      )
      expect([bad.reason, bad.providerId]).toEqual(["invalid_config", "bad"])
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  it.effect("resolution is cached per (workspace, id, revision), within a bound", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const registry = yield* ProviderRegistry.ProviderRegistry
      const calls = (instance: ProviderInstance.ProviderInstance) => ({
        workspace: instance.workspace,
        instances: [instance]
      })
      const provider = (instance: ProviderInstance.ProviderInstance) =>
        Either.getOrThrow(registry.find(instance.id, calls(instance))).provider
      const first = provider(stored("acme", "main"))
      expect(provider(stored("acme", "main"))).toBe(first)
      expect(provider(stored("beta", "main"))).not.toBe(first)
      const next = provider(stored("acme", "main", { keys: ["new"], revision: 2 }))
      expect(next.apiKeys.map(Redacted.value)).toEqual(["new"])
      // Deleted and created again, a store numbers it from revision 1 again: it is another instance all the same.
      const recreated = provider(stored("acme", "main", { keys: ["recreated"], created: 60_000 }))
      expect(recreated.apiKeys.map(Redacted.value)).toEqual(["recreated"])
      // Past the bound the oldest resolved is dropped, and resolved again (equal, not the same object) when asked.
      for (let index = 0; index < 1100; index++) provider(stored("acme", `other-${index}`))
      const again = provider(stored("acme", "main"))
      expect(again).not.toBe(first)
      expect(again).toEqual(first)
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  it.effect("checkInstance judges a stored instance before it is stored, as a call would", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const registry = yield* ProviderRegistry.ProviderRegistry
      const good = registry.checkInstance(stored("acme", "fine", { settings: { options: { region: "us" } } }))
      expect(
        Either.map(good, (found) => [found.provider.id, found.provider.instanceOf, found.provider.options])
      ).toEqual(Either.right(["fine", "echo", { region: "us" }]))
      const bad = registry.checkInstance(
        stored("acme", "bad", { type: "retired", settings: { options: { region: "x" } } })
      )
      expect(Either.isLeft(bad) && [bad.left.reason, bad.left.providerId]).toEqual(["invalid_config", "bad"])
      const option = registry.checkInstance(stored("acme", "bad", { settings: { options: { region: "x" } } }))
      expect(Either.isLeft(option) && option.left.message).toContain("options.region: ")
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  it.effect("a fused search may name a workspace's instances", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const answer = yield* searchKeywords({ keywords: ["q"], providerIds: ["one", "two"] }).pipe(
        ProviderInstance.withInstances("acme", [
          stored("acme", "one", { keys: ["k1"] }),
          stored("acme", "two", { keys: ["k2"] })
        ])
      )
      expect(answer.providerIds).toEqual(["one", "two"])
      expect(echo.seen.map((s) => [s.providerId, s.apiKey]).sort()).toEqual([
        ["one", "k1"],
        ["two", "k2"]
      ])
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  const instanceKey = FastCheck.record({
    workspace: FastCheck.stringMatching(/^[a-z0-9][a-z0-9_-]{0,8}$/),
    // Not the composed type's id, which no instance may take.
    id: FastCheck.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/).filter((id) => id !== "echo"),
    revision: FastCheck.integer({ min: 1, max: 5 }),
    created: FastCheck.integer({ min: 0, max: 3 })
  })

  it.effect.prop(
    "two call instances share call state exactly when workspace, id, revision and creation time are all equal",
    { a: instanceKey, b: instanceKey },
    ({ a, b }) =>
      Effect.gen(function* () {
        const registry = yield* ProviderRegistry.ProviderRegistry
        const keyOf = (k: typeof a) => {
          const instance = stored(k.workspace, k.id, {
            revision: k.revision,
            created: k.created
          })
          return Either.getOrThrow(registry.find(instance.id, { workspace: k.workspace, instances: [instance] }))
            .stateKey
        }
        const same =
          a.workspace === b.workspace && a.id === b.id && a.revision === b.revision && a.created === b.created
        expect(keyOf(a) === keyOf(b)).toBe(same)
        // And the cache key: a scoped entry never meets another scope's, nor the unscoped entry of the same id.
        const request = (scope: string | undefined): ResultCache.Request => ({
          providerId: a.id,
          ...(scope === undefined ? {} : { scope }),
          capability: "searchKeywords",
          input: "q",
          maxResults: 10,
          apiHost: Option.none(),
          engines: []
        })
        expect(ResultCache.key(request(keyOf(a))) === ResultCache.key(request(keyOf(b)))).toBe(same)
        expect(ResultCache.key(request(keyOf(a)))).not.toBe(ResultCache.key(request(undefined)))
      }).pipe(Effect.provide(Drivers.layer([Echo.makeEcho().driver])))
  )
})
