import { afterAll, describe, expect, it } from "@effect/vitest"
import type * as Composition from "@websearch/core/Composition"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as ResultCache from "@websearch/core/ResultCache"
import { searchKeywords } from "@websearch/core/SearchKeywords"
import type * as Settings from "@websearch/core/Settings"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import * as SharedStores from "../src/SharedStores.js"
import * as RedisServer from "../../../test-support/redisServer.js"
import * as Replica from "./support/replica.js"

// One redis-server for the file, started by the first test that needs it (so the in-memory suite still runs,
// and every Redis test fails with the reason, when redis-server is missing); every test uses its own key prefix,
// as unrelated deployments would.
const serverScope = Effect.runSync(Scope.make())
let starting: Promise<RedisServer.RedisServer> | undefined
const server: Effect.Effect<RedisServer.RedisServer> = Effect.promise(
  () => (starting ??= Effect.runPromise(Scope.extend(RedisServer.start(), serverScope)))
)
afterAll(() => Effect.runPromise(Scope.close(serverScope, Exit.void)))

let prefixes = 0
const freshPrefix = () => `test${process.pid}x${++prefixes}x${Date.now()}`

interface Backend {
  readonly name: string
  /** A new, independent instance of the stores (same backing data for Redis with the same prefix). */
  readonly stores: (
    prefix: string
  ) => Layer.Layer<SharedStores.SharedStores, WebSearchError.Unavailable, Composition.Composition>
}

const backends: ReadonlyArray<Backend> = [
  { name: "memory", stores: () => SharedStores.layerMemory() },
  {
    name: "Redis",
    stores: (prefix) => Layer.unwrapEffect(Effect.map(server, (s) => SharedStores.layerRedisUrl(s.url, { prefix })))
  }
]

/** Builds a replica once (its stores live as long as the test's scope) and returns a runner for requests. */
const replica = (
  backend: Backend,
  prefix: string,
  settings: Settings.SettingsInput,
  script?: Parameters<typeof Replica.countingDriver>[1]
) =>
  Effect.gen(function* () {
    const counting = Replica.countingDriver("duckduckgo", script)
    const context = yield* Layer.build(Replica.layer(counting.driver, settings, backend.stores(prefix)))
    return {
      calls: counting.calls,
      run: <A, E>(effect: Effect.Effect<A, E, never>) => Effect.provide(effect, context),
      search: (keywords: ReadonlyArray<string>) =>
        Effect.provide(ResultCache.track(searchKeywords({ keywords })), context),
      quota: Effect.provide(
        Effect.map(ProviderRegistry.ProviderRegistry, (registry) => registry.quota),
        context
      )
    }
  })

const rateLimited = (rateLimit: { limit: number; window: string | number; maxWait?: string | number }) => ({
  providers: { duckduckgo: { rateLimit } }
})

/**
 * A clock that moves only when told (store operations here never sleep: maxWait is 0). The TestClock would do,
 * but every adjustment waits for fibers to settle, which makes a property with thousands of steps crawl.
 */
const manualClock = (): { readonly clock: Clock.Clock; readonly time: { now: number } } => {
  const time = { now: 1_700_000_000_000 }
  const nanos = () => BigInt(time.now) * 1_000_000n
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => time.now,
    unsafeCurrentTimeNanos: nanos,
    currentTimeMillis: Effect.sync(() => time.now),
    currentTimeNanos: Effect.sync(nanos),
    sleep: () => Effect.never
  }
  return { clock, time }
}

