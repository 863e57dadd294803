/**
 * The state that websearch replicas share, in one layer: the result cache (`ResultCache`), the provider
 * quotas (`ProviderQuota`), and @effect/experimental's `RateLimiter` on the same store, for whatever else an
 * application limits (the server's per-token limits). In memory for one process, or on Redis so that several
 * replicas share cached answers, provider budgets and Retry-After hold-offs.
 *
 * A replica's layer, with settings and providers from the environment:
 *
 * ```ts
 * const Replica = WebSearch.layer(Providers.layer, Fetch.layer, SharedStores.layerConfig()).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(Settings.layerConfig())
 * )
 * // REDIS_URL=redis://:password@redis.internal:6379/0 → Redis; unset → in memory
 * ```
 *
 * The cache and quota are parts of the application's layer, read once when it is built; anywhere else the layer
 * does not type-check (it needs `Composition`). The `RateLimiter` it also provides comes out of `WebSearch.layer`.
 *
 * @since 0.1.0
 */
import * as PersistenceRedis from "@effect/experimental/Persistence/Redis"
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as RateLimiterRedis from "@effect/experimental/RateLimiter/Redis"
import type * as Composition from "@websearch/core/Composition"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Config from "effect/Config"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { RedisOptions } from "ioredis"
import * as BoundedMemory from "./internal/boundedMemory.js"
import * as RedisConnection from "./internal/redisConnection.js"
import * as ProviderQuotaStore from "./ProviderQuotaStore.js"
import * as ResultCacheStore from "./ResultCacheStore.js"

/**
 * What the shared-stores layers provide besides the result cache and provider quota they contribute to
 * `WebSearch.layer(...)`: @effect/experimental's `RateLimiter` on the same store.
 *
 * @since 0.1.0
 * @category models
 */
export type SharedStores = RateLimiter.RateLimiter

/**
 * Options of the shared-stores layers.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Namespace of every key; replicas that share state use the same prefix. Default `websearch`. */
  readonly prefix?: string | undefined
  /** The longest a store operation may take before the cache misses or the quota lets a call through. */
  readonly timeout?: Duration.DurationInput | undefined
  /** How long a call may wait for a provider without a configured budget to end a hold-off. Default 2 s. */
  readonly maxWait?: Duration.DurationInput | undefined
  /** In memory only: the most results kept. Default `ResultCacheStore.defaultCapacity`. */
  readonly cacheCapacity?: number | undefined
}

const services = (options?: Options) =>
  Layer.mergeAll(
    ResultCacheStore.layer(options),
    ProviderQuotaStore.layer({
      prefix: options?.prefix,
      timeout: options?.timeout,
      maxWait: options?.maxWait
    })
  ).pipe(Layer.provideMerge(RateLimiter.layer))

/**
 * Every shared service in this process's memory.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (options?: Options): Layer.Layer<SharedStores, never, Composition.Composition> =>
  services(options).pipe(
    Layer.provide(
      Layer.merge(
        RateLimiter.layerStoreMemory,
        BoundedMemory.layer(options?.cacheCapacity ?? ResultCacheStore.defaultCapacity)
      )
    )
  )

/**
 * Every shared service on a Redis server, from ioredis options (two connections: one for the cache and
 * hold-offs, one for the rate limiter). Nothing is checked up front; see `layerRedisUrl`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (redis: RedisOptions, options?: Options): Layer.Layer<SharedStores, never, Composition.Composition> =>
  services(options).pipe(
    Layer.provide(
      RedisConnection.tolerantRelease(
        Layer.merge(
          RateLimiterRedis.layerStore({ ...redis, prefix: `${options?.prefix ?? "websearch"}:ratelimit:` }),
          PersistenceRedis.layer(redis)
        )
      )
    )
  )

/**
 * Every shared service on the Redis server at `url` (`redis://[user:password@]host[:port][/db]`, `rediss://`
 * for TLS). The server must answer a PING at start-up; otherwise the layer fails `Unavailable/invalid_config`
 * naming the URL without its password.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedisUrl = (
  url: Redacted.Redacted<string>,
  options?: Options
): Layer.Layer<SharedStores, WebSearchError.Unavailable, Composition.Composition> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const parsed = RedisConnection.parse(url)
      if (Either.isLeft(parsed)) return yield* Effect.fail(parsed.left)
      yield* RedisConnection.ping(parsed.right.options, parsed.right.display)
      yield* Effect.logInfo(`websearch shares its cache and quotas on Redis at ${parsed.right.display}`)
      return layerRedis(parsed.right.options, options)
    })
  )

const optionalText = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.flatMap((s) => (s.trim() === "" ? Option.none() : Option.some(s.trim()))))
  )

/**
 * Redis when `REDIS_URL` is set (a secret: it may carry a password), memory otherwise. Also reads
 * `WEBSEARCH_REDIS_PREFIX` (key namespace) and `WEBSEARCH_CACHE_MEMORY_ENTRIES` (in-memory capacity).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (options?: Options): Layer.Layer<SharedStores, WebSearchError.Unavailable, Composition.Composition> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const url = yield* Config.option(Config.redacted("REDIS_URL")).pipe(
        Config.map(Option.filter((value) => Redacted.value(value).trim() !== ""))
      )
      const prefix = yield* optionalText("WEBSEARCH_REDIS_PREFIX")
      const capacity = yield* Config.option(Config.integer("WEBSEARCH_CACHE_MEMORY_ENTRIES"))
      const merged: Options = {
        ...options,
        ...(Option.isSome(prefix) ? { prefix: prefix.value } : {}),
        ...(Option.isSome(capacity) ? { cacheCapacity: capacity.value } : {})
      }
      if (merged.cacheCapacity !== undefined && merged.cacheCapacity < 1) {
        return yield* Effect.fail(
          WebSearchError.unavailable("invalid_config", "WEBSEARCH_CACHE_MEMORY_ENTRIES must be at least 1")
        )
      }
      if (Option.isNone(url)) {
        yield* Effect.logDebug("websearch keeps its cache and quotas in memory (REDIS_URL is not set)")
        return layerMemory(merged)
      }
      return layerRedisUrl(url.value, merged)
    }).pipe(
      Effect.catchTag("ConfigError", (error) =>
        Effect.fail(WebSearchError.unavailable("invalid_config", `invalid shared-store configuration: ${error}`))
      )
    )
  )
