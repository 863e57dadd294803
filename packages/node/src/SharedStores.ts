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
 * Crawl jobs (`layerCrawlJobs`) live in the same store and are provided over the application's layer.
 *
 * @since 0.1.0
 */
import type * as Persistence from "@effect/experimental/Persistence"
import * as RateLimiter from "@effect/experimental/RateLimiter"
import type * as Composition from "@websearch/core/Composition"
import * as CrawlJobs from "@websearch/core/CrawlJobs"
import type { FetchUrls } from "@websearch/core/FetchUrls"
import * as ConfigText from "@websearch/core/internal/configText"
import type { ProviderRegistry } from "@websearch/core/ProviderRegistry"
import type { Settings } from "@websearch/core/Settings"
import * as StoreHealth from "@websearch/core/StoreHealth"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { RedisOptions } from "ioredis"
import * as CrawlJobsRedis from "./CrawlJobsRedis.js"
import * as BoundedMemory from "./internal/boundedMemory.js"
import * as RedisConnection from "./internal/redisConnection.js"
import * as RedisModules from "./internal/redisModules.js"
import * as TokenBucket from "./internal/tokenBucket.js"
import * as ProviderQuotaStore from "./ProviderQuotaStore.js"
import * as ResultCacheStore from "./ResultCacheStore.js"

/**
 * What the shared-stores layers provide besides the result cache and provider quota they contribute to
 * `WebSearch.layer(...)`: @effect/experimental's `RateLimiter` on the same store.
 *
 * @since 0.1.0
 * @category models
 */
export type SharedStores = RateLimiter.RateLimiter | StoreHealth.StoreHealth

/**
 * Options of the shared-stores layers.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Namespace of every key; replicas that share state use the same prefix. Default `websearch`. */
  readonly prefix?: string | undefined
  /**
   * The longest a store operation may take before the cache misses, the quota lets a call through or the rate
   * limiter fails (as when the store is down). Default 1 second.
   */
  readonly timeout?: Duration.DurationInput | undefined
  /** How long a call may wait for a provider without a configured budget to end a hold-off. Default 2 s. */
  readonly maxWait?: Duration.DurationInput | undefined
  /** In memory only: the most results kept. Default `ResultCacheStore.defaultCapacity`. */
  readonly cacheCapacity?: number | undefined
  /**
   * In memory only: the most bytes of results kept (each counted at about its size in V8's heap). Default
   * `ResultCacheStore.defaultMaxBytes` (32 MiB).
   *
   * @since 0.2.0
   */
  readonly cacheMaxBytes?: number | undefined
}

const services = (
  options?: Options,
  cache: Layer.Layer<never, never, Composition.Composition | Persistence.BackingPersistence> = ResultCacheStore.layer(
    options
  )
) =>
  Layer.mergeAll(
    cache,
    ProviderQuotaStore.layer({
      prefix: options?.prefix,
      timeout: options?.timeout,
      maxWait: options?.maxWait
    })
  ).pipe(Layer.provideMerge(RateLimiter.layer))