for (const backend of backends) {
  describe(`shared stores in ${backend.name}`, () => {
    it.scopedLive("a repeated search is a cache hit: the driver is not called and the results are identical", () =>
      Effect.gen(function* () {
        const a = yield* replica(backend, freshPrefix(), {})
        const [first, firstStats] = yield* a.search(["effect layers", "redis"])
        const [second, secondStats] = yield* a.search(["effect layers", "redis"])
        expect(a.calls).toEqual(["effect layers", "redis"])
        expect(second.results).toEqual(first.results)
        expect(first.results[0].content).toContain("日本語, emoji 🎉")
        expect([ResultCache.status(firstStats), ResultCache.status(secondStats)]).toEqual([
          Option.some("miss"),
          Option.some("hit")
        ])
      })
    )

    it.scopedLive("an entry expires after its TTL", () =>
      Effect.gen(function* () {
        const a = yield* replica(backend, freshPrefix(), { cache: { searchKeywords: 300 } })
        yield* a.search(["q"])
        yield* a.search(["q"])
        expect(a.calls).toHaveLength(1)
        yield* Effect.sleep("400 millis")
        const [, stats] = yield* a.search(["q"])
        expect(stats).toEqual({ hits: 0, misses: 1 })
        expect(a.calls).toHaveLength(2)
      })
    )

    it.scopedLive("a cached 404 is served for the failure TTL only; a 5xx is never cached", () =>
      Effect.gen(function* () {
        const a = yield* replica(backend, freshPrefix(), { cache: { failures: 300 } }, (input) =>
          Replica.failure(
            input === "gone"
              ? WebSearchError.requestFailed("http_404", "no such page")
              : WebSearchError.requestFailed("http_5xx", "upstream 503")
          )
        )
        for (let i = 0; i < 2; i++) {
          const error = yield* Effect.flip(a.search(["gone", "flaky"]))
          expect(error.failures?.map((f) => f.reason)).toEqual(["http_404", "http_5xx"])
        }
        expect(a.calls).toEqual(["gone", "flaky", "flaky"])
        yield* Effect.sleep("400 millis")
        yield* Effect.flip(a.search(["gone"]))
        expect(a.calls).toEqual(["gone", "flaky", "flaky", "gone"])
      })
    )

    it.scopedLive("the provider budget holds: calls over it fail rate_limited with retryAfter", () =>
      Effect.gen(function* () {
        const a = yield* replica(backend, freshPrefix(), rateLimited({ limit: 3, window: "10 seconds", maxWait: 0 }))
        const [response] = yield* a.search(["a", "b", "c", "d", "e"])
        expect(a.calls).toHaveLength(3)
        expect(response.failures.map((f) => [f.reason, f.retryAfter])).toEqual([
          ["rate_limited", 4],
          ["rate_limited", 4]
        ])
      })
    )

    it.scopedLive("a short wait for budget is waited out", () =>
      Effect.gen(function* () {
        const a = yield* replica(backend, freshPrefix(), rateLimited({ limit: 1, window: 300, maxWait: "1 second" }))
        const started = Date.now()
        yield* a.search(["a"])
        yield* a.search(["b"])
        expect(a.calls).toEqual(["a", "b"])
        expect(Date.now() - started).toBeGreaterThanOrEqual(250)
      })
    )

    it.scopedLive("a Retry-After holds the provider off for later calls, then lets them through", () =>
      Effect.gen(function* () {
        const a = yield* replica(
          backend,
          freshPrefix(),
          rateLimited({ limit: 100, window: "1 second", maxWait: 0 }),
          (input, call) =>
            call === 1
              ? Replica.failure(WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 1 }))
              : Replica.results(input)
        )
        expect((yield* Effect.flip(a.search(["a"]))).reason).toBe("http_429")
        const held = yield* Effect.flip(a.search(["b"]))
        expect(held).toMatchObject({ reason: "rate_limited", retryAfter: 1 })
        expect(a.calls).toEqual(["a"])
        yield* Effect.sleep("1100 millis")
        yield* a.search(["b"])
        expect(a.calls).toEqual(["a", "b"])
      })
    )

    it.effect.prop(
      "the budget is a token bucket: over any span d, at most limit + d × limit / window calls are granted",
      [
        FastCheck.integer({ min: 1, max: 5 }),
        FastCheck.integer({ min: 100, max: 2_000 }),
        FastCheck.array(FastCheck.integer({ min: 0, max: 700 }), { minLength: 1, maxLength: 25 })
      ],
      ([limit, windowMillis, gaps]) =>
        Effect.gen(function* () {
          // The quota the stores contribute, as the application's registry holds it.
          const quota = (yield* ProviderRegistry.ProviderRegistry).quota
          const rateLimit = Option.some({
            limit,
            window: Duration.millis(windowMillis),
            maxWait: Duration.zero
          })
          const providerId = freshPrefix()
          const { clock, time } = manualClock()
          const acquire = Effect.withClock(Effect.either(quota.acquire({ providerId, rateLimit })), clock)
          const granted: Array<number> = []
          for (const gap of gaps) {
            time.now += gap
            const outcome = yield* acquire
            if (outcome._tag === "Right") granted.push(time.now)
            else expect(outcome.left.reason).toBe("rate_limited")
          }
          for (let i = 0; i < granted.length; i++) {
            for (let j = i; j < granted.length; j++) {
              const span = granted[j] - granted[i]
              // `limit` at once, then one more per window / limit: no more, even where a span starts just before a
              // token comes back (a full bucket restarts its refill clock when it is next drawn from).
              expect(j - i + 1).toBeLessThanOrEqual(limit + Math.floor((span * limit) / windowMillis))
            }
          }
          // And the limiter is not simply refusing: a call after a full window of quiet is always granted.
          time.now += windowMillis
          expect((yield* acquire)._tag).toBe("Right")
        }).pipe(Effect.provide(Replica.alone(backend.stores(freshPrefix())))),
      { fastCheck: { numRuns: backend.name === "Redis" ? 50 : 100 } }
    )
  })
}

