/**
 * A deadline on one call, meaning what `Effect.timeoutFail` means (the call is interrupted and its finalizers have
 * run before the timeout error is raised; a result that arrives first wins), built so that its caller's
 * interruption reaches the call.
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
 * The workaround, kept to Effect's own primitives and to two fibers (a timeout's race costs four): the call runs
 * in a fiber of its own, which the caller awaits interruptibly, and a timer fiber interrupts it at the deadline.
 * The caller's interruption interrupts the call and waits for its finalizers; an interrupted call whose timer
 * fired is the timeout, raised after the call's finalizers have run. The call is awaited, not joined, so what it
 * set in fiber refs stays its own, as a driver call's should, and it runs as an `Exit` so a failing call is never a
 * fiber that ends in an unhandled failure (the runtime logs such a fiber with its failure, which may quote a
 * provider's answer). The call yields once before its first step so the timer's sleep starts first: the calls of
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
    Effect.flatMap(Effect.fork(Effect.exit(Effect.zipRight(Effect.yieldNow(), restore(self)))), (call) =>
      Effect.flatMap(
        // Forked fibers inherit this region's uninterruptibility: the timer's sleep must stay interruptible.
        Effect.fork(Effect.interruptible(Effect.zipRight(Effect.sleep(duration), Fiber.interrupt(call)))),
        (timer) =>
          restore(Fiber.await(call)).pipe(
            Effect.onInterrupt(() => Effect.zipRight(Fiber.interrupt(timer), Fiber.interrupt(call))),
            Effect.flatMap((awaited) =>
              Effect.flatMap(Fiber.interrupt(timer), (timerExit): Effect.Effect<A, E | E1> => {
                const exit = Exit.isSuccess(awaited) ? awaited.value : Exit.failCause(awaited.cause)
                // The timer ended by itself only after interrupting the call: that interruption is the timeout.
                return Exit.isFailure(exit) && Exit.isInterrupted(exit) && Exit.isSuccess(timerExit)
                  ? Effect.fail(onTimeout())
                  : exit
              })
            )
          )
      )
    )
  )
