/**
 * Provider quota stores for `@websearch/core/ProviderQuota`: budgets on @effect/experimental's `RateLimiter`
 * (token bucket) and Retry-After hold-offs on its `Persistence`, in memory or on Redis. On Redis every replica
 * draws from the same budget and sees the same hold-off, so several servers together stay within a provider's
 * limit.
 *
 * Most applications use `SharedStores.layerConfig`, which picks Redis when `REDIS_URL` is set.
 *
 * @since 0.1.0
 */
import * as Persistence from "@effect/experimental/Persistence"
import * as RateLimiter from "@effect/experimental/RateLimiter"
import type * as Composition from "@websearch/core/Composition"
import * as ProviderQuota from "@websearch/core/ProviderQuota"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"

/**
 * Options of the quota stores.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options extends ProviderQuota.Options {
  /** Namespace of the keys; replicas that share quotas use the same prefix. Default `websearch`. */
  readonly prefix?: string | undefined
}

const storeError = (operation: string) => (error: { readonly message: string }) =>
  new ProviderQuota.StoreError({ message: `${operation}: ${error.message}`, cause: error })

// A backing error's own message is only its reason; the cause says what went wrong (never a password: ioredis
// reports the address and the server's reply).
const persistenceError = (operation: string) => (error: Persistence.PersistenceError) =>
  storeError(operation)({
    message: error.reason === "BackingError" && error.cause instanceof Error ? error.cause.message : error.message
  })

/**
 * Adapts a `RateLimiter` and a `Persistence` backing store to the core quota store contract. Budget keys are
 * `<prefix>:provider:<key>` in the limiter, so they never collide with other users of the same limiter (the
 * server's per-token limits).
 */
const fromServices = (
  limiter: RateLimiter.RateLimiter,
  holdOffs: Persistence.BackingPersistenceStore,
  prefix = "websearch"
): ProviderQuota.Store => ({
  consume: ({ key, limit, window }) =>
    limiter
      .consume({ algorithm: "token-bucket", onExceeded: "fail", key: `${prefix}:provider:${key}`, limit, window })
      .pipe(
        Effect.as(Option.none<Duration.Duration>()),
        Effect.catchIf(
          (error): error is RateLimiter.RateLimitExceeded => error.reason === "Exceeded",
          (exceeded) => Effect.succeed(Option.some(exceeded.retryAfter))
        ),
        Effect.mapError(storeError("consume"))
      ),
  holdOffUntil: (key) =>
    holdOffs.get(key).pipe(
      // Whatever another writer left under the key is ignored unless it is a time.
      Effect.map(Option.filter(Schema.is(Schema.Finite))),
      Effect.mapError(persistenceError("read hold-off"))
    ),
  setHoldOff: (key, until) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      until <= now
        ? Effect.void
        : holdOffs
            .set(key, until, Option.some(Duration.millis(until - now)))
            .pipe(Effect.mapError(persistenceError("set hold-off")))
    )
})

/**
 * Builds the quota over the `RateLimiter` and `BackingPersistence` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options?: Options
): Effect.Effect<
  ProviderQuota.ProviderQuota.Service,
  never,
  RateLimiter.RateLimiter | Persistence.BackingPersistence | Scope.Scope
> =>
  Effect.gen(function* () {
    const prefix = options?.prefix ?? "websearch"
    const limiter = yield* RateLimiter.RateLimiter
    const backing = yield* Persistence.BackingPersistence
    const holdOffs = yield* backing.make(`${prefix}:quota`)
    return yield* ProviderQuota.make(fromServices(limiter, holdOffs, prefix), options)
  })

/**
 * A part of `WebSearch.layer(...)`: the quota over the `RateLimiter` and `BackingPersistence` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options?: Options
): Layer.Layer<never, never, Composition.Composition | RateLimiter.RateLimiter | Persistence.BackingPersistence> =>
  ProviderQuota.layerScoped(make(options))
