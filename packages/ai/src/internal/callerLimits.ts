/**
 * The per-caller limits of the MCP HTTP endpoint: a request rate (requests per window, `@effect/experimental`'s
 * `RateLimiter` in this process's memory, fixed windows) and a bound on requests in progress at once, so one token
 * can neither flood the server nor hold all of its work. A caller over either is told how long to wait; other
 * callers are not affected.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/** Why a request was refused and when to try again (whole seconds). */
export interface Limited {
  readonly message: string
  readonly retryAfter: number
}

/** The limits of one endpoint. */
export interface Limits {
  readonly rateLimit: Option.Option<{ readonly limit: number; readonly window: Duration.Duration }>
  readonly maxConcurrentRequests: number
}

// A caller at its bound of requests in progress is told to wait this long: its own requests end it.
const busyRetryAfter = 1

/** The limits' state for one endpoint. */
export const make = Effect.fnUntraced(function* (limits: Limits) {
  const limiter = yield* RateLimiter.make.pipe(Effect.provide(RateLimiter.layerStoreMemory))
  const inProgress = new Map<string, number>()

  /** Counts a request of `caller` against its rate: `Limited` when it is over. */
  const count = (caller: string): Effect.Effect<Option.Option<Limited>> =>
    Option.match(limits.rateLimit, {
      onNone: () => Effect.succeedNone,
      onSome: ({ limit, window }) =>
        limiter
          .consume({ key: `websearch:mcp:${caller}`, limit, window, algorithm: "fixed-window", onExceeded: "fail" })
          .pipe(
            Effect.as(Option.none<Limited>()),
            Effect.catchAll((error) => {
              // The store is this process's memory; it has no other failure than the limit.
              const seconds =
                error.reason === "Exceeded" ? Math.max(1, Math.ceil(Duration.toSeconds(error.retryAfter))) : 1
              return Effect.succeed(
                Option.some({
                  message: `Too Many Requests: this caller made more than ${limit} requests in ${Duration.format(window)}; retry after ${seconds} s`,
                  retryAfter: seconds
                })
              )
            })
          )
    })

  /** Runs `effect` as one of `caller`'s requests in progress, or answers `Limited` when it has as many as it may. */
  const admit = <A, E, R>(caller: string, effect: Effect.Effect<A, E, R>, refused: (limited: Limited) => A) =>
    Effect.suspend(() => {
      const running = inProgress.get(caller) ?? 0
      if (running >= limits.maxConcurrentRequests) {
        return Effect.succeed(
          refused({
            message: `Too Many Requests: this caller has ${limits.maxConcurrentRequests} requests in progress; retry after ${busyRetryAfter} s`,
            retryAfter: busyRetryAfter
          })
        )
      }
      inProgress.set(caller, running + 1)
      return Effect.ensuring(
        effect,
        Effect.sync(() => {
          const left = (inProgress.get(caller) ?? 1) - 1
          if (left === 0) inProgress.delete(caller)
          else inProgress.set(caller, left)
        })
      )
    })

  return { count, admit } as const
})
