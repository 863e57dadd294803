import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import * as Tracer from "effect/Tracer"
import { fetchUrls } from "../src/FetchUrls.js"
import * as Research from "../src/Research.js"
import * as ResultCache from "../src/ResultCache.js"
import { searchKeywords } from "../src/SearchKeywords.js"
import * as Settings from "../src/Settings.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"
import * as Stores from "./support/stores.js"

const withCache = (
  store: ResultCache.Store,
  drivers: ReadonlyArray<Drivers.TestDriver>,
  settings: Settings.SettingsInput = {}
) => Drivers.layer(drivers, settings, undefined, [ResultCache.layer(store)])

const search = (keywords: ReadonlyArray<string>, options?: { providerId?: string; maxResults?: number }) =>
  ResultCache.track(searchKeywords({ keywords, ...options }))

/** Waits (by yielding) until some fiber sleeps on the TestClock, so an adjustment reaches it. */
const awaitSleeping = Effect.gen(function* () {
  for (let attempt = 0; attempt < 10_000; attempt++) {
    if ((yield* TestClock.sleeps()).length > 0) return
    yield* Effect.yieldNow()
  }
  return yield* Effect.dieMessage("nothing went to sleep on the TestClock")
})

const ddgSearch = (script: Drivers.Scripted = Drivers.succeed(2)) =>
  Drivers.makeDriver("duckduckgo", { searchKeywords: script })

const localFetch = (script: Drivers.Scripted = Drivers.succeed()) => Drivers.makeDriver("fetch", { fetchUrls: script })

