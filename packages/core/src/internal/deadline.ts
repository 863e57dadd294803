/**
 * A deadline on one call: `Effect.timeoutFail`'s meaning (the call is interrupted and its finalizers have run
 * before the timeout error is raised; a result that arrives first wins).
 *
 * Not `Effect.timeoutFail` itself: in effect 3.22 it waits for its race uninterruptibly, and inside a concurrent
 * `Effect.forEach` the race's fibers belong to the `forEach` caller's scope, not to the item's fiber, so a
 * sibling's failure interrupts the item but never reaches the call, which runs on until its own timeout fires
 * (Pipeline.test.ts, "an Aborted from one input fails the request at once").
 *
 * Not a race either, on the live clock: a race forks a second fiber for the timer, interrupts it when the call
 * wins and merges the winner's fiber refs back into the caller (a diff of the whole service context), which cost
 * about as much as the rest of a search's own work (bench/pipeline-call.ts). On the live clock the call runs in one
 * child fiber whose exit is handed back as it is (what it set in fiber refs stays its own, as a driver call's
 * should), and the deadline is a plain timer, armed and cleared as the live clock's own `sleep` does. Any other
 * clock (`TestClock`) is raced against its `sleep`, so tests still drive the deadline.
 */
import type * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"

// The clock every fiber gets by default: its `sleep` is a `setTimeout`, which this module may arm itself.
const liveClock: Clock.Clock = Effect.runSync(Effect.clock)

// Node's timers take at most 2^31 - 1 ms; a longer deadline never fires, as the live clock's `sleep` never wakes.
const maxTimerMillis = 2 ** 31 - 1

const raced = <A, E, R, E1>(
  clock: Clock.Clock,
  self: Effect.Effect<A, E, R>,
  duration: Duration.Duration,
  onTimeout: () => E1
): Effect.Effect<A, E | E1, R> =>
  Effect.raceFirst(self, Effect.zipRight(clock.sleep(duration), Effect.failSync(onTimeout)))

/** Fails with `onTimeout()` when `self` has not completed within `duration`, after interrupting it. */
export const timeoutFail = <A, E, R, E1>(
  self: Effect.Effect<A, E, R>,
  duration: Duration.Duration,
  onTimeout: () => E1
): Effect.Effect<A, E | E1, R> =>
  Effect.clockWith((clock) => {
    if (clock !== liveClock) return raced(clock, self, duration, onTimeout)
    const millis = Duration.toMillis(duration)
    return Effect.uninterruptibleMask((restore) =>
      // The child runs `Effect.exit(self)`, so it never fails itself: a fiber that ends in a failure is logged by
      // the runtime as "terminated with an unhandled error" (with the failure, which may quote a provider's
      // answer), although its exit is handed back here, as a race's fibers never are.
      Effect.flatMap(Effect.fork(Effect.exit(restore(self))), (child) =>
        restore(
          Effect.async<A, E | E1>((resume) => {
            let timer: ReturnType<typeof setTimeout> | undefined
            const onExit = (exit: Exit.Exit<Exit.Exit<A, E>>) => {
              clearTimeout(timer)
              resume(Exit.flatten(exit))
            }
            if (millis <= maxTimerMillis) {
              timer = setTimeout(() => {
                child.removeObserver(onExit)
                resume(Effect.zipRight(Fiber.interrupt(child), Effect.failSync(onTimeout)))
              }, millis)
            }
            child.addObserver(onExit)
            // This fiber is interrupted while it waits (a sibling failed, the client left): so is the call.
            return Effect.suspend(() => {
              clearTimeout(timer)
              child.removeObserver(onExit)
              return Fiber.interrupt(child)
            })
          })
        )
      )
    )
  })
