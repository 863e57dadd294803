/**
 * Single flight across processes for the result cache: before calling a provider on a miss, a replica takes a
 * short lease on the key in the shared store. The holder calls, writes the entry and frees the lease, renewing
 * it while its call runs; the others poll the store for the entry (bounded by `maxWait`), and take the lease
 * themselves when it is freed or lapses without an entry (the holder failed with an outcome that is not kept, or
 * died: a lease nobody renews lapses after its short time to live). A store that fails to answer never holds a
 * call up: the replica calls as if there were no lease.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"

/** A lease held by this process; `renew` answers false when the lease was lost. */
export interface Held<E> {
  readonly renew: Effect.Effect<boolean, E>
  readonly release: Effect.Effect<void, E>
}

/** The store side: take a lease on a key for a time to live, `None` when another process holds it. */
export interface Leases<E> {
  readonly acquire: (key: string, timeToLive: Duration.Duration) => Effect.Effect<Option.Option<Held<E>>, E>
}

/** How long a lease lives unrenewed, and the longest a replica waits for another's answer. */
export interface Timing {
  readonly timeToLive: Duration.Duration
  readonly maxWait: Duration.Duration
}

/** The timing from `ResultCache.Options.lease`: 3 s unrenewed, 10 s of waiting by default. */
export const timing = (
  options: { readonly timeToLive?: Duration.DurationInput; readonly maxWait?: Duration.DurationInput } | undefined
): Timing => ({
  timeToLive: Duration.decode(options?.timeToLive ?? "3 seconds"),
  maxWait: Duration.decode(options?.maxWait ?? "10 seconds")
})

const firstPoll = Duration.millis(25)
const longestPoll = Duration.millis(250)

/**
 * Runs `call` (which also writes the entry) under the lease on `key`, or answers with `shared` of the entry another
 * process wrote. `guard` bounds and swallows a store operation's failure (`None`); `lookup` reads the entry.
 */
export const run = <Entry, A, E, SE>(options: {
  readonly key: string
  readonly leases: Leases<SE>
  readonly timing: Timing
  readonly guard: <X>(operation: string, effect: Effect.Effect<X, SE>) => Effect.Effect<Option.Option<X>>
  readonly lookup: Effect.Effect<Option.Option<Entry>>
  readonly call: Effect.Effect<A, E>
  readonly shared: (entry: Entry) => Effect.Effect<A, E>
}): Effect.Effect<A, E> => {
  const { guard, leases, lookup, shared, timing } = options
  const callAlone = options.call
  const renewEvery = Duration.millis(Math.max(1, Duration.toMillis(timing.timeToLive) / 3))
  // Runs with the lease held; `attempt` frees it however this ends.
  const lead = (held: Held<SE>) =>
    // Another process may have written the entry and freed the lease between this process's miss and its
    // acquisition: look once more before calling.
    Effect.flatMap(lookup, (entry) =>
      Option.isSome(entry)
        ? shared(entry.value)
        : Effect.scoped(
            Effect.zipRight(
              Effect.forkScoped(Effect.repeat(guard("lease renew", held.renew), Schedule.spaced(renewEvery))),
              callAlone
            )
          )
    )
  // Taking the lease and arming its release happen without an interruption between them, so a caller interrupted
  // just after the lease landed still frees it; the call itself stays interruptible.
  const attempt = <X>(next: (acquired: Option.Option<Option.Option<Held<SE>>>) => Effect.Effect<X, E>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(guard("lease", leases.acquire(options.key, timing.timeToLive)), (acquired) =>
        Option.isSome(acquired) && Option.isSome(acquired.value)
          ? restore(next(acquired)).pipe(Effect.ensuring(guard("lease release", acquired.value.value.release)))
          : restore(next(acquired))
      )
    )
  const wait = (deadline: number, delay: Duration.Duration): Effect.Effect<A, E> =>
    Effect.zipRight(
      Effect.sleep(delay),
      Effect.flatMap(lookup, (entry) => {
        if (Option.isSome(entry)) return shared(entry.value)
        return attempt((acquired) => {
          // The store stopped answering: call rather than wait on it.
          if (Option.isNone(acquired)) return callAlone
          if (Option.isSome(acquired.value)) return lead(acquired.value.value)
          // Bounded: a holder that is alive but slow does not hold this caller past maxWait.
          return Effect.flatMap(Clock.currentTimeMillis, (now) =>
            now >= deadline ? callAlone : wait(deadline, Duration.min(Duration.times(delay, 2), longestPoll))
          )
        })
      })
    )
  return attempt((acquired) => {
    if (Option.isNone(acquired)) return callAlone
    if (Option.isSome(acquired.value)) return lead(acquired.value.value)
    return Effect.flatMap(Clock.currentTimeMillis, (now) => wait(now + Duration.toMillis(timing.maxWait), firstPoll))
  })
}
