/**
 * Two server instances as two replicas behind a load balancer would run: separate layers (nothing memoised
 * between them), separate ports, separate provider drivers with their own call counters, and each its own
 * connection to the same redis-server under the same key prefix. Everything goes over real HTTP. The same
 * scenarios with in-memory stores must come out the other way, so the Redis assertions cannot pass vacuously.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as HttpServer from "@effect/platform/HttpServer"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type * as Composition from "@websearch/core/Composition"
import * as SharedStores from "@websearch/node/SharedStores"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { Redis } from "ioredis"
import * as RedisServer from "../../../test-support/redisServer.js"
import * as OpenApiHeaders from "../src/internal/openApiHeaders.js"
import * as WebSearchServer from "../src/WebSearchServer.js"
import * as Support from "./support/server.js"

// One redis-server for the file, started by the first Redis test (the in-memory tests still run, and every Redis
// test fails with the reason, when redis-server is missing) and stopped after the last one. Each test uses its own
// key prefix, as unrelated deployments sharing one Redis would.
const suiteScope = Effect.runSync(Scope.make())
let starting: Promise<RedisServer.RedisServer> | undefined
const redis: Effect.Effect<RedisServer.RedisServer> = Effect.promise(
  () => (starting ??= Effect.runPromise(Scope.extend(RedisServer.start(), suiteScope)))
)

// Every instance a test started, to check after the suite that none is still listening.
const started: Array<string> = []

const refusesConnections = (base: string): Promise<boolean> =>
  fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) }).then(
    () => false,
    () => true
  )

const processGone = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH"
  }
}

afterAll(async () => {
  const server = starting === undefined ? undefined : await starting
  await Effect.runPromise(Scope.close(suiteScope, Exit.void))
  if (server !== undefined && !processGone(server.pid)) {
    throw new Error(`redis-server (pid ${server.pid}) is still running after the suite`)
  }
  const listening: Array<string> = []
  for (const base of started) if (!(await refusesConnections(base))) listening.push(base)
  if (listening.length > 0) throw new Error(`servers still listening after the suite: ${listening.join(", ")}`)
})

let prefixes = 0
const freshPrefix = () => `replicas${process.pid}x${++prefixes}x${Date.now()}`

type Stores = Layer.Layer<SharedStores.SharedStores, WebSearchError.Unavailable, Composition.Composition>

interface Backend {
  readonly name: string
  readonly shared: boolean
  /** A new, independent store layer; with Redis every call opens its own connections to the same data. */
  readonly stores: (prefix: string) => Stores
}

const memory: Backend = { name: "memory", shared: false, stores: () => SharedStores.layerMemory() }
const onRedis: Backend = {
  name: "Redis",
  shared: true,
  stores: (prefix) => Layer.unwrapEffect(Effect.map(redis, (s) => SharedStores.layerRedisUrl(s.url, { prefix })))
}

const settingsWith = (rateLimit?: { limit: number; window: string; maxWait: number }): Settings.SettingsInput => ({
  defaults: { searchKeywords: "tavily" },
  providers: { tavily: { apiKeys: [Support.canaryKey], ...(rateLimit === undefined ? {} : { rateLimit }) } }
})

/**
 * One replica: its own counting driver, capability services, stores and HTTP server on a free port, all built
 * by a `Layer.build` of its own (a fresh memo map, so nothing is shared in-process with the other replica).
 */
const replica = (stores: Stores, settings: Settings.SettingsInput) =>
  Effect.gen(function* () {
    const { driver, recorder } = Support.driver("tavily", {
      searchKeywords: (input) => Effect.succeed(Support.results(input))
    })
    const context = yield* WebSearchServer.layer({
      port: 0,
      host: "127.0.0.1",
      logRequests: false,
      tokens: [Support.token]
    }).pipe(Layer.provide(Support.live([driver], settings, [stores])), Layer.build)
    const base = Support.baseUrl(Context.get(context, HttpServer.HttpServer))
    started.push(base)
    const search = (keyword: string) =>
      Effect.promise(async () => {
        const response = await Support.post(`${base}/v1/search`, { keywords: [keyword] })
        return {
          status: response.status,
          cache: response.headers.get(OpenApiHeaders.cacheHeader),
          retryAfter: response.headers.get("retry-after"),
          body: (await response.json()) as Record<string, unknown>
        }
      })
    return { base, recorder, search }
  })

/** Two replicas on the same backend and key prefix. */
const pair = (backend: Backend, settings: Settings.SettingsInput) =>
  Effect.gen(function* () {
    const prefix = freshPrefix()
    const a = yield* replica(backend.stores(prefix), settings)
    const b = yield* replica(backend.stores(prefix), settings)
    expect(a.base).not.toBe(b.base)
    return { a, b }
  })

