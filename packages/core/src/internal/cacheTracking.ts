/**
 * The counters `ResultCache.track` hands the look-ups made on its behalf: a context reference, so the pipeline's
 * forked fibers see it as they see any service (a context is inherited by a fork), and a run outside `track` sees
 * the default, no counter at all. A list, so nested `track` calls each count: a server and a library caller may
 * both want the figures.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

/** The hits and misses counted for one `track`. */
export interface Counter {
  hits: number
  misses: number
}

/** The counters of every `track` the current effect runs inside, outermost first. */
export class Counters extends Context.Reference<Counters>()("@websearch/core/ResultCache/Counters", {
  defaultValue: (): ReadonlyArray<Counter> => []
}) {}

/** Counts one look-up's outcome in every enclosing `track`. */
export const count = (outcome: "hit" | "miss"): Effect.Effect<void> =>
  Effect.flatMap(Counters, (list) =>
    Effect.sync(() => {
      for (const counter of list) {
        if (outcome === "hit") counter.hits += 1
        else counter.misses += 1
      }
    })
  )

/** Runs `self` with one more counter, and answers its figures with the value. */
export const track = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<[A, Counter], E, R> =>
  Effect.flatMap(Counters, (list) => {
    const counter: Counter = { hits: 0, misses: 0 }
    return Effect.provideService(self, Counters, [...list, counter]).pipe(
      Effect.map((a): [A, Counter] => [a, { hits: counter.hits, misses: counter.misses }])
    )
  })