describe("two replicas on one redis-server", () => {
  it.scopedLive("share cached results: the second replica serves a hit without calling its provider", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const a = yield* replica(backends[1], prefix, {})
      const b = yield* replica(backends[1], prefix, {})
      const [fromA] = yield* a.search(["shared query"])
      const [fromB, stats] = yield* b.search(["shared query"])
      expect(a.calls).toEqual(["shared query"])
      expect(b.calls).toEqual([])
      expect(stats).toEqual({ hits: 1, misses: 0 })
      expect(fromB.results).toEqual(fromA.results)
      // A replica with another prefix is another deployment: it shares nothing.
      const other = yield* replica(backends[1], freshPrefix(), {})
      yield* other.search(["shared query"])
      expect(other.calls).toEqual(["shared query"])
    })
  )

  it.scopedLive("share a provider's budget: the limit holds across both", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const settings = rateLimited({ limit: 3, window: "10 seconds", maxWait: 0 })
      const a = yield* replica(backends[1], prefix, settings)
      const b = yield* replica(backends[1], prefix, settings)
      yield* a.search(["a1", "a2"])
      const [response] = yield* b.search(["b1", "b2"])
      expect(a.calls.length + b.calls.length).toBe(3)
      expect(response.failures.map((f) => f.reason)).toEqual(["rate_limited"])
      expect((yield* Effect.flip(a.search(["a3"]))).reason).toBe("rate_limited")
    })
  )

  it.scopedLive("share a Retry-After hold-off", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const settings = rateLimited({ limit: 100, window: "1 second", maxWait: 0 })
      const a = yield* replica(backends[1], prefix, settings, () =>
        Replica.failure(WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 30 }))
      )
      const b = yield* replica(backends[1], prefix, settings)
      yield* Effect.flip(a.search(["x"]))
      const held = yield* Effect.flip(b.search(["y"]))
      expect(held).toMatchObject({ reason: "rate_limited", providerId: "duckduckgo" })
      expect(held.retryAfter).toBeGreaterThanOrEqual(29)
      expect(b.calls).toEqual([])
    })
  )
})

