/**
 * ioredis and @effect/experimental's Redis stores, loaded when a Redis layer is first built rather than when a module
 * of the shared stores is imported. A process that keeps its state in memory (the default, and every CLI run) never
 * loads them: in the in-memory server of bench/hostile at idle they held about 1 MiB of V8 heap and 2 to 4 MiB of RSS.
 */
import type * as Persistence from "@effect/experimental/Persistence"
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Redis, RedisOptions } from "ioredis"

/** What `import("ioredis")` gives, under Node's loader or inside a bundle. */
interface Loaded {
  readonly Redis?: typeof Redis
  readonly default?: { readonly Redis?: typeof Redis }
}

/** A new ioredis client on `options`, with a no-op `error` listener (failures reach callers through commands). */
export const client = (options: RedisOptions): Effect.Effect<Redis> =>
  Effect.promise(() => import("ioredis")).pipe(
    Effect.map((ioredis) => {
      // The CLI's esbuild bundle gives a CommonJS module's chunk only its `default` export (ioredis's
      // `module.exports`: `ioredis.Redis` was undefined there), and TypeScript types `default` as `module.exports`
      // or as the class itself depending on the module resolution; Node's own loader gives both. So: the named
      // export when there is one, else `module.exports.Redis`.
      const loaded = ioredis as unknown as Loaded
      const Client = (loaded.Redis ?? loaded.default?.Redis)!
      const redis = new Client(options)
      // Without a listener ioredis also prints every failure that each command's rejection already reports.
      redis.on("error", () => {})
      return redis
    })
  )

/** @effect/experimental's `Persistence` on Redis (`Persistence/Redis`'s `layer`), loaded when built. */
export const persistenceLayer = (options: RedisOptions): Layer.Layer<Persistence.BackingPersistence> =>
  Layer.unwrapEffect(
    Effect.promise(() => import("@effect/experimental/Persistence/Redis")).pipe(
      Effect.map((module) => module.layer(options))
    )
  )

/** @effect/experimental's Redis `RateLimiterStore` (`RateLimiter/Redis`'s `layerStore`), loaded when built. */
export const rateLimiterStoreLayer = (
  options: RedisOptions & { readonly prefix?: string | undefined }
): Layer.Layer<RateLimiter.RateLimiterStore> =>
  Layer.unwrapEffect(
    Effect.promise(() => import("@effect/experimental/RateLimiter/Redis")).pipe(
      Effect.map((module) => module.layerStore(options))
    )
  )
