import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import * as Deadline from "../src/internal/deadline.js"

const timeout = Duration.seconds(10)

// The typed failure; the cause also holds the interruption of the sibling.
const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | null =>
  Exit.isFailure(exit) ? Option.getOrNull(Cause.failureOption(exit.cause)) : null

// One item fails after 10 ms while the other, a call that never answers, sits under a 10 s deadline.
const siblings = (
  deadline: (call: Effect.Effect<never>) => Effect.Effect<never, string>,
  log: Array<string>
): Effect.Effect<ReadonlyArray<never>, string> =>
  Effect.forEach(
    [0, 1],
    (i) =>
      i === 0
        ? Effect.zipRight(Effect.sleep("10 millis"), Effect.fail("aborted"))
        : deadline(
            Effect.never.pipe(
              Effect.onInterrupt(() => Effect.sync(() => log.push("interrupted"))),
              Effect.ensuring(Effect.sync(() => log.push("finalized")))
            )
          ),
    { concurrency: "unbounded" }
  )

describe("a call's deadline (internal/deadline.ts)", () => {
  it.effect(
    "upstream defect, effect 3.22: Effect.timeoutFail inside a concurrent forEach holds a sibling's failure until it times out",
    () =>
      Effect.gen(function* () {
        // If this starts failing, an upgrade fixed the defect and internal/deadline.ts can be `Effect.timeoutFail`.
        const log: Array<string> = []
        const fiber = yield* Effect.fork(
          siblings((call) => Effect.timeoutFail(call, { duration: timeout, onTimeout: () => "timeout" }), log)
        )
        yield* TestClock.adjust("10 millis")
        yield* TestClock.adjust("1 second")
        expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
        expect(log).toEqual([])
        yield* TestClock.adjust(timeout)
        expect(failureOf(yield* Fiber.await(fiber))).toBe("aborted")
        expect(log).toEqual(["interrupted", "finalized"])
      })
  )

  it.effect("a sibling's failure interrupts the call at once, its finalizers run, and the deadline never fires", () =>
    Effect.gen(function* () {
      const log: Array<string> = []
      const fiber = yield* Effect.fork(siblings((call) => Deadline.timeoutFail(call, timeout, () => "timeout"), log))
      yield* TestClock.adjust("10 millis")
      const exit = yield* Fiber.await(fiber)
      expect(failureOf(exit)).toBe("aborted")
      expect(log).toEqual(["interrupted", "finalized"])
    })
  )

  it.effect("past the deadline the call is interrupted and finalized before the timeout error is raised", () =>
    Effect.gen(function* () {
      const log: Array<string> = []
      const fiber = yield* Effect.fork(
        Deadline.timeoutFail(
          Effect.never.pipe(Effect.ensuring(Effect.sync(() => log.push("finalized")))),
          Duration.millis(50),
          () => {
            log.push("timeout raised")
            return "timeout"
          }
        )
      )
      yield* TestClock.adjust("49 millis")
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.await(fiber)).toEqual(Exit.fail("timeout"))
      expect(log).toEqual(["finalized", "timeout raised"])
    })
  )

  it.effect("a result that arrives first wins: its value, or its own failure", () =>
    Effect.gen(function* () {
      const ok = yield* Effect.fork(Deadline.timeoutFail(Effect.as(Effect.sleep("5 millis"), 1), timeout, () => 0))
      const failed = yield* Effect.fork(
        Deadline.timeoutFail(Effect.zipRight(Effect.sleep("5 millis"), Effect.fail("own")), timeout, () => "timeout")
      )
      yield* TestClock.adjust("5 millis")
      expect(yield* Fiber.await(ok)).toEqual(Exit.succeed(1))
      expect(yield* Fiber.await(failed)).toEqual(Exit.fail("own"))
    })
  )

  it.effect("interrupting the caller interrupts the call and waits for its finalizers", () =>
    Effect.gen(function* () {
      const log: Array<string> = []
      const started = yield* Effect.makeLatch(false)
      const fiber = yield* Effect.fork(
        Deadline.timeoutFail(
          Effect.zipRight(started.open, Effect.never).pipe(
            Effect.ensuring(
              Effect.zipRight(
                Effect.sleep("1 millis"),
                Effect.sync(() => log.push("finalized"))
              )
            )
          ),
          timeout,
          () => "timeout"
        )
      )
      yield* started.await
      const interrupting = yield* Effect.fork(Fiber.interrupt(fiber))
      yield* TestClock.adjust("1 millis")
      const exit = yield* Fiber.join(interrupting)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(log).toEqual(["finalized"])
      yield* TestClock.adjust(timeout)
      expect(log).toEqual(["finalized"])
    })
  )

  it.effect("what the call sets in fiber refs stays its own", () =>
    Effect.gen(function* () {
      const ref = yield* FiberRef.make(0)
      yield* Deadline.timeoutFail(FiberRef.set(ref, 1), timeout, () => "timeout")
      expect(yield* FiberRef.get(ref)).toBe(0)
    }).pipe(Effect.scoped)
  )
})
