import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import type * as Composition from "../src/Composition.js"
import * as FetchUrls from "../src/FetchUrls.js"
import * as ProviderQuota from "../src/ProviderQuota.js"
import * as ResultCache from "../src/ResultCache.js"
import { searchKeywords } from "../src/SearchKeywords.js"
import * as Settings from "../src/Settings.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"
import * as Registry from "./support/registry.js"
import * as Stores from "./support/stores.js"

const settings = (rateLimit?: { limit: number; window: string | number; maxWait?: string | number }) =>
  ({
    defaults: { searchKeywords: "tavily" },
    providers: { tavily: { apiKeys: ["tvly-key-0001"], ...(rateLimit === undefined ? {} : { rateLimit }) } }
  }) satisfies Settings.SettingsInput

const withQuota = (
  store: ProviderQuota.Store,
  drivers: ReadonlyArray<Drivers.TestDriver>,
  input: Settings.SettingsInput,
  parts: ReadonlyArray<Layer.Layer<never, never, Composition.Composition>> = []
) => Drivers.layer(drivers, input, ProviderQuota.layer(store), parts)

const tavilyDriver = (script: Drivers.Scripted = Drivers.succeed(1)) =>
  Drivers.makeDriver("tavily", { searchKeywords: script })

const awaitSleeping = Effect.gen(function* () {
  for (let attempt = 0; attempt < 10_000; attempt++) {
    if ((yield* TestClock.sleeps()).length > 0) return
    yield* Effect.yieldNow()
  }
  return yield* Effect.dieMessage("nothing went to sleep on the TestClock")
})

