/**
 * A deadline on one call: `Effect.timeoutFail` (the call is interrupted and its finalizers have run before the
 * timeout error is raised; a result that arrives first wins), run where its caller's interruption reaches it.
 *
 * Why not `Effect.timeoutFail` alone (effect 3.22.4, the last 3.x): it waits for its race uninterruptibly, and it
 * forks the race into the fork scope its caller inherited. Inside a concurrent `Effect.forEach` that scope is the
 * `forEach` caller's, not the item's (`forEachConcurrentDiscard` grafts each item with the caller's scope), so when
 * a sibling fails and `forEach` interrupts the item, the interruption reaches neither the race nor the call: the
 * item, and so the whole request, waits until the call's own timeout fires. No upstream issue names this (searched
 * the Effect-TS/effect tracker: the nearest, Effect-TS/effect#4189 "ensure Effect.timeoutTo sleep is interrupted",
 * is another case); `test/Deadline.test.ts` reproduces it with `Effect.timeoutFail` itself and fails once an
 * upgrade fixes it, so this wrapper can go.
 *
 * The workaround, kept to Effect's own primitives: the call runs in a fiber of its own and the timeout runs in
 * another, which the caller awaits interruptibly; the caller's interruption interrupts the call (waiting for its
 * finalizers), which ends the timeout's race. Both are awaited, not joined, so what the call set in fiber refs
 * stays its own, as a driver call's should, and a failing call is never a fiber that ends in an unhandled failure
 * (the runtime logs such a fiber with its failure, which may quote a provider's answer). The call yields once
 * before its first step so the deadline's fiber runs first, as a race starts both sides together: the calls of
 * one request then begin in input order under any clock (a `TestClock` serialises the first sleeps it is given).
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"

/** Fails with `onTimeout()` when `self` has not completed within `duration`, after interrupting it. */
export const timeoutFail = <A, E, R, E1>(
  self: Effect.Effect<A, E, R>,
  duration: Duration.Duration,
  onTimeout: () => E1
): Effect.Effect<A, E | E1, R> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(Effect.fork(Effect.exit(Effect.zipRight(Effect.yieldNow(), restore(self)))), (call) => {
      const stop = Fiber.interrupt(call)
      // On the timeout, `timeoutFail` interrupts this wait, which interrupts the call and waits for it.
      const outcome = Effect.onInterrupt(Effect.flatMap(Fiber.await(call), Exit.flatten), () => stop)
      const timed = Effect.exit(Effect.timeoutFail(outcome, { duration, onTimeout }))
      return Effect.flatMap(Effect.fork(restore(timed)), (deadline) =>
        restore(Effect.flatMap(Fiber.await(deadline), Exit.flatten)).pipe(
          Effect.onInterrupt(() => Effect.zipRight(stop, Fiber.interrupt(deadline)))
        )
      )
    })
  )