/**
 * Every shared service in this process's memory (nothing to report to `StoreHealth`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (options?: Options): Layer.Layer<SharedStores, never, Composition.Composition> =>
  services(options).pipe(
    Layer.provide(
      Layer.merge(
        TokenBucket.layerMemory,
        BoundedMemory.layer(
          options?.cacheCapacity ?? ResultCacheStore.defaultCapacity,
          options?.cacheMaxBytes ?? ResultCacheStore.defaultMaxBytes
        )
      )
    ),
    Layer.merge(Layer.succeed(StoreHealth.StoreHealth, StoreHealth.none))
  )

// Every limiter operation on Redis gives up after `timeout` with the error an unreachable store gives, so a
// stopped Redis fails the server's per-token limit at once (as documented for a store that is down) instead of
// holding every request.
const boundedLimiterStore = (
  store: Layer.Layer<RateLimiter.RateLimiterStore>,
  timeout: Duration.Duration
): Layer.Layer<RateLimiter.RateLimiterStore> =>
  Layer.effect(
    RateLimiter.RateLimiterStore,
    Effect.map(RateLimiter.RateLimiterStore, (inner) => {
      const timed = <A>(effect: Effect.Effect<A, RateLimiter.RateLimiterError>) =>
        Effect.timeoutFail(effect, {
          duration: timeout,
          onTimeout: () =>
            new RateLimiter.RateLimitStoreError({
              message: `the rate-limit store did not answer within ${Duration.format(timeout)}`
            })
        })
      return RateLimiter.RateLimiterStore.of({
        fixedWindow: (options) => timed(inner.fixedWindow(options)),
        tokenBucket: (options) => timed(inner.tokenBucket(options))
      })
    })
  ).pipe(Layer.provide(store))

/**
 * Every shared service on a Redis server, from ioredis options (two connections: one for the cache and
 * hold-offs, one for the rate limiter, and a third for `StoreHealth`'s PING). Nothing is checked up front; see
 * `layerRedisUrl`. Every operation is bounded by `timeout` (and every command by ioredis' `commandTimeout`,
 * `RedisConnection.defaultCommandTimeout` unless set): past it the cache misses, the provider quota lets the call
 * through and the rate limiter fails as when Redis is down, and `StoreHealth` reports Redis as degraded.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRedis = (
  redis: RedisOptions,
  options?: Options
): Layer.Layer<SharedStores, never, Composition.Composition> => {
  const bounded = RedisConnection.bounded(redis)
  const timeout = Duration.decode(options?.timeout ?? "1 second")
  const limiterPrefix = `${options?.prefix ?? "websearch"}:ratelimit:`
  return Layer.merge(
    // On Redis, the cache's misses are single-flight across the replicas too (a short lease per key).
    services(options, ResultCacheStore.layerLeased(bounded, options)).pipe(
      Layer.provide(
        RedisConnection.tolerantRelease(
          Layer.merge(
            boundedLimiterStore(
              TokenBucket.layerRedis(RedisModules.rateLimiterStoreLayer({ ...bounded, prefix: limiterPrefix }), {
                ...bounded,
                prefix: limiterPrefix
              }),
              timeout
            ),
            RedisModules.persistenceLayer(bounded)
          )
        )
      )
    ),
    Layer.scoped(StoreHealth.StoreHealth, RedisConnection.health(bounded, timeout))
  )
}

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

/**
 * What `layerConfig` reads: the shared-store options, and the Redis URL when there is one (a secret: it may carry
 * a password).
 *
 * @since 0.2.0
 * @category models
 */
export interface ConfigOptions extends Options {
  readonly redisUrl?: Redacted.Redacted<string> | undefined
  /**
   * On Redis: crawl workers per replica (`WEBSEARCH_CRAWL_WORKERS`, default 4) and how long a claimed page may
   * stay unsettled before another replica takes it over (`WEBSEARCH_CRAWL_CLAIM_IDLE`, default 1 minute).
   *
   * @since 0.2.0
   */
  readonly crawl?: { readonly workers?: number | undefined; readonly claimIdle?: Duration.Duration | undefined }
}

/**
 * The shared-store settings from the environment (or the application's `ConfigProvider`): `REDIS_URL` (Redis when
 * set and not blank, memory otherwise), `WEBSEARCH_REDIS_PREFIX` (key namespace), `WEBSEARCH_CACHE_MEMORY_ENTRIES`
 * (in-memory capacity, in entries), `WEBSEARCH_CACHE_MEMORY_BYTES` (in-memory capacity, in bytes), and for crawl
 * jobs on Redis `WEBSEARCH_CRAWL_WORKERS` and `WEBSEARCH_CRAWL_CLAIM_IDLE` (see `layerCrawlJobs`).
 *
 * @since 0.2.0
 * @category constructors
 */
export const config: Config.Config<ConfigOptions> = Config.map(
  Config.all({
    url: Config.option(Config.redacted("REDIS_URL")).pipe(
      Config.map(Option.filter((value) => Redacted.value(value).trim() !== ""))
    ),
    prefix: ConfigText.optionalString("WEBSEARCH_REDIS_PREFIX"),
    capacity: Config.option(Config.integer("WEBSEARCH_CACHE_MEMORY_ENTRIES")),
    maxBytes: Config.option(Config.integer("WEBSEARCH_CACHE_MEMORY_BYTES")),
    workers: Config.option(Config.integer("WEBSEARCH_CRAWL_WORKERS")),
    claimIdle: Config.option(Config.duration("WEBSEARCH_CRAWL_CLAIM_IDLE"))
  }),
  ({ capacity, claimIdle, maxBytes, prefix, url, workers }) => ({
    ...(Option.isSome(url) ? { redisUrl: url.value } : {}),
    ...(Option.isSome(prefix) ? { prefix: prefix.value } : {}),
    ...(Option.isSome(capacity) ? { cacheCapacity: capacity.value } : {}),
    ...(Option.isSome(maxBytes) ? { cacheMaxBytes: maxBytes.value } : {}),
    ...(Option.isSome(workers) || Option.isSome(claimIdle)
      ? { crawl: { workers: Option.getOrUndefined(workers), claimIdle: Option.getOrUndefined(claimIdle) } }
      : {})
  })
)

