/**
 * Single flight across replicas: two server instances (separate layers, ports, drivers and Redis connections, one
 * redis-server and key prefix) receive N concurrent identical searches that all miss. With Redis one provider call
 * answers all of them (a short lease per cache key; the others wait for the entry); with in-memory stores each
 * instance calls once, so the Redis assertion cannot pass vacuously. A leader that dies frees the lease: one
 * whose lease nobody renews any more lets the next replica call once it lapses, and one whose call is interrupted
 * frees it at once.
 */
import * as HttpServer from "@effect/platform/HttpServer"
import { afterAll, describe, expect, it } from "@effect/vitest"
import type * as Composition from "@websearch/core/Composition"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as SharedStores from "@websearch/node/SharedStores"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { Redis } from "ioredis"
import * as RedisServer from "../../../test-support/redisServer.js"
import * as OpenApiHeaders from "../src/internal/openApiHeaders.js"
import * as WebSearchServer from "../src/WebSearchServer.js"
import * as Support from "./support/server.js"

const suiteScope = Effect.runSync(Scope.make())
let starting: Promise<RedisServer.RedisServer> | undefined
const redis: Effect.Effect<RedisServer.RedisServer> = Effect.promise(
  () => (starting ??= Effect.runPromise(Scope.extend(RedisServer.start(), suiteScope)))
)
afterAll(() => Effect.runPromise(Scope.close(suiteScope, Exit.void)))

let prefixes = 0
const freshPrefix = () => `flight${process.pid}x${++prefixes}x${Date.now()}`

type Stores = Layer.Layer<SharedStores.SharedStores, WebSearchError.Unavailable, Composition.Composition>

const onRedis = (prefix: string): Stores =>
  Layer.unwrapEffect(Effect.map(redis, (server) => SharedStores.layerRedisUrl(server.url, { prefix })))

const settings = { defaults: { searchKeywords: "tavily" }, providers: { tavily: { apiKeys: [Support.canaryKey] } } }

/** A raw client on the suite's redis-server, closed with the test. */
const rawClient = Effect.flatMap(redis, (server) =>
  Effect.acquireRelease(
    Effect.sync(() => new Redis(server.options)),
    (client) => Effect.promise(() => client.quit().catch(() => "closed"))
  )
)

const leaseKeys = (client: Redis, prefix: string) => Effect.promise(() => client.keys(`${prefix}:lease:*`))

/** One replica, with a driver that runs `answer` per input. */
const replica = (stores: Stores, answer: (input: string) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const { driver, recorder } = Support.driver("tavily", {
      searchKeywords: (input) => Effect.as(answer(input), Support.results(input))
    })
    const context = yield* WebSearchServer.layer({
      port: 0,
      host: "127.0.0.1",
      logRequests: false,
      tokens: [Support.token]
    }).pipe(Layer.provide(Support.live([driver], settings, [stores])), Layer.build)
    const base = Support.baseUrl(Context.get(context, HttpServer.HttpServer))
    const search = (keyword: string) =>
      // Interrupting the search aborts the request, so a test never waits on a call that cannot end.
      Effect.promise(async (signal) => {
        const response = await fetch(`${base}/v1/search`, {
          method: "POST",
          headers: { authorization: `Bearer ${Support.token}`, "content-type": "application/json" },
          body: JSON.stringify({ keywords: [keyword] }),
          signal
        })
        return {
          status: response.status,
          cache: response.headers.get(OpenApiHeaders.cacheHeader),
          body: (await response.json()) as Record<string, unknown>
        }
      })
    return { recorder, search }
  })

const concurrent = 8