for (const backend of [onRedis, memory]) {
  describe(`two server instances with stores in ${backend.name}`, () => {
    it.scopedLive(
      backend.shared
        ? "share the cache: B answers A's search as a hit without calling its provider"
        : "do not share the cache: B misses and calls its own provider",
      () =>
        Effect.gen(function* () {
          const { a, b } = yield* pair(backend, settingsWith())
          const first = yield* a.search("shared cache")
          expect(first.status).toBe(200)
          expect(first.cache).toBe("miss")
          expect(a.recorder.calls.map((c) => c.input)).toEqual(["shared cache"])
          // The provider got the configured key, so the secret scan below has something to look for.
          expect(a.recorder.calls[0].apiKey).toBe(Support.canaryKey)

          const second = yield* b.search("shared cache")
          expect(second.status).toBe(200)
          expect(second.body).toEqual(first.body)
          if (backend.shared) {
            expect(second.cache).toBe("hit")
            expect(b.recorder.calls).toHaveLength(0)
          } else {
            expect(second.cache).toBe("miss")
            expect(b.recorder.calls.map((c) => c.input)).toEqual(["shared cache"])
          }
          // Either way each instance serves its own repeat from its own cache.
          expect((yield* a.search("shared cache")).cache).toBe("hit")
          expect(a.recorder.calls).toHaveLength(1)
        })
    )

    it.scopedLive(
      backend.shared
        ? "share the provider quota: N calls across A and B, then 429 with Retry-After on both"
        : "do not share the provider quota: each instance spends its own N calls",
      () =>
        Effect.gen(function* () {
          const limit = 3
          const { a, b } = yield* pair(backend, settingsWith({ limit, window: "1 minute", maxWait: 0 }))
          const totalCalls = () => a.recorder.calls.length + b.recorder.calls.length
          // Distinct inputs, so that no call is answered from the cache (which spends no quota).
          const spread = [a, b, a]
          for (const [i, instance] of spread.entries()) {
            const ok = yield* instance.search(`quota ${i}`)
            expect(ok.status).toBe(200)
            expect(ok.cache).toBe("miss")
          }
          expect(totalCalls()).toBe(limit)

          const rateLimited = (response: Effect.Effect.Success<ReturnType<typeof a.search>>) => {
            expect(response.status).toBe(429)
            expect(Number(response.retryAfter)).toBeGreaterThanOrEqual(1)
            expect(Number(response.retryAfter)).toBeLessThanOrEqual(60)
            expect(response.body).toMatchObject({
              _tag: "RequestFailed",
              reason: "rate_limited",
              providerId: "tavily",
              retryable: true
            })
            expect(response.body.retryAfter).toBe(Number(response.retryAfter))
          }

          if (backend.shared) {
            rateLimited(yield* b.search("quota over on B"))
            rateLimited(yield* a.search("quota over on A"))
            // The limit held across both: nothing reached a provider after the third call.
            expect(totalCalls()).toBe(limit)
            expect(a.recorder.calls).toHaveLength(2)
            expect(b.recorder.calls).toHaveLength(1)
            // A cached answer spends no quota, so it is still served, and from the other instance.
            const cached = yield* b.search("quota 0")
            expect(cached.status).toBe(200)
            expect(cached.cache).toBe("hit")
            expect(totalCalls()).toBe(limit)
          } else {
            // Each instance counts only its own calls: B has spent one of its three, A two of its three.
            for (const input of ["quota 3", "quota 4"]) expect((yield* b.search(input)).status).toBe(200)
            expect((yield* a.search("quota 5")).status).toBe(200)
            rateLimited(yield* b.search("quota over on B"))
            rateLimited(yield* a.search("quota over on A"))
            expect(a.recorder.calls).toHaveLength(limit)
            expect(b.recorder.calls).toHaveLength(limit)
            expect(totalCalls()).toBe(2 * limit)
          }
        })
    )
  })
}

/** Every key in the Redis database with its value(s) as text, read by a raw client. */
const dumpRedis = (server: RedisServer.RedisServer) =>
  Effect.acquireRelease(
    Effect.sync(() => new Redis(server.options)),
    (client) => Effect.promise(() => client.quit().catch(() => "closed"))
  ).pipe(
    Effect.flatMap((client) =>
      Effect.promise(async () => {
        const entries: Array<{ readonly key: string; readonly type: string; readonly text: string }> = []
        let cursor = "0"
        do {
          const [next, keys] = await client.scanBuffer(cursor, "COUNT", 1000)
          cursor = next.toString()
          for (const keyBuffer of keys) {
            const key = keyBuffer.toString("latin1")
            const type = await client.type(keyBuffer)
            const values: Array<Buffer> =
              type === "string"
                ? [(await client.getBuffer(keyBuffer)) ?? Buffer.alloc(0)]
                : type === "hash"
                  ? await client
                      .hgetallBuffer(keyBuffer)
                      .then((h) => Object.entries(h).flatMap(([f, v]) => [Buffer.from(f), v]))
                  : type === "list"
                    ? await client.lrangeBuffer(keyBuffer, 0, -1)
                    : type === "set"
                      ? await client.smembersBuffer(keyBuffer)
                      : type === "zset"
                        ? await client.zrangeBuffer(keyBuffer, 0, -1, "WITHSCORES")
                        : [Buffer.from(`unreadable type ${type}`)]
            entries.push({ key, type, text: Buffer.concat(values).toString("latin1") })
          }
        } while (cursor !== "0")
        return entries
      })
    ),
    Effect.scoped
  )

describe("secrets and Redis", () => {
  it.scopedLive("the provider's API key never reaches Redis, in any key or value", () =>
    Effect.gen(function* () {
      const server = yield* redis
      const { a, b } = yield* pair(onRedis, settingsWith({ limit: 10, window: "1 minute", maxWait: 0 }))
      for (const keyword of ["canary one", "canary two"]) {
        expect((yield* a.search(keyword)).status).toBe(200)
        expect((yield* b.search(keyword)).cache).toBe("hit")
      }
      expect(a.recorder.calls.every((c) => c.apiKey === Support.canaryKey)).toBe(true)
      expect(a.recorder.calls).toHaveLength(2)

      const entries = yield* dumpRedis(server)
      // The scan sees what was stored (cached results and quota state), so an absent canary means something.
      const everything = entries.map((e) => `${e.key}\n${e.text}`).join("\n")
      expect(everything).toContain("canary one result 1")
      expect(everything).toContain("canary two result 2")
      expect(entries.length).toBeGreaterThanOrEqual(3)
      expect(everything).not.toContain(Support.canaryKey)
      // Nor a recognisable fragment of it (an encoding that kept most of the key would still leak it).
      expect(everything).not.toContain(Support.canaryKey.slice(3, 19))
    })
  )
})
