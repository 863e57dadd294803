/**
 * What the pipeline remembers between calls (the result cache, and the page store that serves reading on) is the
 * workspace's own: a call made for one workspace (`ProviderInstance.withInstances`, as the server does for each
 * request's token) is never answered from an entry another workspace's call put there, for built-in providers as
 * for instances, so a hit cannot tell one tenant what another read. Calls outside a workspace keep their keys.
 *
 * A key also carries a digest of what else of the provider's configuration changes its answers (its own options,
 * the basic-auth user, the model, the proxy), so a store that outlives a configuration (the command line's cache
 * files) does not answer one configuration from another's entry, and no secret of it is ever part of a key.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import * as AnswerVariant from "../src/internal/answerVariant.js"
import { fetchUrls } from "../src/FetchUrls.js"
import type { ResolvedProvider } from "../src/ProviderConfig.js"
import * as ProviderInstance from "../src/ProviderInstance.js"
import * as ResultCache from "../src/ResultCache.js"
import { searchKeywords } from "../src/SearchKeywords.js"
import type * as Settings from "../src/Settings.js"
import * as Drivers from "./support/drivers.js"
import * as Echo from "./support/echo.js"
import * as Stores from "./support/stores.js"

const inWorkspace = (workspace: string) => ProviderInstance.withInstances(workspace, [])

const search = (keyword: string) => ResultCache.track(searchKeywords({ keywords: [keyword] }))

const longPage = (url: string) => ({ title: "Long", url, content: "abcdefghij".repeat(100) })

describe("the result cache and page store are per workspace", () => {
  it.effect("a built-in provider's cached answer serves its own workspace only", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(2) })
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      const [, first] = yield* search("secret plans").pipe(inWorkspace("acme"))
      const [, again] = yield* search("secret plans").pipe(inWorkspace("acme"))
      expect(first).toEqual({ hits: 0, misses: 1 })
      expect(again).toEqual({ hits: 1, misses: 0 })
      // Another workspace: a miss, and the provider is asked again.
      const [, other] = yield* search("secret plans").pipe(inWorkspace("beta"))
      expect(other).toEqual({ hits: 0, misses: 1 })
      expect(ddg.recorder.started).toEqual(["secret plans", "secret plans"])
      // A call outside any workspace (a library call) is the default workspace's, apart from both.
      const [, outside] = yield* search("secret plans")
      const [, inDefault] = yield* search("secret plans").pipe(inWorkspace(ProviderInstance.defaultWorkspace))
      expect(outside).toEqual({ hits: 0, misses: 1 })
      expect(inDefault).toEqual({ hits: 1, misses: 0 })
      expect(ddg.recorder.started).toHaveLength(3)
    }).pipe(Effect.provide(Drivers.layer([ddg], {}, undefined, [ResultCache.layer(store)])))
  })

  it.effect("concurrent identical misses of two workspaces make two calls: neither waits for the other's", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1, { delay: "1 second" }) })
    return Effect.gen(function* () {
      const both = yield* Effect.all(
        [search("same").pipe(inWorkspace("acme")), search("same").pipe(inWorkspace("beta"))],
        { concurrency: 2 }
      ).pipe(Effect.fork)
      yield* Drivers.awaitStarted(ddg.recorder, 2)
      expect(ddg.recorder.started).toEqual(["same", "same"])
      yield* TestClock.adjust("1 second")
      const [[, a], [, b]] = yield* Drivers.joinPromptly(both)
      expect([a, b]).toEqual([
        { hits: 0, misses: 1 },
        { hits: 0, misses: 1 }
      ])
    }).pipe(Effect.provide(Drivers.layer([ddg], {}, undefined, [ResultCache.layer(Stores.cacheStore())])))
  })

  it.effect("reading on from the page store serves the workspace that fetched the page only", () => {
    const url = "https://intranet.example/report?sig=s3cr3t"
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.results([longPage(url)]) })
    const read = (startIndex: number) => fetchUrls({ urls: [url], maxLength: 100, startIndex })
    return Effect.gen(function* () {
      yield* read(0).pipe(inWorkspace("acme"))
      // acme reads on from its store: no second fetch.
      const acme = yield* read(100).pipe(inWorkspace("acme"))
      expect(local.recorder.started).toHaveLength(1)
      // beta reading on from the same offset fetches the page itself.
      const beta = yield* read(100).pipe(inWorkspace("beta"))
      expect(local.recorder.started).toHaveLength(2)
      expect(beta.results[0].content).toBe(acme.results[0].content)
    }).pipe(Effect.provide(Drivers.layer([local])))
  })

  const base: ResultCache.Request = {
    providerId: "duckduckgo",
    capability: "searchKeywords",
    input: "q",
    maxResults: 10,
    apiHost: Option.none(),
    engines: []
  }
  const workspace = FastCheck.stringMatching(/^[a-z0-9][a-z0-9_-]{0,20}$/)

  it.prop(
    "two workspaces never share a key, whatever the inputs and search options",
    [workspace, workspace, FastCheck.string({ maxLength: 30 }), FastCheck.boolean()],
    ([a, b, input, withOptions]) => {
      FastCheck.pre(a !== b)
      const options = withOptions ? { searchOptions: { language: "en" } } : {}
      expect(ResultCache.key({ ...base, ...options, input, workspace: a })).not.toBe(
        ResultCache.key({ ...base, ...options, input, workspace: b })
      )
    }
  )

  it("the default workspace and a plain configuration keep the keys written before workspaces", () => {
    expect(ResultCache.key({ ...base, workspace: ProviderInstance.defaultWorkspace })).toBe(ResultCache.key(base))
    expect(ResultCache.key(base)).toBe(JSON.stringify(["v1", "searchKeywords", "duckduckgo", null, [], 10, "q"]))
    expect(ResultCache.key({ ...base, variant: "0f" })).not.toBe(ResultCache.key(base))
    expect(ResultCache.key({ ...base, variant: "0f", workspace: "acme" })).not.toBe(
      ResultCache.key({ ...base, variant: "0f" })
    )
  })
})

describe("a cache key carries the configuration that changes answers, never its secrets", () => {
  // One store shared by two compositions, as the command line's cache directory is shared by its runs.
  const run = (store: Stores.CacheStore, settings: Settings.SettingsInput, keyword = "q") => {
    const echo = Echo.makeEcho()
    return searchKeywords({ keywords: [keyword], providerId: "echo" }).pipe(
      Effect.map(() => echo.seen.length),
      Effect.provide(Drivers.layer([echo.driver], settings, undefined, [ResultCache.layer(store)]))
    )
  }
  const echo = (override: Record<string, unknown>): Settings.SettingsInput =>
    ({ providers: { echo: { apiKeys: ["echo-key-1"], ...override } } }) as Settings.SettingsInput

  it.effect("options, basic-auth user, model and proxy each make another entry; the same configuration hits", () =>
    Effect.gen(function* () {
      const store = Stores.cacheStore()
      const configurations = [
        {},
        { region: "eu" },
        { region: "us" },
        { basicAuthUsername: "alice", basicAuthPassword: "alice-password-1" },
        { basicAuthUsername: "bob", basicAuthPassword: "alice-password-1" },
        { model: "small" },
        { proxyUrl: "http://proxy-user:proxy-pass-9@proxy.example:3128" },
        { proxyUrl: "http://proxy-user:proxy-pass-9@other-proxy.example:3128" }
      ]
      for (const configuration of configurations) {
        // Each configuration calls its provider once, however often it is asked.
        expect(yield* run(store, echo(configuration))).toBe(1)
        expect(yield* run(store, echo(configuration))).toBe(0)
      }
      expect(store.entries.size).toBe(configurations.length)
      // Another key or password of the same account is the same configuration: it is answered from the cache.
      expect(yield* run(store, echo({ apiKeys: ["echo-key-2"] }))).toBe(0)
      expect(yield* run(store, echo({ basicAuthUsername: "alice", basicAuthPassword: "other-password" }))).toBe(0)
      for (const key of store.entries.keys()) {
        for (const secret of ["echo-key", "alice-password", "proxy-pass", "proxy-user", "proxy.example", "alice"]) {
          expect(key).not.toContain(secret)
        }
      }
    })
  )

  // Only the fields the variant reads; the rest of a resolved provider does not change it.
  const provider = (options: unknown): ResolvedProvider =>
    ({
      options,
      basicAuth: Option.none(),
      model: Option.none(),
      proxyUrl: Option.none()
    }) as unknown as ResolvedProvider

  it.prop(
    "the variant is a function of the options' content: key order does not matter, any other value does",
    [FastCheck.dictionary(FastCheck.string({ maxLength: 6 }), FastCheck.jsonValue(), { maxKeys: 6 })],
    ([options]) => {
      const reversed = Object.fromEntries(Object.entries(options).reverse())
      expect(AnswerVariant.describe(provider(reversed))).toBe(AnswerVariant.describe(provider(options)))
      expect(AnswerVariant.describe(provider({ ...options, "longer-than-six": "x" }))).not.toBe(
        AnswerVariant.describe(provider(options))
      )
    }
  )

  it("options that are not plain data never throw: a bigint is written, a cycle is a configuration of its own", () => {
    expect(AnswerVariant.describe(provider({ n: 1n }))).toContain("1n")
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const a = AnswerVariant.describe(provider(cyclic))
    expect(a).toMatch(/^unshareable /)
    expect(AnswerVariant.describe(provider(cyclic))).not.toBe(a)
    expect(AnswerVariant.describe(provider(undefined))).toBeUndefined()
  })
})