describe("connecting to Redis", () => {
  it.scopedLive("layerConfig uses Redis when REDIS_URL is set, memory otherwise", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const viaConfig = (map: Map<string, string>) =>
        SharedStores.layerConfig().pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(map))))
      const env = new Map([
        ["REDIS_URL", Redacted.value((yield* server).url)],
        ["WEBSEARCH_REDIS_PREFIX", prefix]
      ])
      const onRedis = yield* replica({ name: "config", stores: () => viaConfig(env) }, prefix, {})
      const direct = yield* replica(backends[1], prefix, {})
      yield* onRedis.search(["configured"])
      yield* direct.search(["configured"])
      expect(direct.calls).toEqual([])
      const inMemory = yield* replica({ name: "config", stores: () => viaConfig(new Map()) }, prefix, {})
      yield* inMemory.search(["configured"])
      expect(inMemory.calls).toEqual(["configured"])
    })
  )

  it.scopedLive("layerConfig takes the application's own Config: its variable names reach Redis", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const own = Config.all({ redisUrl: Config.redacted("APP_REDIS"), prefix: Config.string("APP_PREFIX") })
      const provider = ConfigProvider.fromMap(
        new Map([
          ["APP_REDIS", Redacted.value((yield* server).url)],
          ["APP_PREFIX", prefix]
        ])
      )
      const stores = () => SharedStores.layerConfig(own).pipe(Layer.provide(Layer.setConfigProvider(provider)))
      const onRedis = yield* replica({ name: "own config", stores }, prefix, {})
      const direct = yield* replica(backends[1], prefix, {})
      yield* onRedis.search(["own names"])
      yield* direct.search(["own names"])
      // The second replica found the first one's result in Redis under the application's prefix.
      expect(direct.calls).toEqual([])
      const invalid = yield* Effect.flip(
        Layer.build(
          Replica.alone(
            SharedStores.layerConfig(Config.succeed({ cacheMaxBytes: 10 })).pipe(
              Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))
            )
          )
        )
      )
      expect(invalid).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
    })
  )

  it.scopedLive("an unreachable or misconfigured Redis refuses to start, naming the URL without its password", () =>
    Effect.gen(function* () {
      const secret = "hunter2-very-secret"
      // Nothing listens on a port whose server we start and stop again at once.
      const scope = yield* Scope.make()
      const stopped = yield* Scope.extend(RedisServer.start(), scope)
      yield* Scope.close(scope, Exit.void)
      const refused = yield* Effect.flip(
        Layer.build(
          Replica.alone(SharedStores.layerRedisUrl(Redacted.make(`redis://:${secret}@127.0.0.1:${stopped.port}/0`)))
        )
      )
      expect(refused).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(refused.message).toContain(`redis://:***@127.0.0.1:${stopped.port}/0`)
      expect(refused.message).not.toContain(secret)
      for (const [url, expected] of [
        ["http://127.0.0.1:6379", "must be a redis:// or rediss:// URL"],
        ["not a url", "is not a URL"],
        [`redis://:${secret}@127.0.0.1:1/x`, 'names database "x"']
      ]) {
        const error = yield* Effect.flip(Layer.build(Replica.alone(SharedStores.layerRedisUrl(Redacted.make(url)))))
        expect(error.message).toContain(expected)
        expect(error.message).not.toContain(secret)
      }
    })
  )

  it.scopedLive("a password-protected Redis: the right password connects, a wrong one is refused without echo", () =>
    Effect.gen(function* () {
      const secured = yield* RedisServer.start({ password: "correct-horse-battery" })
      const good = Redacted.value(secured.url)
      const a = yield* replica({ name: "secured", stores: () => SharedStores.layerRedisUrl(secured.url) }, "p", {})
      yield* a.search(["q"])
      const wrong = good.replace("correct-horse-battery", "wrong-password-123")
      const error = yield* Effect.flip(Layer.build(Replica.alone(SharedStores.layerRedisUrl(Redacted.make(wrong)))))
      expect(error.reason).toBe("invalid_config")
      expect(error.message).not.toContain("wrong-password-123")
      expect(error.message).not.toContain("correct-horse-battery")
    })
  )

  it.scopedLive("when Redis goes away, requests are still answered: the cache misses and the quota lets calls by", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const doomed = yield* Scope.extend(RedisServer.start(), scope)
      const a = yield* replica(
        { name: "doomed", stores: () => SharedStores.layerRedisUrl(doomed.url, { timeout: "300 millis" }) },
        freshPrefix(),
        rateLimited({ limit: 100, window: "1 second", maxWait: 0 })
      )
      yield* a.search(["q"])
      yield* Scope.close(scope, Exit.void)
      const started = Date.now()
      const [response, stats] = yield* a.search(["q"])
      expect(response.results).toHaveLength(2)
      expect(stats).toEqual({ hits: 0, misses: 1 })
      expect(a.calls).toEqual(["q", "q"])
      expect(Date.now() - started).toBeLessThan(5_000)
    })
  )
})

describe("the in-memory cache is bounded", () => {
  it.scopedLive("beyond its capacity the least recently used entry is evicted", () =>
    Effect.gen(function* () {
      const a = yield* replica({ name: "small", stores: () => SharedStores.layerMemory({ cacheCapacity: 2 }) }, "", {})
      yield* a.search(["one"])
      yield* a.search(["two"])
      yield* a.search(["one"]) // one is now the most recently used
      yield* a.search(["three"]) // evicts two
      yield* a.search(["one"])
      yield* a.search(["two"])
      expect(a.calls).toEqual(["one", "two", "three", "two"])
    })
  )
})
