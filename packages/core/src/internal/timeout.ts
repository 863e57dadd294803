/**
 * A timeout with `Effect.timeoutFail`'s meaning at a fraction of its cost. `timeoutFail` races the effect against
 * a sleeping fiber: two forked fibers, a sleep, a FiberRefs merge and an interruption per call, which on the
 * request path costs more than the rest of the pipeline's own work together. Under the live clock this forks
 * only the effect and arms a plain timer that interrupts it; under any other clock (a `TestClock`) it is
 * `Effect.timeoutFail` itself, so tests that move time by hand see the same behaviour. One difference: FiberRef
 * changes made inside the effect are not merged back into the caller (that merge alone costs more than a fast
 * provider call); the pipeline's calls return their outcome as a value.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"

const liveClock = Context.get(DefaultServices.liveServices, Clock.Clock)

// setTimeout cannot wait longer; `Effect.sleep` treats such a wait as "never", and so does the fallback.
const maxTimerMillis = 2 ** 31 - 1

/**
 * Fails with `onTimeout()` when `self` has not completed within `duration`, after interrupting it and waiting
 * for its finalizers. Interrupting the caller interrupts `self`.
 */
export const timeoutFail = <A, E, R, E1>(
  self: Effect.Effect<A, E, R>,
  duration: Duration.Duration,
  onTimeout: () => E1
): Effect.Effect<A, E | E1, R> =>
  Effect.clockWith((clock) => {
    const millis = Duration.toMillis(duration)
    if (clock !== liveClock || !(millis <= maxTimerMillis)) {
      return Effect.timeoutFail(self, { duration, onTimeout })
    }
    return Effect.uninterruptibleMask((restore) =>
      // The child ends with the call's Exit as its value: a failing child would be reported by the runtime as an
      // unhandled error (at debug level, with the raw cause), which bypasses the pipeline's scrubbing of defects.
      Effect.flatMap(Effect.fork(Effect.exit(restore(self))), (child) =>
        Effect.withFiberRuntime<A, E | E1>((parent) => {
          let timedOut = false
          const timer = setTimeout(() => {
            timedOut = true
            child.unsafeInterruptAsFork(parent.id())
          }, millis)
          return restore(Fiber.await(child)).pipe(
            Effect.onInterrupt(() =>
              Effect.zipRight(
                Effect.sync(() => clearTimeout(timer)),
                Fiber.interrupt(child)
              )
            ),
            Effect.flatMap((outer): Effect.Effect<A, E | E1> => {
              clearTimeout(timer)
              const exit = Exit.flatten(outer)
              if (Exit.isSuccess(exit)) return exit
              // A result that arrived before the timer fired wins, as it does in `timeoutFail`'s race.
              return timedOut && Exit.isInterrupted(exit) ? Effect.fail(onTimeout()) : exit
            })
          )
        })
      )
    )
  })