describe("ResultCache in the pipeline", () => {
  it.effect("a cache hit answers without calling the driver, with the same results", () => {
    const ddg = ddgSearch()
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      const [first, firstStats] = yield* search(["effect ts"])
      const [second, secondStats] = yield* search(["effect ts"])
      expect(ddg.recorder.started).toEqual(["effect ts"])
      expect(second.results).toEqual(first.results)
      expect(firstStats).toEqual({ hits: 0, misses: 1 })
      expect(secondStats).toEqual({ hits: 1, misses: 0 })
      expect(ResultCache.status(firstStats)).toEqual(Option.some("miss"))
      expect(ResultCache.status(secondStats)).toEqual(Option.some("hit"))
      // Whitespace variants of the same keywords share the entry.
      yield* search(["  effect   ts "])
      expect(ddg.recorder.started).toHaveLength(1)
    }).pipe(Effect.provide(withCache(store, [ddg])))
  })

  it.effect("entries are per provider, capability, input and maxResults", () => {
    const ddg = ddgSearch((_input, ctx) => Drivers.succeed(Math.min(ctx.maxResults, 5)))
    const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(1) })
    const jina = Drivers.makeDriver("jina", { searchKeywords: Drivers.succeed(1), fetchUrls: Drivers.succeed() })
    const store = Stores.cacheStore()
    const settings: Settings.SettingsInput = {
      providers: { brave: { apiKeys: ["brave-key-0001"] }, jina: { apiKeys: ["jina-key-0001"] } }
    }
    return Effect.gen(function* () {
      yield* search(["https://a.example/"])
      yield* search(["https://a.example/"], { providerId: "brave" })
      yield* search(["https://a.example/"], { providerId: "jina" })
      yield* ResultCache.track(fetchUrls({ providerId: "jina", urls: ["https://a.example/"] }))
      yield* search(["https://b.example/"])
      const [three] = yield* search(["https://a.example/"], { maxResults: 3 })
      expect(three.results).toHaveLength(3)
      expect(ddg.recorder.started).toEqual(["https://a.example/", "https://b.example/", "https://a.example/"])
      expect(brave.recorder.started).toHaveLength(1)
      expect(jina.recorder.calls.map((c) => c.capability)).toEqual(["searchKeywords", "fetchUrls"])
      expect(store.entries.size).toBe(6)
      // Every one of them is now a hit.
      const [, stats] = yield* search(["https://a.example/"], { maxResults: 3 })
      expect(stats).toEqual({ hits: 1, misses: 0 })
    }).pipe(Effect.provide(withCache(store, [ddg, brave, jina], settings)))
  })

  it.effect("a request with some inputs cached reports partial", () => {
    const ddg = ddgSearch()
    return Effect.gen(function* () {
      yield* search(["a", "b"])
      const [response, stats] = yield* search(["b", "c"])
      expect(response.results.map((r) => r.sourceInput)).toEqual(["b", "b", "c", "c"])
      expect(stats).toEqual({ hits: 1, misses: 1 })
      expect(ResultCache.status(stats)).toEqual(Option.some("partial"))
      expect(ddg.recorder.started).toEqual(["a", "b", "c"])
    }).pipe(Effect.provide(withCache(Stores.cacheStore(), [ddg])))
  })

  it.effect("successes expire after the capability's TTL (search 10 minutes, fetch 1 hour by default)", () => {
    const ddg = ddgSearch()
    const local = localFetch()
    return Effect.gen(function* () {
      yield* search(["q"])
      yield* fetchUrls({ urls: ["https://page.example/"] })
      yield* TestClock.adjust("9 minutes")
      yield* search(["q"])
      expect(ddg.recorder.started).toHaveLength(1)
      yield* TestClock.adjust("1 minute")
      yield* search(["q"])
      expect(ddg.recorder.started).toHaveLength(2)
      yield* fetchUrls({ urls: ["https://page.example/"] })
      expect(local.recorder.started).toHaveLength(1)
      yield* TestClock.adjust("50 minutes")
      yield* fetchUrls({ urls: ["https://page.example/"] })
      expect(local.recorder.started).toHaveLength(2)
    }).pipe(Effect.provide(withCache(Stores.cacheStore(), [ddg, local])))
  })

  it.effect("TTLs come from the settings, and 0 turns a capability's caching off entirely", () => {
    const ddg = ddgSearch()
    const local = localFetch()
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      yield* search(["q"])
      yield* TestClock.adjust("59 seconds")
      yield* search(["q"])
      expect(ddg.recorder.started).toHaveLength(1)
      yield* TestClock.adjust("1 second")
      yield* search(["q"])
      expect(ddg.recorder.started).toHaveLength(2)
      const [, stats] = yield* ResultCache.track(fetchUrls({ urls: ["https://page.example/"] }))
      yield* fetchUrls({ urls: ["https://page.example/"] })
      expect(local.recorder.started).toHaveLength(2)
      expect(stats).toEqual({ hits: 0, misses: 0 })
      expect(ResultCache.status(stats)).toEqual(Option.none())
    }).pipe(Effect.provide(withCache(store, [ddg, local], { cache: { searchKeywords: "1 minute", fetchUrls: 0 } })))
  })

  it.effect("a provider's answer about the input itself (404) is cached for the short failure TTL only", () => {
    const local = localFetch(Drivers.fail(WebSearchError.requestFailed("http_404", "not found")))
    return Effect.gen(function* () {
      const first = yield* Effect.flip(fetchUrls({ urls: ["https://gone.example/"] }))
      const second = yield* Effect.flip(fetchUrls({ urls: ["https://gone.example/"] }))
      expect(local.recorder.started).toHaveLength(1)
      expect(second).toMatchObject({ _tag: "RequestFailed", reason: "http_404", providerId: "fetch" })
      expect(second.message).toBe(first.message)
      yield* TestClock.adjust("30 seconds")
      yield* Effect.flip(fetchUrls({ urls: ["https://gone.example/"] }))
      expect(local.recorder.started).toHaveLength(2)
    }).pipe(Effect.provide(withCache(Stores.cacheStore(), [local])))
  })

  it.effect("a fetched page's pageType survives the store's JSON; a wall (blocked) is cached like a 404", () => {
    const page = { title: "Thread", content: "posts", url: "https://forum.example/t/1", pageType: "forum" as const }
    const local = localFetch((input) =>
      input === "https://wall.example/"
        ? Drivers.fail(WebSearchError.requestFailed("blocked", "https://wall.example/ answered with a bot check"))
        : Drivers.results([page])
    )
    return Effect.gen(function* () {
      yield* fetchUrls({ urls: [page.url] })
      const [cached, stats] = yield* ResultCache.track(fetchUrls({ urls: [page.url] }))
      expect(stats).toEqual({ hits: 1, misses: 0 })
      expect(cached.results[0].pageType).toBe("forum")
      const first = yield* Effect.flip(fetchUrls({ urls: ["https://wall.example/"] }))
      const second = yield* Effect.flip(fetchUrls({ urls: ["https://wall.example/"] }))
      expect(first).toMatchObject({ _tag: "RequestFailed", reason: "blocked", retryable: false })
      expect(second.message).toBe(first.message)
      expect(local.recorder.started).toEqual([page.url, "https://wall.example/"])
    }).pipe(Effect.provide(withCache(Stores.cacheStore(), [local])))
  })

  it.effect("retryable, key- or settings-dependent failures are never cached", () => {
    const errors: Record<string, WebSearchError.WebSearchError> = {
      "https://5xx.example/": WebSearchError.requestFailed("http_5xx", "upstream 503"),
      "https://429.example/": WebSearchError.requestFailed("http_429", "slow down"),
      "https://403.example/": WebSearchError.requestFailed("http_403", "forbidden"),
      "https://ssrf.example/": WebSearchError.requestFailed("ssrf_rejected", "private address"),
      "https://key.example/": WebSearchError.unavailable("credentials_rejected", "bad key")
    }
    const local = localFetch((input) => Drivers.fail(errors[input]))
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      for (const round of [1, 2]) {
        const error = yield* Effect.flip(fetchUrls({ urls: Object.keys(errors) }))
        expect(error.failures).toHaveLength(5)
        expect(local.recorder.started).toHaveLength(5 * round)
      }
      expect(store.entries.size).toBe(0)
    }).pipe(Effect.provide(withCache(store, [local])))
  })

  it.effect("an interrupted call is never cached, nor is a timeout", () => {
    const ddg = ddgSearch(Drivers.byInput({ slow: Drivers.never, late: Drivers.succeed(1, { delay: "1 minute" }) }))
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(search(["slow"]))
      yield* Drivers.awaitStarted(ddg.recorder, 1)
      yield* Fiber.interrupt(fiber)
      expect(ddg.recorder.interrupted).toEqual(["slow"])

      const timedOut = yield* Effect.fork(Effect.flip(search(["late"])))
      yield* Drivers.awaitStarted(ddg.recorder, 2)
      yield* TestClock.adjust("20 seconds")
      const error = yield* Drivers.joinPromptly(timedOut)
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "timeout" })
      expect(store.entries.size).toBe(0)

      yield* Effect.fork(search(["slow"]))
      yield* Drivers.awaitStarted(ddg.recorder, 3)
      expect(ddg.recorder.started).toEqual(["slow", "late", "slow"])
    }).pipe(Effect.provide(withCache(store, [ddg])))
  })

  it.effect("concurrent misses for one key make one driver call; the others wait for it and count as hits", () => {
    const ddg = ddgSearch(Drivers.succeed(2, { delay: "1 second" }))
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      const first = yield* Effect.fork(search(["effect"]))
      yield* Drivers.awaitStarted(ddg.recorder, 1)
      const others = yield* Effect.fork(Effect.all([search(["effect"]), search([" effect "])], { concurrency: 2 }))
      yield* TestClock.adjust("1 second")
      const [leader, leaderStats] = yield* Drivers.joinPromptly(first)
      const waited = yield* Drivers.joinPromptly(others)
      expect(ddg.recorder.started).toEqual(["effect"])
      expect(leaderStats).toEqual({ hits: 0, misses: 1 })
      for (const [response, stats] of waited) {
        expect(response.results).toEqual(leader.results)
        expect(stats).toEqual({ hits: 1, misses: 0 })
      }
    }).pipe(Effect.provide(withCache(store, [ddg])))
  })

  it.effect("a waiting call whose leader is interrupted makes the call itself instead of failing", () => {
    let calls = 0
    const ddg = ddgSearch(() => (++calls === 1 ? Drivers.never : Drivers.succeed(1)))
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      const leader = yield* Effect.fork(search(["effect"]))
      yield* Drivers.awaitStarted(ddg.recorder, 1)
      const follower = yield* Effect.fork(search(["effect"]))
      // Let the follower reach the in-flight call before its leader goes away.
      for (let i = 0; i < 50; i++) yield* Effect.yieldNow()
      yield* Fiber.interrupt(leader)
      const [response, stats] = yield* Drivers.joinPromptly(follower)
      expect(response.results).toHaveLength(1)
      expect(ddg.recorder.started).toEqual(["effect", "effect"])
      expect(ddg.recorder.interrupted).toEqual(["effect"])
      // It waited once (a shared hit that came to nothing) and then called the driver itself.
      expect(stats).toEqual({ hits: 1, misses: 1 })
    }).pipe(Effect.provide(withCache(store, [ddg])))
  })

  it.effect("a defect is not cached", () => {
    let calls = 0
    const ddg = ddgSearch(() => (++calls === 1 ? Drivers.die(new Error("driver bug")) : Drivers.succeed(1)))
    return Effect.gen(function* () {
      const error = yield* Effect.flip(searchKeywords({ keywords: ["q"] }))
      expect(error).toMatchObject({ _tag: "ResponseInvalid", reason: "parse_failed" })
      const response = yield* searchKeywords({ keywords: ["q"] })
      expect(response.results).toHaveLength(1)
    }).pipe(Effect.provide(withCache(Stores.cacheStore(), [ddg])))
  })

  it.effect("with a fallback chain, each provider's answer is cached under its own key", () => {
    const tavily = Drivers.makeDriver("tavily", {
      searchKeywords: Drivers.fail(WebSearchError.responseInvalid("decode_failed", "garbage"))
    })
    const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(2) })
    const settings: Settings.SettingsInput = {
      defaults: { searchKeywords: "tavily" },
      fallbacks: { searchKeywords: ["brave"] },
      providers: { tavily: { apiKeys: ["tvly-key-0001"] }, brave: { apiKeys: ["brave-key-0001"] } }
    }
    return Effect.gen(function* () {
      const [first, firstStats] = yield* search(["q"])
      expect(first.providerId).toBe("brave")
      expect(firstStats).toEqual({ hits: 0, misses: 2 })
      const [second, secondStats] = yield* search(["q"])
      expect(second.providerId).toBe("brave")
      expect(second.results).toEqual(first.results)
      expect(secondStats).toEqual({ hits: 2, misses: 0 })
      expect([tavily.recorder.started, brave.recorder.started]).toEqual([["q"], ["q"]])
      // Once tavily's cached failure expires it is asked again; brave's success is still cached.
      yield* TestClock.adjust("30 seconds")
      const [, thirdStats] = yield* search(["q"])
      expect(thirdStats).toEqual({ hits: 1, misses: 1 })
      expect([tavily.recorder.started.length, brave.recorder.started.length]).toEqual([2, 1])
    }).pipe(Effect.provide(withCache(Stores.cacheStore(), [tavily, brave], settings)))
  })

  it.effect("what is stored never contains an API key, even one a driver quoted in an error", () => {
    const key = "tvly-secret-key-123456"
    const tavily = Drivers.makeDriver("tavily", {
      searchKeywords: Drivers.fail(WebSearchError.responseInvalid("decode_failed", `bad answer for key ${key}`))
    })
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      const first = yield* Effect.flip(searchKeywords({ keywords: ["q"] }))
      const second = yield* Effect.flip(searchKeywords({ keywords: ["q"] }))
      expect(tavily.recorder.started).toHaveLength(1)
      expect(store.entries.size).toBe(1)
      for (const [cacheKey, entry] of store.entries) {
        expect(cacheKey).not.toContain(key)
        expect(entry.json).not.toContain(key)
        expect(entry.json).toContain("[redacted]")
      }
      expect(first.message).not.toContain(key)
      expect(second.message).not.toContain(key)
    }).pipe(
      Effect.provide(
        withCache(store, [tavily], {
          defaults: { searchKeywords: "tavily" },
          providers: { tavily: { apiKeys: [key] } }
        })
      )
    )
  })

  it.effect("a failing store is a miss: the request is answered by the provider, and the failure logged", () => {
    const ddg = ddgSearch()
    const logs = Drivers.captureLogs()
    return Effect.gen(function* () {
      const [response, stats] = yield* search(["q"])
      yield* search(["q"])
      expect(response.results).toHaveLength(2)
      expect(stats).toEqual({ hits: 0, misses: 1 })
      expect(ddg.recorder.started).toHaveLength(2)
      expect(logs.entries.some((e) => e.level === "WARN" && e.message.includes("result cache get failed"))).toBe(true)
    }).pipe(Effect.provide(Layer.mergeAll(withCache(Stores.failingCacheStore, [ddg]), logs.layer)))
  })

  it.effect("a store that does not answer is a miss after the store timeout", () => {
    const ddg = ddgSearch()
    const hanging: ResultCache.Store = { get: () => Effect.never, set: () => Effect.never }
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(search(["q"]))
      yield* awaitSleeping
      yield* TestClock.adjust("1 second")
      yield* Drivers.awaitStarted(ddg.recorder, 1)
      yield* awaitSleeping
      yield* TestClock.adjust("1 second")
      const [response] = yield* Drivers.joinPromptly(fiber)
      expect(response.results).toHaveLength(2)
    }).pipe(Effect.provide(withCache(hanging, [ddg])))
  })

  it.effect("an entry that does not decode (another version wrote it) is a miss and is overwritten", () => {
    const ddg = ddgSearch()
    const store = Stores.cacheStore()
    return Effect.gen(function* () {
      yield* search(["q"])
      const [cacheKey] = store.entries.keys()
      store.entries.set(cacheKey, { json: JSON.stringify({ _tag: "Success", results: 42 }), expires: Infinity })
      const [, stats] = yield* search(["q"])
      expect(stats).toEqual({ hits: 0, misses: 1 })
      const [, again] = yield* search(["q"])
      expect(again).toEqual({ hits: 1, misses: 0 })
      expect(ddg.recorder.started).toHaveLength(2)
    }).pipe(Effect.provide(withCache(store, [ddg])))
  })

  it.effect("hits and misses are span attributes of the provider call", () => {
    const ddg = ddgSearch()
    return Effect.gen(function* () {
      const base = yield* Effect.tracer
      const spans: Array<Tracer.Span> = []
      const tracer = Tracer.make({
        span: (...args) => {
          const span = base.span(...args)
          spans.push(span)
          return span
        },
        context: (f, fiber) => base.context(f, fiber)
      })
      yield* Effect.withTracer(Effect.zipRight(search(["a"]), search(["a", "b"])), tracer)
      const calls = spans.filter((s) => s.name === "websearch.provider.searchKeywords")
      expect(calls.map((s) => s.attributes.get("websearch.cache"))).toEqual(["miss", "hit", "miss"])
    }).pipe(Effect.provide(withCache(Stores.cacheStore(), [ddg])))
  })

  it.effect("without a cache layer nothing is cached or counted (the default)", () => {
    const ddg = ddgSearch()
    return Effect.gen(function* () {
      yield* search(["q"])
      const [, stats] = yield* search(["q"])
      expect(ddg.recorder.started).toHaveLength(2)
      expect(stats).toEqual({ hits: 0, misses: 0 })
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect("research is never cached", () => {
    const openai = Drivers.makeDriver("openai", { research: Drivers.succeed(1) })
    return Effect.gen(function* () {
      const ask = ResultCache.track(Research.research({ query: "what is effect", allowedDomains: [] }))
      yield* ask
      const [, stats] = yield* ask
      expect(openai.recorder.started).toHaveLength(2)
      expect(stats).toEqual({ hits: 0, misses: 0 })
    }).pipe(
      Effect.provide(
        withCache(Stores.cacheStore(), [openai], {
          defaults: { research: "openai" },
          providers: { openai: { apiKeys: ["sk-test-0001"] } }
        })
      )
    )
  })

  it.effect("nested track calls each count the look-ups made inside them", () => {
    const ddg = ddgSearch()
    return Effect.gen(function* () {
      const [[, inner], outer] = yield* ResultCache.track(
        Effect.zipRight(search(["a"]), ResultCache.track(searchKeywords({ keywords: ["a", "b"] })))
      )
      expect(inner).toEqual({ hits: 1, misses: 1 })
      expect(outer).toEqual({ hits: 1, misses: 2 })
    }).pipe(Effect.provide(withCache(Stores.cacheStore(), [ddg])))
  })
})

// --- Keys -------------------------------------------------------------------------------------------------

const base: ResultCache.Request = {
  providerId: "tavily",
  capability: "searchKeywords",
  input: "effect",
  maxResults: 10,
  apiHost: Option.some("https://api.tavily.com"),
  engines: []
}

const word = FastCheck.stringMatching(/^[^\s]{1,8}$/)
const space = FastCheck.constantFrom(" ", "  ", "\t", "\n", " \u00a0", "\u3000")
const providerId = FastCheck.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/)
const anyInput = FastCheck.string({ maxLength: 40 })

describe("ResultCache keys", () => {
  it.prop(
    "keywords that differ only in whitespace (and Unicode composition) share a key",
    [FastCheck.array(word, { minLength: 1, maxLength: 5 }), FastCheck.array(space, { minLength: 7, maxLength: 7 })],
    ([words, spaces]) => {
      const padded = spaces[0] + words.map((w, i) => (i === 0 ? w : spaces[i % spaces.length] + w)).join("") + spaces[6]
      const canonical = words.join(" ").normalize("NFC")
      expect(ResultCache.key({ ...base, input: padded })).toBe(ResultCache.key({ ...base, input: canonical }))
      expect(ResultCache.key({ ...base, input: padded.normalize("NFD") })).toBe(
        ResultCache.key({ ...base, input: canonical })
      )
    }
  )

  it.prop(
    "URLs that differ in scheme/host case, default port or fragment share a key",
    [FastCheck.webUrl({ withQueryParameters: true }), FastCheck.webFragments()],
    ([url, fragment]) => {
      const parsed = new URL(url)
      const defaultPort = parsed.port === "" ? (parsed.protocol === "https:" ? ":443" : ":80") : ""
      const variant =
        url.replace(/^[a-z]+:\/\/[^/?#]+/, (origin) => origin.toUpperCase() + defaultPort) + "#" + fragment
      const fetch = { ...base, capability: "fetchUrls" as const }
      expect(ResultCache.key({ ...fetch, input: ` ${variant} ` })).toBe(ResultCache.key({ ...fetch, input: url }))
    }
  )

  it.prop(
    "different providers or capabilities never share a key, whatever the inputs",
    [providerId, providerId, anyInput, anyInput],
    ([a, b, inputA, inputB]) => {
      FastCheck.pre(a !== b)
      expect(ResultCache.key({ ...base, providerId: a, input: inputA })).not.toBe(
        ResultCache.key({ ...base, providerId: b, input: inputB })
      )
      expect(ResultCache.key({ ...base, providerId: a, input: inputA })).not.toBe(
        ResultCache.key({ ...base, providerId: a, capability: "fetchUrls", input: inputB })
      )
    }
  )

  it.prop(
    "the key is a function of the normalised input: equal keys mean equal normalised inputs",
    [anyInput, anyInput, FastCheck.constantFrom("searchKeywords" as const, "fetchUrls" as const)],
    ([x, y, capability]) => {
      const same =
        ResultCache.key({ ...base, capability, input: x }) === ResultCache.key({ ...base, capability, input: y })
      expect(same).toBe(ResultCache.normalizeInput(capability, x) === ResultCache.normalizeInput(capability, y))
    }
  )

  it("maxResults separates search entries only; apiHost and engines separate both", () => {
    const fetch = { ...base, capability: "fetchUrls" as const, input: "https://a.example/" }
    expect(ResultCache.key({ ...base, maxResults: 3 })).not.toBe(ResultCache.key(base))
    expect(ResultCache.key({ ...fetch, maxResults: 3 })).toBe(ResultCache.key(fetch))
    expect(ResultCache.key({ ...base, apiHost: Option.some("https://proxy.example") })).not.toBe(ResultCache.key(base))
    expect(ResultCache.key({ ...fetch, apiHost: Option.none() })).not.toBe(ResultCache.key(fetch))
    expect(ResultCache.key({ ...base, engines: ["google"] })).not.toBe(ResultCache.key(base))
  })

  it.effect("cache TTL settings are validated with clear errors", () =>
    Effect.gen(function* () {
      const bad = (cache: unknown) => Effect.flip(Settings.make({ cache })).pipe(Effect.map((e) => e.message))
      expect(yield* bad({ searchKeywords: "forever" })).toContain('"forever" is not a duration')
      expect(yield* bad({ failures: "2 hours" })).toContain("cache.failures must be from 0 to 1h")
      expect(yield* bad({ fetchUrls: 1.5 })).toContain("is not a duration")
      expect(yield* bad({ research: 1000 })).toContain("research")
      const loaded = yield* Settings.make({ cache: { searchKeywords: "90 seconds", fetchUrls: 0 } })
      expect(Duration.toMillis(loaded.cache.searchKeywords)).toBe(90_000)
      expect(Duration.isZero(loaded.cache.fetchUrls)).toBe(true)
      expect(Duration.toMillis(loaded.cache.failures)).toBe(30_000)
    })
  )

  it("the failure policy keeps only answers about the input itself", () => {
    const policy = { success: Duration.minutes(10), failure: Duration.seconds(30) }
    const ttl = (error: WebSearchError.WebSearchError) =>
      Duration.toMillis(ResultCache.timeToLive(Exit.fail(error), policy))
    expect(ttl(WebSearchError.requestFailed("http_404", "x"))).toBe(30_000)
    expect(ttl(WebSearchError.responseInvalid("empty_content", "x"))).toBe(30_000)
    expect(ttl(WebSearchError.requestFailed("http_429", "x"))).toBe(0)
    expect(ttl(WebSearchError.requestFailed("timeout", "x"))).toBe(0)
    expect(ttl(WebSearchError.requestFailed("blacklisted", "x"))).toBe(0)
    expect(ttl(WebSearchError.aborted("x"))).toBe(0)
    expect(ttl(WebSearchError.unavailable("credentials_rejected", "x"))).toBe(0)
    expect(Duration.toMillis(ResultCache.timeToLive(Exit.interrupt(FiberId.none), policy))).toBe(0)
    expect(Duration.toMillis(ResultCache.timeToLive(Exit.die(new Error("bug")), policy))).toBe(0)
  })
})
