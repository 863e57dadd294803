/**
 * Short leases on Redis for the result cache's single flight across replicas (`ResultCache.Store.lease`). A lease
 * is one key, `<prefix>:lease:<cache key>`, set with `NX` and a `PX` expiry to a random token of its holder, so
 * only the holder renews or frees it (compare-and-act scripts) and a holder that dies (its renewals stop) frees it
 * when the expiry lapses. The cache key is hashed into the lease key: it carries the input, which may be long.
 */
import * as ResultCache from "@websearch/core/ResultCache"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { RedisOptions } from "ioredis"
import { createHash, randomUUID } from "node:crypto"
import { scrubber } from "./redisConnection.js"
import * as RedisModules from "./redisModules.js"

// Renew or free only a lease still held under this token: another holder's lease (after this one lapsed) stays.
const renewScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`
const releaseScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`

// ioredis reports the address and the server's reply; the reply is scrubbed of the password in any of its forms
// like every other Redis message, and only the scrubbed text is kept.
const failed = (scrub: (cause: unknown) => string, operation: string) => (cause: unknown) => {
  const message = `lease ${operation}: ${scrub(cause)}`
  return new ResultCache.StoreError({ message, cause: message })
}

/** The key a lease on `cacheKey` lives under. */
export const leaseKey = (prefix: string, cacheKey: string): string =>
  `${prefix}:lease:${createHash("sha256").update(cacheKey).digest("base64url")}`

/** Leases on the Redis server of `options`, on a connection of their own that closes with the scope. */
export const make = (
  options: RedisOptions,
  prefix: string
): Effect.Effect<NonNullable<ResultCache.Store["lease"]>, never, Scope.Scope> => {
  const scrub = scrubber(options)
  return Effect.map(
    Effect.acquireRelease(
      // Failures reach the caller through each command's rejection.
      RedisModules.client(options),
      (redis) => Effect.sync(() => redis.disconnect())
    ),
    (redis) => ({
      acquire: (cacheKey, timeToLive) =>
        Effect.suspend(() => {
          const key = leaseKey(prefix, cacheKey)
          const token = randomUUID()
          const millis = String(Math.max(1, Math.ceil(Duration.toMillis(timeToLive))))
          return Effect.tryPromise({
            try: () => redis.set(key, token, "PX", millis, "NX"),
            catch: failed(scrub, "acquire")
          }).pipe(
            Effect.map((answer) =>
              answer === "OK"
                ? Option.some({
                    renew: Effect.tryPromise({
                      try: () => redis.eval(renewScript, 1, key, token, millis) as Promise<number>,
                      catch: failed(scrub, "renew")
                    }).pipe(Effect.map((renewed) => renewed === 1)),
                    release: Effect.tryPromise({
                      try: () => redis.eval(releaseScript, 1, key, token) as Promise<number>,
                      catch: failed(scrub, "release")
                    }).pipe(Effect.asVoid)
                  })
                : Option.none()
            )
          )
        })
    })
  )
}
