/**
 * Turns a Redis URL into ioredis options and checks, once at start-up, that the server answers, so a replica
 * with a wrong `REDIS_URL` refuses to start instead of silently serving without its shared cache and quotas.
 * Messages name the server by its redacted URL (no password).
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import type { RedisOptions } from "ioredis"
import { Redis } from "ioredis"

/** The URL as it may be shown: the password (if any) replaced. */
export const display = (url: URL): string => {
  const password = url.password === "" ? "" : ":***"
  const auth = url.username === "" && password === "" ? "" : `${url.username}${password}@`
  return `${url.protocol}//${auth}${url.host}${url.pathname}`
}

const invalid = (message: string) => WebSearchError.unavailable("invalid_config", message)

/**
 * Parses `redis://[user[:password]@]host[:port][/db]` or `rediss://…` (TLS). Store operations give up quickly
 * (the cache and the quota treat a failed operation as a miss or a pass), so a Redis outage slows nothing down.
 */
export const parse = (
  url: Redacted.Redacted<string>
): Either.Either<{ readonly options: RedisOptions; readonly display: string }, WebSearchError.Unavailable> => {
  const text = Redacted.value(url).trim()
  if (!URL.canParse(text)) return Either.left(invalid("REDIS_URL is not a URL (redis://host:6379/0)"))
  const parsed = new URL(text)
  const shown = display(parsed)
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    return Either.left(invalid(`REDIS_URL must be a redis:// or rediss:// URL, not ${shown}`))
  }
  const db = parsed.pathname === "" || parsed.pathname === "/" ? 0 : Number(parsed.pathname.slice(1))
  if (!Number.isSafeInteger(db) || db < 0) {
    return Either.left(invalid(`REDIS_URL names database "${parsed.pathname.slice(1)}", which is not a number`))
  }
  const port = parsed.port === "" ? 6379 : Number(parsed.port)
  const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname
  const options: RedisOptions = {
    host,
    port,
    db,
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(parsed.protocol === "rediss:" ? { tls: { servername: host } } : {}),
    connectTimeout: 5_000,
    maxRetriesPerRequest: 1
  }
  return Either.right({ options, display: shown })
}

/** Connects once, sends PING and disconnects; fails `Unavailable/invalid_config` naming the (redacted) URL. */
export const ping = (options: RedisOptions, shown: string): Effect.Effect<void, WebSearchError.Unavailable> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const redis = new Redis({ ...options, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
      // The failure is reported through connect()'s rejection; without a listener ioredis also prints it.
      redis.on("error", () => {})
      return redis
    }),
    (redis) =>
      Effect.tryPromise({
        try: () => redis.connect().then(() => redis.ping()),
        catch: (cause) => cause
      }).pipe(
        Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => new Error("no answer within 5 seconds") }),
        Effect.mapError((cause) => {
          const reason = cause instanceof Error ? cause.message : String(cause)
          const password = options.password
          const safe = password === undefined || password === "" ? reason : reason.split(password).join("[redacted]")
          return invalid(`cannot reach Redis at ${shown} (REDIS_URL): ${safe}`)
        }),
        Effect.asVoid
      ),
    (redis) => Effect.sync(() => redis.disconnect())
  ).pipe(Effect.withSpan("websearch.redis.ping", { captureStackTrace: false }))

/**
 * Builds a layer whose finalizers may die, keeping their failure out of the caller's shutdown: the
 * @effect/experimental Redis layers close with `quit()`, which rejects when the server is already gone, and a
 * replica shutting down during a Redis outage must still shut down cleanly.
 */
export const tolerantRelease = <A, E>(layer: Layer.Layer<A, E>): Layer.Layer<A, E> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const inner = yield* Scope.make()
      yield* Effect.addFinalizer(() =>
        Scope.close(inner, Exit.void).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logDebug(`websearch Redis connection did not close cleanly: ${Cause.squash(cause)}`)
          )
        )
      )
      return yield* Layer.buildWithScope(layer, inner)
    })
  )