describe("ProviderQuota in the pipeline", () => {
  it.effect("the limit holds: calls over budget fail rate_limited with retryAfter until the bucket refills", () => {
    const tavily = tavilyDriver()
    return Effect.gen(function* () {
      const response = yield* searchKeywords({ keywords: ["a", "b", "c"] })
      expect(tavily.recorder.started).toEqual(["a", "b"])
      expect(response.failures).toHaveLength(1)
      expect(response.failures[0]).toMatchObject({
        input: "c",
        _tag: "RequestFailed",
        reason: "rate_limited",
        retryable: true,
        retryAfter: 30
      })
      const error = yield* Effect.flip(searchKeywords({ keywords: ["d"] }))
      expect(error).toMatchObject({ reason: "rate_limited", providerId: "tavily", capability: "searchKeywords" })
      expect(error.message).toContain("2 calls per 1m")
      yield* TestClock.adjust("30 seconds")
      yield* searchKeywords({ keywords: ["d"] })
      expect(tavily.recorder.started).toEqual(["a", "b", "d"])
      expect((yield* Effect.flip(searchKeywords({ keywords: ["e"] }))).reason).toBe("rate_limited")
    }).pipe(
      Effect.provide(withQuota(Stores.quotaStore(), [tavily], settings({ limit: 2, window: "1 minute", maxWait: 0 })))
    )
  })

  it.effect("a short wait is waited out; a long one fails at once", () => {
    const tavily = tavilyDriver()
    return Effect.gen(function* () {
      yield* searchKeywords({ keywords: ["a"] })
      const fiber = yield* Effect.fork(searchKeywords({ keywords: ["b"] }))
      yield* awaitSleeping
      expect(tavily.recorder.started).toEqual(["a"])
      yield* TestClock.adjust("1 second")
      const response = yield* Drivers.joinPromptly(fiber)
      expect(response.results).toHaveLength(1)
      expect(tavily.recorder.started).toEqual(["a", "b"])
    }).pipe(Effect.provide(withQuota(Stores.quotaStore(), [tavily], settings({ limit: 1, window: "1 second" }))))
  })

  it.effect("a wait longer than maxWait fails without waiting", () => {
    const tavily = tavilyDriver()
    return Effect.gen(function* () {
      yield* searchKeywords({ keywords: ["a"] })
      const error = yield* Effect.flip(searchKeywords({ keywords: ["b"] }))
      expect(error).toMatchObject({ reason: "rate_limited", retryAfter: 3 })
      expect(tavily.recorder.started).toEqual(["a"])
    }).pipe(
      Effect.provide(
        withQuota(Stores.quotaStore(), [tavily], settings({ limit: 1, window: "3 seconds", maxWait: "2 seconds" }))
      )
    )
  })

  it.effect("a Retry-After from the provider holds every later call off until then", () => {
    let calls = 0
    const tavily = tavilyDriver(() =>
      ++calls === 1
        ? Drivers.fail(WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 30 }))
        : Drivers.succeed(1)
    )
    const store = Stores.quotaStore()
    return Effect.gen(function* () {
      const first = yield* Effect.flip(searchKeywords({ keywords: ["a"] }))
      expect(first).toMatchObject({ reason: "http_429", retryAfter: 30 })
      // Another input, not a retry of the same: still held off, and the driver is not called.
      const second = yield* Effect.flip(searchKeywords({ keywords: ["b"] }))
      expect(second).toMatchObject({ reason: "rate_limited", retryAfter: 30, providerId: "tavily" })
      expect(second.message).toContain("Retry-After")
      // Tavily's published budget lets a call wait up to 15 seconds; 20 seconds of hold-off are still too long.
      yield* TestClock.adjust("10 seconds")
      const third = yield* Effect.flip(searchKeywords({ keywords: ["c"] }))
      expect(third).toMatchObject({ reason: "rate_limited", retryAfter: 20 })
      expect(tavily.recorder.started).toEqual(["a"])
      yield* TestClock.adjust("20 seconds")
      yield* searchKeywords({ keywords: ["b"] })
      expect(tavily.recorder.started).toEqual(["a", "b"])
    }).pipe(Effect.provide(withQuota(store, [tavily], settings())))
  })

  it.effect("a short Retry-After is waited out, even for a provider without a configured limit", () => {
    let calls = 0
    const tavily = tavilyDriver(() =>
      ++calls === 1
        ? Drivers.fail(WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 1 }))
        : Drivers.succeed(1)
    )
    return Effect.gen(function* () {
      yield* Effect.flip(searchKeywords({ keywords: ["a"] }))
      const fiber = yield* Effect.fork(searchKeywords({ keywords: ["b"] }))
      yield* awaitSleeping
      expect(tavily.recorder.started).toEqual(["a"])
      yield* TestClock.adjust("1 second")
      yield* Drivers.joinPromptly(fiber)
      expect(tavily.recorder.started).toEqual(["a", "b"])
    }).pipe(Effect.provide(withQuota(Stores.quotaStore(), [tavily], settings())))
  })

  it.effect("a later, shorter Retry-After does not shorten a hold-off", () => {
    return Effect.gen(function* () {
      const quota = yield* ProviderQuota.make(Stores.quotaStore())
      yield* quota.holdOff("tavily", Duration.minutes(1))
      yield* quota.holdOff("tavily", Duration.seconds(5))
      yield* TestClock.adjust("10 seconds")
      const error = yield* Effect.flip(quota.acquire({ providerId: "tavily", rateLimit: Option.none() }))
      expect(error.retryAfter).toBe(50)
    })
  })

  it.effect("a quota over a failing store lets calls through and logs the outage", () => {
    const tavily = tavilyDriver()
    const logs = Drivers.captureLogs()
    return Effect.gen(function* () {
      yield* searchKeywords({ keywords: ["a", "b", "c"] })
      expect(tavily.recorder.started).toHaveLength(3)
      expect(logs.entries.some((e) => e.level === "WARN" && e.message.includes("provider quota"))).toBe(true)
    }).pipe(
      Effect.provide(
        Layer.merge(
          withQuota(Stores.failingQuotaStore, [tavily], settings({ limit: 1, window: "1 minute", maxWait: 0 })),
          logs.layer
        )
      )
    )
  })

  it.effect("a store that never answers is given up on at the store timeout: the call goes through, logged", () => {
    const tavily = tavilyDriver()
    const logs = Drivers.captureLogs()
    const hung: ProviderQuota.Store = {
      consume: () => Effect.never,
      holdOffUntil: () => Effect.never,
      setHoldOff: () => Effect.never
    }
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(searchKeywords({ keywords: ["a"] }))
      yield* awaitSleeping
      expect(tavily.recorder.started).toHaveLength(0)
      yield* TestClock.adjust("1 second")
      yield* TestClock.adjust("1 second")
      const response = yield* fiber.await.pipe(Effect.flatten)
      expect(response.results).toHaveLength(1)
      expect(tavily.recorder.started).toHaveLength(1)
      expect(logs.entries.some((e) => e.level === "WARN" && e.message.includes("no answer within"))).toBe(true)
    }).pipe(
      Effect.provide(
        Layer.merge(withQuota(hung, [tavily], settings({ limit: 1, window: "1 minute", maxWait: 0 })), logs.layer)
      )
    )
  })

  it.effect("a cache hit spends no quota", () => {
    const tavily = tavilyDriver()
    return Effect.gen(function* () {
      yield* searchKeywords({ keywords: ["a"] })
      for (let i = 0; i < 5; i++) yield* searchKeywords({ keywords: ["a"] })
      expect(tavily.recorder.started).toEqual(["a"])
      const error = yield* Effect.flip(searchKeywords({ keywords: ["b"] }))
      expect(error.reason).toBe("rate_limited")
    }).pipe(
      Effect.provide(
        withQuota(Stores.quotaStore(), [tavily], settings({ limit: 1, window: "1 minute", maxWait: 0 }), [
          ResultCache.layer(Stores.cacheStore())
        ])
      )
    )
  })

  it.effect("without a quota layer the registry's quota in memory applies the configured budget", () => {
    const tavily = tavilyDriver()
    return Effect.gen(function* () {
      const response = yield* searchKeywords({ keywords: ["a", "b", "c"] })
      expect(tavily.recorder.started).toHaveLength(1)
      expect(response.failures.map((f) => f.reason)).toEqual(["rate_limited", "rate_limited"])
    }).pipe(Effect.provide(Drivers.layer([tavily], settings({ limit: 1, window: "1 hour", maxWait: 0 }), "default")))
  })

  it.effect("a local fetcher's Retry-After is one site's: other sites are still fetched", () => {
    const fetch = Drivers.makeDriver("fetch", {
      fetchUrls: Drivers.byInput({
        "https://busy.example/": Drivers.fail(WebSearchError.requestFailed("http_429", "busy site", { retryAfter: 30 }))
      })
    })
    return Effect.gen(function* () {
      const busy = yield* Effect.flip(FetchUrls.fetchUrls({ urls: ["https://busy.example/"] }))
      expect(busy).toMatchObject({ reason: "http_429", retryAfter: 30 })
      const other = yield* FetchUrls.fetchUrls({ urls: ["https://calm.example/"] })
      expect(other.results).toHaveLength(1)
      expect(fetch.recorder.started).toEqual(["https://busy.example/", "https://calm.example/"])
    }).pipe(Effect.provide(Drivers.layer([fetch], {}, "default")))
  })

  it.effect("two applications (two WebSearch layers) keep their own budgets in memory", () => {
    const first = tavilyDriver()
    const second = tavilyDriver()
    const input = settings({ limit: 1, window: "1 hour", maxWait: 0 })
    return Effect.gen(function* () {
      yield* searchKeywords({ keywords: ["a", "b"] }).pipe(Effect.provide(Drivers.layer([first], input, "default")))
      yield* searchKeywords({ keywords: ["a", "b"] }).pipe(Effect.provide(Drivers.layer([second], input, "default")))
      expect(first.recorder.started).toEqual(["a"])
      expect(second.recorder.started).toEqual(["a"])
    })
  })

  it.effect("a preset's published budget applies when the user sets none, and the user's replaces it", () =>
    Effect.gen(function* () {
      const published = yield* Registry.load({ providers: { brave: { apiKeys: ["k-0001"] } } })
      expect(
        Option.map(published.providers.get("brave")!.rateLimit, (r) => [r.limit, Duration.toMillis(r.window)])
      ).toEqual(Option.some([1, 1000]))
      const own = yield* Registry.load({
        providers: { brave: { apiKeys: ["k-0001"], rateLimit: { limit: 20, window: "1 second" } } }
      })
      expect(Option.map(own.providers.get("brave")!.rateLimit, (r) => r.limit)).toEqual(Option.some(20))
      const none = yield* Registry.load({})
      expect(Option.isNone(none.providers.get("serper")!.rateLimit)).toBe(true)
    })
  )

  it.effect("a wait counts against the per-input timeout", () => {
    const tavily = tavilyDriver()
    return Effect.gen(function* () {
      yield* searchKeywords({ keywords: ["a"] })
      const fiber = yield* Effect.fork(Effect.flip(searchKeywords({ keywords: ["b"] })))
      yield* awaitSleeping
      yield* TestClock.adjust("5 seconds")
      const error = yield* Drivers.joinPromptly(fiber)
      expect(error.reason).toBe("timeout")
      expect(tavily.recorder.started).toEqual(["a"])
    }).pipe(
      Effect.provide(
        withQuota(Stores.quotaStore(), [tavily], {
          ...settings({ limit: 1, window: "1 minute", maxWait: "2 minutes" }),
          timeouts: { searchKeywords: 5_000 }
        })
      )
    )
  })
})

