/**
 * Result cache stores for `@websearch/core/ResultCache`, on @effect/experimental's `Persistence`: in memory
 * (bounded, least recently used evicted) or on Redis, where every replica pointed at the same server shares
 * the cached answers. Entries live under `<prefix>:results:` with Redis' own expiry (`PX`), so a replica never
 * serves an entry past its TTL and Redis reclaims it.
 *
 * Most applications use `SharedStores.layerConfig`, which picks Redis when `REDIS_URL` is set.
 *
 * @since 0.1.0
 */
import * as Persistence from "@effect/experimental/Persistence"
import type * as Composition from "@websearch/core/Composition"
import * as ResultCache from "@websearch/core/ResultCache"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { RedisOptions } from "ioredis"
import * as BoundedMemory from "./internal/boundedMemory.js"
import * as RedisConnection from "./internal/redisConnection.js"
import * as RedisLease from "./internal/redisLease.js"
import * as RedisModules from "./internal/redisModules.js"

/**
 * Options of the cache stores.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options extends ResultCache.Options {
  /** Namespace of the keys; replicas that share a cache use the same prefix. Default `websearch`. */
  readonly prefix?: string | undefined
}

/**
 * Adapts a `Persistence` backing store to the core cache store contract.
 */
const fromBacking = (store: Persistence.BackingPersistenceStore): ResultCache.Store => ({
  get: (key) => Effect.mapError(store.get(key), storeError("get")),
  set: (key, value, timeToLive) => Effect.mapError(store.set(key, value, Option.some(timeToLive)), storeError("set"))
})

// A backing error's own message is only its reason; the cause says what went wrong (never a password: ioredis
// reports the address and the server's reply).
const storeError = (operation: string) => (error: Persistence.PersistenceError) =>
  new ResultCache.StoreError({
    message: `${operation}: ${error.reason === "BackingError" && error.cause instanceof Error ? error.cause.message : error.message}`,
    cause: error
  })

/**
 * Builds the cache over the `BackingPersistence` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options?: Options
): Effect.Effect<ResultCache.ResultCache.Service, never, Persistence.BackingPersistence | Scope.Scope> =>
  makeWith(options, Effect.succeed(undefined))

const makeWith = <R>(
  options: Options | undefined,
  lease: Effect.Effect<ResultCache.Store["lease"], never, R>
): Effect.Effect<ResultCache.ResultCache.Service, never, Persistence.BackingPersistence | Scope.Scope | R> =>
  Effect.gen(function* () {
    const backing = yield* Persistence.BackingPersistence
    const store = yield* backing.make(`${options?.prefix ?? "websearch"}:results`)
    return yield* ResultCache.make({ ...fromBacking(store), lease: yield* lease }, options)
  })

/**
 * A part of `WebSearch.layer(...)`: the cache over the `BackingPersistence` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options?: Options
): Layer.Layer<never, never, Composition.Composition | Persistence.BackingPersistence> =>
  ResultCache.layerScoped(make(options))

/**
 * The default capacity of the in-memory cache, in entries.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultCapacity = 5_000

/**
 * The default byte budget of the in-memory cache: 32 MiB, each entry counted at about its size in V8's heap (a
 * string one byte a character when all fit in one byte, two otherwise, plus each object's and string's overhead).
 * That is about a thousand fetched articles of 30 KB of text, or the default 5000 entries of search answers of 6 KiB.
 * A full budget costs a server about its size in live heap and up to twice that in RSS (V8 grows its heap ahead of
 * what is live).
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultMaxBytes = BoundedMemory.defaultMaxBytes

/**
 * An in-memory cache for one process, holding at most `capacity` entries (default 5000) and at most `maxBytes` of
 * them (default 32 MiB, each entry counted at about its size in V8's heap), the least recently used evicted first; an
 * answer larger than the whole budget is not cached.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (
  options?: Options & { readonly capacity?: number | undefined; readonly maxBytes?: number | undefined }
): Layer.Layer<never, never, Composition.Composition> =>
  layer(options).pipe(
    Layer.provide(BoundedMemory.layer(options?.capacity ?? defaultCapacity, options?.maxBytes ?? defaultMaxBytes))
  )

/**
 * A cache over the `BackingPersistence` in context, whose misses are single-flight across every replica on the
 * Redis server of `redis`: concurrent misses for one key take a short lease there, one replica calls the provider
 * and the others wait (at most `lease.maxWait`) for the entry it writes. The lease's connection closes with the
 * layer's scope.
 *
 * @since 0.2.0
 * @category layers
 */
export const layerLeased = (
  redis: RedisOptions,
  options?: Options
): Layer.Layer<never, never, Composition.Composition | Persistence.BackingPersistence> =>
  ResultCache.layerScoped(
    makeWith(options, RedisLease.make(RedisConnection.bounded(redis), options?.prefix ?? "websearch"))
  )

/**
 * A cache on Redis, shared by every replica using the same server and prefix, with misses single-flight across
 * them (`layerLeased`). The connections close with the layer's scope.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (
  redis: RedisOptions,
  options?: Options
): Layer.Layer<never, never, Composition.Composition> =>
  layerLeased(redis, options).pipe(Layer.provide(RedisModules.persistenceLayer(RedisConnection.bounded(redis))))
