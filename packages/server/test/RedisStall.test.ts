/**
 * A Redis that stops answering (SIGSTOP) or answers slowly (`DEBUG SLEEP`) must not hold requests: every store
 * operation is bounded, past the bound a call behaves as with Redis down (the cache misses, the provider quota lets
 * the call through, the per-token rate limit refuses with a retryable error), and `/health` says `degraded`.
 * Everything runs over real HTTP against a real redis-server; a request that hangs is aborted after 20 s (far
 * beyond the stores' 300 ms bound) and fails the test.
 */
import * as HttpServer from "@effect/platform/HttpServer"
import { describe, expect, it } from "@effect/vitest"
import * as SharedStores from "@websearch/node/SharedStores"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { Redis } from "ioredis"
import * as RedisServer from "../../../test-support/redisServer.js"
import * as WebSearchServer from "../src/WebSearchServer.js"
import * as Support from "./support/server.js"

const settings = {
  defaults: { searchKeywords: "tavily" },
  providers: { tavily: { apiKeys: [Support.canaryKey], rateLimit: { limit: 100, window: "1 minute", maxWait: 0 } } }
}

// Generous next to the 300 ms store bound: only a call that waits on Redis without limit gets here.
const patience = 20_000

const server = (redis: RedisServer.RedisServer, rateLimit: false | undefined) =>
  Effect.gen(function* () {
    const { driver, recorder } = Support.driver("tavily", {
      searchKeywords: (input) => Effect.succeed(Support.results(input))
    })
    const stores = SharedStores.layerRedisUrl(redis.url, {
      prefix: `stall${process.pid}x${Date.now()}`,
      timeout: "300 millis"
    })
    const context = yield* WebSearchServer.layer({
      port: 0,
      host: "127.0.0.1",
      logRequests: false,
      tokens: [Support.token],
      ...(rateLimit === false ? { rateLimit } : {})
    }).pipe(Layer.provide(Support.live([driver], settings, [stores])), Layer.build)
    const base = Support.baseUrl(Context.get(context, HttpServer.HttpServer))
    const search = (keyword: string) =>
      Effect.promise(async () => {
        const response = await fetch(`${base}/v1/search`, {
          method: "POST",
          headers: { authorization: `Bearer ${Support.token}`, "content-type": "application/json" },
          body: JSON.stringify({ keywords: [keyword] }),
          signal: AbortSignal.timeout(patience)
        })
        return {
          status: response.status,
          cache: response.headers.get("x-websearch-cache"),
          body: (await response.json()) as Record<string, unknown>
        }
      })
    const health = Effect.promise(async () => {
      const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(patience) })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    })
    return { search, health, recorder }
  })

/** Freezes redis-server until the scope closes (SIGCONT in a finalizer, so a failing test never leaves it stopped). */
const freeze = (redis: RedisServer.RedisServer) =>
  Effect.acquireRelease(
    Effect.sync(() => process.kill(redis.pid, "SIGSTOP")),
    () => Effect.sync(() => process.kill(redis.pid, "SIGCONT"))
  )

/** Makes redis-server busy for `seconds` with DEBUG SLEEP, sent on a connection of its own. */
const sleepRedis = (redis: RedisServer.RedisServer, seconds: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const client = new Redis({ ...redis.options, lazyConnect: false })
      client.on("error", () => {})
      const done = client.call("DEBUG", "SLEEP", String(seconds)).catch(() => undefined)
      return { client, done }
    }),
    ({ client, done }) => Effect.promise(() => done.then(() => client.disconnect()))
  )

describe("a stalled Redis", () => {
  it.scopedLive(
    "SIGSTOP: /v1 answers as with Redis down, and /health says degraded",
    () =>
      Effect.gen(function* () {
        const redis = yield* RedisServer.start()
        const limited = yield* server(redis, undefined)
        const unlimited = yield* server(redis, false)
        expect((yield* limited.health).body.status).toBe("ok")
        expect((yield* limited.search("before")).status).toBe(200)

        yield* Effect.scoped(
          Effect.gen(function* () {
            yield* freeze(redis)
            // The per-token rate limit cannot be checked: refused, retryable, as when Redis is down.
            const refused = yield* limited.search("while frozen")
            expect(refused.status).toBe(502)
            expect(refused.body).toMatchObject({ _tag: "RequestFailed", reason: "network", retryable: true })
            // Without a per-token limit the call is served: the cache misses and the provider quota lets it through.
            const served = yield* unlimited.search("while frozen")
            expect(served.status).toBe(200)
            expect(served.cache).toBe("miss")
            expect(unlimited.recorder.calls.map((c) => c.input)).toEqual(["while frozen"])
            const health = yield* limited.health
            expect(health.status).toBe(200)
            expect(health.body).toMatchObject({ status: "degraded", stores: { redis: { status: "degraded" } } })
            expect(JSON.stringify(health.body)).not.toContain(Support.canaryKey)
          })
        )
        // Resumed: healthy again (the health answer is kept a second), and searches are served.
        const healthy = yield* Effect.retry(
          Effect.flatMap(limited.health, (answer) =>
            answer.body.status === "ok" ? Effect.succeed(answer.body) : Effect.fail(new Error("still degraded"))
          ),
          { schedule: Schedule.spaced("200 millis"), times: 50 }
        )
        expect(healthy).toEqual({ status: "ok", stores: { redis: { status: "ok" } } })
        expect((yield* limited.search("after")).status).toBe(200)
      }),
    60_000
  )

  it.scopedLive(
    "DEBUG SLEEP: /v1 answers as with Redis down, and /health says degraded",
    () =>
      Effect.gen(function* () {
        const redis = yield* RedisServer.start({ debugCommand: true })
        const limited = yield* server(redis, undefined)
        const unlimited = yield* server(redis, false)
        expect((yield* limited.search("before")).status).toBe(200)
        yield* Effect.scoped(
          Effect.gen(function* () {
            // Long enough that every step below runs while Redis sleeps, on a loaded machine too (at 4 s the
            // health check could come after it woke); the scope waits for it to end.
            yield* sleepRedis(redis, 10)
            yield* Effect.sleep("300 millis")
            // Health first: it was never asked before, so nothing cached answers for it.
            expect((yield* limited.health).body).toMatchObject({
              status: "degraded",
              stores: { redis: { status: "degraded" } }
            })
            const refused = yield* limited.search("while asleep")
            expect(refused.status).toBe(502)
            expect(refused.body).toMatchObject({ _tag: "RequestFailed", reason: "network", retryable: true })
            const served = yield* unlimited.search("while asleep")
            expect(served.status).toBe(200)
            expect(served.cache).toBe("miss")
          })
        )
      }),
    60_000
  )
})