describe("rate limit settings", () => {
  it.effect("a provider's rateLimit is validated with clear errors", () =>
    Effect.gen(function* () {
      const bad = (rateLimit: unknown) =>
        Effect.flip(Settings.make({ providers: { tavily: { rateLimit } } })).pipe(Effect.map((e) => e.message))
      expect(yield* bad({ limit: 0, window: "1 minute" })).toContain("an integer from 1 to 1000000")
      expect(yield* bad({ limit: 10, window: "soon" })).toContain('"soon" is not a duration')
      expect(yield* bad({ limit: 10, window: "-1 seconds" })).toContain("is not a duration")
      expect(yield* bad({ limit: 10, window: 0 })).toContain("a rate limit window must be from")
      expect(yield* bad({ limit: 10, window: "2 days" })).toContain("a rate limit window must be from")
      expect(yield* bad({ limit: 10, window: "1 minute", burst: 3 })).toContain("burst")
      expect(yield* bad({ limit: 10 })).toContain("window")
      const good = yield* Registry.load({
        providers: { tavily: { rateLimit: { limit: 100, window: "1 minute", maxWait: 500 } } }
      })
      const tavily = good.providers.get("tavily")
      expect(tavily?.rateLimit._tag).toBe("Some")
      if (tavily?.rateLimit._tag === "Some") {
        expect(tavily.rateLimit.value.limit).toBe(100)
        expect(Duration.toMillis(tavily.rateLimit.value.window)).toBe(60_000)
        expect(Duration.toMillis(tavily.rateLimit.value.maxWait)).toBe(500)
      }
    })
  )

  it.effect("rate limits and cache TTLs are read from the environment", () =>
    Effect.gen(function* () {
      const env = (entries: ReadonlyArray<readonly [string, string]>) =>
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries)))
      const document = yield* Settings.fromConfig.pipe(
        env([
          ["TAVILY_RATE_LIMIT", "100/1 minute"],
          ["TAVILY_RATE_LIMIT_MAX_WAIT", "5 seconds"],
          ["WEBSEARCH_CACHE_SEARCH_KEYWORDS_TTL", "5 minutes"],
          ["WEBSEARCH_CACHE_FAILURES_TTL", "0"]
        ])
      )
      // A provider's variables are read for the composed providers when the application's layer is built.
      expect(document.providers).toBeUndefined()
      expect(document.cache).toEqual({ searchKeywords: "5 minutes", failures: "0" })
      const loaded = yield* Settings.make(document)
      expect(Duration.toMillis(loaded.cache.searchKeywords)).toBe(300_000)
      expect(Duration.toMillis(loaded.cache.fetchUrls)).toBe(3_600_000)
      expect(Duration.toMillis(loaded.cache.failures)).toBe(0)
      const registry = yield* Registry.fromLayer(Settings.layerConfig()).pipe(
        env([
          ["TAVILY_RATE_LIMIT", "100/1 minute"],
          ["TAVILY_RATE_LIMIT_MAX_WAIT", "5 seconds"]
        ])
      )
      expect(
        Option.map(registry.providers.get("tavily")!.rateLimit, (r) => [
          r.limit,
          Duration.toMillis(r.window),
          Duration.toMillis(r.maxWait)
        ])
      ).toEqual(Option.some([100, 60_000, 5_000]))
      const bad = yield* Effect.flip(
        Registry.fromLayer(Settings.layerConfig()).pipe(env([["TAVILY_RATE_LIMIT", "lots"]]))
      )
      expect(bad.reason).toBe("invalid_config")
      expect(bad.message).toContain("TAVILY_RATE_LIMIT")
      expect(bad.message).toContain("(from environment)")
    })
  )
})
