/**
 * Turns a Redis URL into ioredis options and checks, once at start-up, that the server answers, so a replica
 * with a wrong `REDIS_URL` refuses to start instead of silently serving without its shared cache and quotas.
 * Messages name the server by its redacted URL (no password).
 */
import * as Redaction from "@websearch/core/internal/redaction"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type * as StoreHealth from "@websearch/core/StoreHealth"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import type { RedisOptions } from "ioredis"
import * as RedisModules from "./redisModules.js"

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
  return Either.right({ options: bounded(options), display: shown })
}

/**
 * ioredis waits for a reply without limit by default: a Redis that is stopped (SIGSTOP) or busy (`DEBUG SLEEP`,
 * a slow script) keeps its socket open and every command pending. A command timeout makes each command fail
 * after `commandTimeout`, whatever the caller does; the stores also bound each operation themselves.
 */
export const defaultCommandTimeout = 2_000

/** The options with a command timeout, unless the caller chose one. */
export const bounded = (options: RedisOptions): RedisOptions => ({
  ...options,
  commandTimeout: options.commandTimeout ?? defaultCommandTimeout
})

// ioredis reports the address and the server's reply; a reply may still echo the password, in any of its forms.
// The password is the user's choice and may be short, so every length is scrubbed.
export const scrubber = (options: RedisOptions) => {
  const secretForms =
    options.password === undefined || options.password === "" ? [] : Redaction.forms(options.password, options.username)
  return (cause: unknown): string =>
    Redaction.scrub(cause instanceof Error ? cause.message : String(cause), secretForms, { minLength: 1 })
}

/**
 * The health of the Redis server behind the stores: a PING on a connection of its own, bounded by `timeout`.
 * Answers are kept for a second, so a prober calling `/health` often costs Redis one PING a second, and a
 * stopped Redis costs the prober at most `timeout` once a second.
 */
export const health = (
  options: RedisOptions,
  timeout: Duration.Duration
): Effect.Effect<StoreHealth.StoreHealth.Service, never, Scope.Scope> =>
  Effect.gen(function* () {
    const millis = Math.max(1, Duration.toMillis(timeout))
    const redis = yield* Effect.acquireRelease(
      // Failures are reported through the PING's rejection.
      RedisModules.client({ ...options, lazyConnect: true, commandTimeout: millis, maxRetriesPerRequest: 0 }),
      (client) => Effect.sync(() => client.disconnect())
    )
    const scrubbed = scrubber(options)
    const ping = Effect.tryPromise({ try: () => redis.ping(), catch: (cause) => cause }).pipe(
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () => new Error(`no answer within ${Duration.format(timeout)}`)
      }),
      Effect.as<StoreHealth.Status>({ name: "redis", status: "ok" }),
      Effect.catchAll((cause) => {
        return Effect.succeed<StoreHealth.Status>({ name: "redis", status: "degraded", message: scrubbed(cause) })
      }),
      Effect.map((status): ReadonlyArray<StoreHealth.Status> => [status])
    )
    const check = yield* Effect.cachedWithTTL(ping, "1 second")
    return { check }
  })

/** Connects once, sends PING and disconnects; fails `Unavailable/invalid_config` naming the (redacted) URL. */
export const ping = (options: RedisOptions, shown: string): Effect.Effect<void, WebSearchError.Unavailable> =>
  Effect.acquireUseRelease(
    // The failure is reported through connect()'s rejection.
    RedisModules.client({ ...options, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null }),
    (redis) =>
      Effect.tryPromise({
        try: () => redis.connect().then(() => redis.ping()),
        catch: (cause) => cause
      }).pipe(
        Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => new Error("no answer within 5 seconds") }),
        Effect.mapError((cause) => invalid(`cannot reach Redis at ${shown} (REDIS_URL): ${scrubber(options)(cause)}`)),
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