describe("single flight across replicas", () => {
  for (const shared of [true, false]) {
    it.scopedLive(
      shared
        ? `on Redis: ${concurrent} concurrent identical misses across two replicas make one provider call`
        : `in memory: the same misses make one call per replica`,
      () =>
        Effect.gen(function* () {
          const prefix = freshPrefix()
          const stores = () => (shared ? onRedis(prefix) : SharedStores.layerMemory())
          // Every call is held until all searches were sent, so the misses are concurrent whatever the timing.
          const gate = yield* Deferred.make<void>()
          const a = yield* replica(stores(), () => Deferred.await(gate))
          const b = yield* replica(stores(), () => Deferred.await(gate))
          const searches = yield* Effect.forkScoped(
            Effect.all(
              Array.from({ length: concurrent }, (_, i) => (i % 2 === 0 ? a : b).search("one flight")),
              { concurrency: "unbounded" }
            )
          )
          // Both replicas saw their requests: one provider call started (two without sharing).
          const expected = shared ? 1 : 2
          while (a.recorder.calls.length + b.recorder.calls.length < expected) yield* Effect.sleep("20 millis")
          // Let the others reach the cache and the lease before the call completes.
          yield* Effect.sleep("300 millis")
          yield* Deferred.succeed(gate, undefined)
          const answers = yield* Fiber.join(searches)
          expect(answers.map((answer) => answer.status)).toEqual(Array(concurrent).fill(200))
          for (const answer of answers) expect(answer.body).toEqual(answers[0].body)
          expect(a.recorder.calls.length + b.recorder.calls.length).toBe(expected)
          if (shared) {
            // One miss; every other request was answered by the call in flight, here or in the other replica.
            expect(answers.filter((answer) => answer.cache === "miss")).toHaveLength(1)
            expect(answers.filter((answer) => answer.cache === "hit")).toHaveLength(concurrent - 1)
            expect(yield* leaseKeys(yield* rawClient, prefix)).toEqual([])
          } else {
            expect(a.recorder.calls).toHaveLength(1)
            expect(b.recorder.calls).toHaveLength(1)
          }
        })
    )
  }

  it.scopedLive("a leader whose lease nobody renews any more (a dead process) lets the next replica call", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const client = yield* rawClient
      // A leads and never finishes.
      const a = yield* replica(onRedis(prefix), () => Effect.never)
      const stuck = yield* Effect.forkScoped(a.search("orphan"))
      while (a.recorder.calls.length === 0) yield* Effect.sleep("20 millis")
      const [lease] = yield* leaseKeys(client, prefix)
      expect(lease).toBeDefined()
      // What a crashed holder leaves: a lease under a token no live process has, expiring on its own.
      yield* Effect.promise(() => client.set(lease, "a-dead-holder", "PX", 1000))
      const heldWhenCalled: Array<string | null> = []
      const b = yield* replica(onRedis(prefix), () =>
        Effect.asVoid(
          Effect.tap(
            Effect.promise(() => client.get(lease)),
            (value) => heldWhenCalled.push(value)
          )
        )
      )
      const answer = yield* b.search("orphan")
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ inputs: ["orphan"] })
      expect(b.recorder.calls).toHaveLength(1)
      // B called only after the dead holder's lease had lapsed: the lease it called under was its own.
      expect(heldWhenCalled).toHaveLength(1)
      expect(heldWhenCalled[0]).not.toBe("a-dead-holder")
      expect(heldWhenCalled[0]).not.toBeNull()
      yield* Fiber.interrupt(stuck)
    })
  )

  it.scopedLive("a leader interrupted mid-call (its client went away) frees its lease at once; the waiter calls", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const client = yield* rawClient
      const a = yield* replica(onRedis(prefix), () => Effect.never)
      const leading = yield* Effect.forkScoped(a.search("abandoned"))
      while (a.recorder.calls.length === 0) yield* Effect.sleep("20 millis")
      expect(yield* leaseKeys(client, prefix)).toHaveLength(1)
      const b = yield* replica(onRedis(prefix), () => Effect.void)
      const waiting = yield* Effect.forkScoped(b.search("abandoned"))
      yield* Effect.sleep("200 millis")
      // B is waiting for A's answer, not calling.
      expect(b.recorder.calls).toHaveLength(0)
      // A's caller disconnects: the handler and its provider call are interrupted, and the lease goes with them
      // (without it, B would wait until the lease lapsed or until its wait bound).
      yield* Fiber.interrupt(leading)
      const answer = yield* Fiber.join(waiting)
      expect(a.recorder.interrupted).toEqual(["abandoned"])
      expect(answer.status).toBe(200)
      expect(answer.cache).toBe("miss")
      expect(b.recorder.calls).toHaveLength(1)
      expect(yield* leaseKeys(client, prefix)).toEqual([])
    })
  )
})
