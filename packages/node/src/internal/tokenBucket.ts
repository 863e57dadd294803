/**
 * The token bucket behind provider budgets, for @effect/experimental's `RateLimiterStore`. The stores that
 * package ships (memory and Redis) advance a bucket's refill clock by whole intervals even while the bucket is
 * full, so a full bucket keeps the leftover fraction of an interval: a call drawn from it gets its token back
 * early, and a span shorter than `window / limit` could see two grants at `limit = 1` — one more than a token
 * bucket allows (`limit` at once, then one per `window / limit`). Here a bucket that reaches its capacity restarts
 * its refill clock at that moment, in memory and in the Redis script alike; `fixedWindow` is the inner store's.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { RedisOptions } from "ioredis"
import * as RedisModules from "./redisModules.js"

type TokenBucket = RateLimiter.RateLimiterStore["Type"]["tokenBucket"]

/** One step of the bucket: refill (restarting the clock at capacity), then take `tokens` if they are there. */
export const step = (
  state: { tokens: number; refilled: number } | undefined,
  options: { readonly tokens: number; readonly limit: number; readonly every: number; readonly now: number },
  allowOverflow: boolean
): { readonly state: { tokens: number; refilled: number }; readonly left: number } => {
  const bucket = state ?? { tokens: options.limit, refilled: options.now }
  const back = Math.floor((options.now - bucket.refilled) / options.every)
  if (back > 0) {
    bucket.tokens = Math.min(options.limit, bucket.tokens + back)
    bucket.refilled = bucket.tokens === options.limit ? options.now : bucket.refilled + back * options.every
  }
  const left = bucket.tokens - options.tokens
  if (left >= 0 || allowOverflow) bucket.tokens = left
  return { state: bucket, left }
}

const memoryBucket = (): TokenBucket => {
  const buckets = new Map<string, { tokens: number; refilled: number }>()
  return (options) =>
    Effect.clockWith((clock) =>
      Effect.sync(() => {
        const every = Duration.toMillis(options.refillRate)
        const { state, left } = step(
          buckets.get(options.key),
          { tokens: options.tokens, limit: options.limit, every, now: clock.unsafeCurrentTimeMillis() },
          options.allowOverflow
        )
        buckets.set(options.key, state)
        return left
      })
    )
}

// The same step as `step`, atomically on the server. The bucket expires once it would be full again anyway.
const script = `
local state = redis.call("HMGET", KEYS[1], "tokens", "refilled")
local take = tonumber(ARGV[1])
local every = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local tokens = tonumber(state[1])
local refilled = tonumber(state[2])
if tokens == nil or refilled == nil then
  tokens = limit
  refilled = now
end
local back = math.floor((now - refilled) / every)
if back > 0 then
  tokens = math.min(limit, tokens + back)
  if tokens == limit then refilled = now else refilled = refilled + back * every end
end
local left = tokens - take
if left >= 0 or ARGV[5] == "1" then tokens = left end
redis.call("HSET", KEYS[1], "tokens", tokens, "refilled", refilled)
redis.call("PEXPIRE", KEYS[1], math.ceil(every * (limit - tokens + 1)) + 1000)
return left
`

const redisBucket = (
  options: RedisOptions & { readonly prefix: string }
): Effect.Effect<TokenBucket, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.suspend(() => {
        const { prefix: _prefix, ...connection } = options
        return RedisModules.client(connection)
      }),
      (redis) => Effect.sync(() => redis.disconnect())
    ),
    (redis): TokenBucket =>
      (bucket) =>
        Effect.clockWith((clock) =>
          Effect.tryPromise({
            try: () =>
              redis.eval(
                script,
                1,
                `${options.prefix}bucket:${bucket.key}`,
                bucket.tokens,
                Duration.toMillis(bucket.refillRate),
                bucket.limit,
                clock.unsafeCurrentTimeMillis(),
                bucket.allowOverflow ? "1" : "0"
              ) as Promise<number>,
            catch: (cause) => new RateLimiter.RateLimitStoreError({ message: "the token-bucket command failed", cause })
          })
        )
  )

const withBucket = <E, R>(
  inner: Layer.Layer<RateLimiter.RateLimiterStore, E, R>,
  bucket: Effect.Effect<TokenBucket, never, Scope.Scope>
): Layer.Layer<RateLimiter.RateLimiterStore, E, R> =>
  Layer.scoped(
    RateLimiter.RateLimiterStore,
    Effect.gen(function* () {
      const store = yield* RateLimiter.RateLimiterStore
      return RateLimiter.RateLimiterStore.of({ fixedWindow: store.fixedWindow, tokenBucket: yield* bucket })
    })
  ).pipe(Layer.provide(inner))

/** The in-memory `RateLimiterStore` with the corrected token bucket. */
export const layerMemory: Layer.Layer<RateLimiter.RateLimiterStore> = withBucket(
  RateLimiter.layerStoreMemory,
  Effect.sync(memoryBucket)
)

/** A Redis `RateLimiterStore` (keys under `prefix`) with the corrected token bucket. */
export const layerRedis = (
  inner: Layer.Layer<RateLimiter.RateLimiterStore>,
  options: RedisOptions & { readonly prefix: string }
): Layer.Layer<RateLimiter.RateLimiterStore> => withBucket(inner, redisBucket(options))