/**
 * Redis when the configuration has a Redis URL, memory otherwise. The configuration is `config` (the environment's
 * variables) unless the application passes its own, e.g. `Config.map(SharedStores.config, (c) => ({ ...c, timeout:
 * "2 seconds" }))` or a `Config` over its own variable names.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  configured: Config.Config<ConfigOptions> = config
): Layer.Layer<SharedStores, WebSearchError.Unavailable, Composition.Composition> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const { redisUrl, ...merged } = yield* configured
      if (merged.cacheMaxBytes !== undefined && merged.cacheMaxBytes < 1024) {
        return yield* Effect.fail(
          WebSearchError.unavailable("invalid_config", "WEBSEARCH_CACHE_MEMORY_BYTES must be at least 1024")
        )
      }
      if (merged.cacheCapacity !== undefined && merged.cacheCapacity < 1) {
        return yield* Effect.fail(
          WebSearchError.unavailable("invalid_config", "WEBSEARCH_CACHE_MEMORY_ENTRIES must be at least 1")
        )
      }
      if (redisUrl === undefined) {
        yield* Effect.logDebug("websearch keeps its cache and quotas in memory (REDIS_URL is not set)")
        return layerMemory(merged)
      }
      return layerRedisUrl(redisUrl, merged)
    }).pipe(
      Effect.catchTag("ConfigError", (error) =>
        Effect.fail(WebSearchError.unavailable("invalid_config", `invalid shared-store configuration: ${error}`))
      )
    )
  )

/**
 * Crawl jobs where the shared stores are: on Redis (`CrawlJobsRedis`: every replica reads pages of every crawl and
 * answers for any job; `WEBSEARCH_CRAWL_WORKERS` and `WEBSEARCH_CRAWL_CLAIM_IDLE` unless `options` set them) when
 * the configuration has a Redis URL, in this process's memory otherwise. Not a part of
 * `WebSearch.layer` like the cache and quotas (a crawl runs the capabilities it builds): provide it over the
 * application's layer, where the HTTP server finds it.
 *
 * @example
 * ```ts
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as SharedStores from "@websearch/node/SharedStores"
 * import * as Layer from "effect/Layer"
 *
 * // REDIS_URL set: crawls shared by the replicas; unset: in memory. At most 8 crawls at once per workspace.
 * export const Live = SharedStores.layerCrawlJobs({ maxRunning: 8 }).pipe(
 *   Layer.provideMerge(WebSearch.layer(Fetch.layer, SharedStores.layerConfig())),
 *   Layer.provide(Settings.layerConfig())
 * )
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerCrawlJobs = (
  options: CrawlJobsRedis.Options = {},
  configured: Config.Config<ConfigOptions> = config
): Layer.Layer<CrawlJobs.CrawlJobs, WebSearchError.Unavailable, Settings | ProviderRegistry | FetchUrls> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const { crawl, prefix, redisUrl } = yield* configured
      if (redisUrl === undefined) return CrawlJobs.layerMemory(options)
      const workers = options.workers ?? crawl?.workers
      if (workers !== undefined && (!Number.isSafeInteger(workers) || workers < 0 || workers > 64)) {
        return yield* Effect.fail(
          WebSearchError.unavailable("invalid_config", "WEBSEARCH_CRAWL_WORKERS must be an integer from 0 to 64")
        )
      }
      const parsed = RedisConnection.parse(redisUrl)
      if (Either.isLeft(parsed)) return yield* Effect.fail(parsed.left)
      yield* RedisConnection.ping(parsed.right.options, parsed.right.display)
      yield* Effect.logInfo(`websearch shares its crawl jobs on Redis at ${parsed.right.display}`)
      return CrawlJobsRedis.layer(parsed.right.options, {
        ...options,
        prefix: options.prefix ?? prefix,
        workers,
        claimIdle: options.claimIdle ?? crawl?.claimIdle
      })
    }).pipe(
      Effect.catchTag("ConfigError", (error) =>
        Effect.fail(WebSearchError.unavailable("invalid_config", `invalid shared-store configuration: ${error}`))
      )
    )
  )
