/**
 * A deadline on one call: `Effect.timeoutFail`'s meaning (the call is interrupted and its finalizers have run
 * before the timeout error is raised; a result that arrives first wins), built on `Effect.raceFirst`.
 *
 * Not `Effect.timeoutFail` itself: in effect 3.22 it waits for its race uninterruptibly, and inside a concurrent
 * `Effect.forEach` the race's fibers belong to the `forEach` caller's scope, not to the item's fiber, so a
 * sibling's failure interrupts the item but never reaches the call, which runs on until its own timeout fires
 * (Pipeline.test.ts, "an Aborted from one input fails the request at once").
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/** Fails with `onTimeout()` when `self` has not completed within `duration`, after interrupting it. */
export const timeoutFail = <A, E, R, E1>(
  self: Effect.Effect<A, E, R>,
  duration: Duration.Duration,
  onTimeout: () => E1
): Effect.Effect<A, E | E1, R> =>
  Effect.raceFirst(self, Effect.zipRight(Effect.sleep(duration), Effect.failSync(onTimeout)))
