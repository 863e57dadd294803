import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as TestClock from "effect/TestClock"
import * as Timeout from "../src/internal/timeout.js"

class TimedOut {
  readonly _tag = "TimedOut"
}

const onTimeout = () => new TimedOut()

// The pipeline's and the quota's timeout: the live-clock path arms a plain timer instead of racing a sleeping
// fiber, so these run under the live clock (`it.live`) with short real durations.
describe("internal timeout", () => {
  it.live.prop(
    "an effect that completes in time ends exactly as it would without the timeout",
    {
      outcome: FastCheck.oneof(
        FastCheck.record({ _tag: FastCheck.constant("succeed" as const), value: FastCheck.integer() }),
        FastCheck.record({ _tag: FastCheck.constant("fail" as const), error: FastCheck.string() })
      ),
      delayMillis: FastCheck.option(FastCheck.integer({ min: 0, max: 3 }), { nil: undefined })
    },
    ({ delayMillis, outcome }) =>
      Effect.gen(function* () {
        const body: Effect.Effect<number, string> =
          outcome._tag === "succeed" ? Effect.succeed(outcome.value) : Effect.fail(outcome.error)
        const self = delayMillis === undefined ? body : Effect.zipRight(Effect.sleep(delayMillis), body)
        const exit = yield* Effect.exit(Timeout.timeoutFail(self, Duration.seconds(5), onTimeout))
        expect(exit).toStrictEqual(yield* Effect.exit(self))
      }),
    { fastCheck: { numRuns: 25 } }
  )

  it.live.prop(
    "an effect that runs past the timeout is interrupted, its finalizers run, then the timeout error is raised",
    { timeoutMillis: FastCheck.integer({ min: 1, max: 15 }) },
    ({ timeoutMillis }) =>
      Effect.gen(function* () {
        let finalized = false
        const exit = yield* Effect.exit(
          Timeout.timeoutFail(
            Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => void (finalized = true)))),
            Duration.millis(timeoutMillis),
            onTimeout
          )
        )
        expect(exit).toStrictEqual(Exit.fail(new TimedOut()))
        expect(finalized).toBe(true)
      }),
    { fastCheck: { numRuns: 10 } }
  )

  it.live("a failing or dying call is not logged by the runtime (its cause may hold a secret the caller scrubs)", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const logger = Logger.make(({ message, cause }) => void lines.push(`${String(message)} ${Cause.pretty(cause)}`))
      const run = <E>(self: Effect.Effect<never, E>) =>
        Effect.exit(Timeout.timeoutFail(self, Duration.seconds(5), onTimeout)).pipe(
          Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
          Logger.withMinimumLogLevel(LogLevel.All)
        )
      expect(Exit.isFailure(yield* run(Effect.die(new Error("key=SECRET-0001"))))).toBe(true)
      expect(Exit.isFailure(yield* run(Effect.fail("key=SECRET-0002")))).toBe(true)
      expect(lines.join("\n")).not.toContain("SECRET")
    })
  )

  it.live("a defect is not turned into a timeout", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Timeout.timeoutFail(Effect.die("boom"), Duration.seconds(5), onTimeout))
      expect(exit).toStrictEqual(Exit.die("boom"))
    })
  )

  // Unlike Effect.timeoutFail: merging the child's FiberRefs back costs more than a fast provider call, and the
  // pipeline's calls return their outcome as a value.
  it.live("the value of an effect that completes in time comes back; its FiberRef changes stay in its fiber", () =>
    Effect.gen(function* () {
      const ref = FiberRef.unsafeMake(0)
      const value = yield* Timeout.timeoutFail(
        Effect.zipRight(FiberRef.set(ref, 42), Effect.succeed("done")),
        Duration.seconds(5),
        onTimeout
      )
      expect(value).toBe("done")
      expect(yield* FiberRef.get(ref)).toBe(0)
    })
  )

  it.scopedLive("interrupting the caller interrupts the effect and disarms the timer", () =>
    Effect.gen(function* () {
      let finalized = false
      let fired = 0
      // The timeout's own timer is recognised by its delay; counting every active timer of the process instead
      // would also see other tests' timers come and go.
      const armed: Array<NodeJS.Timeout> = []
      const cleared = new Set<unknown>()
      const { clearTimeout: realClear, setTimeout: realSet } = globalThis
      globalThis.setTimeout = ((handler: () => void, delay?: number) => {
        const timer = realSet(handler, delay)
        if (delay === 40) armed.push(timer)
        return timer
      }) as typeof setTimeout
      globalThis.clearTimeout = ((timer?: NodeJS.Timeout) => {
        cleared.add(timer)
        realClear(timer)
      }) as typeof clearTimeout
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          globalThis.setTimeout = realSet
          globalThis.clearTimeout = realClear
        })
      )
      const fiber = yield* Effect.fork(
        Timeout.timeoutFail(
          Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => void (finalized = true)))),
          Duration.millis(40),
          () => {
            fired++
            return new TimedOut()
          }
        )
      )
      yield* Effect.sleep(5)
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(finalized).toBe(true)
      // The timer is cleared at once (not left to fire), and past its deadline the timeout is never raised.
      expect(armed).toHaveLength(1)
      expect(cleared.has(armed[0])).toBe(true)
      yield* Effect.sleep(60)
      expect(fired).toBe(0)
    })
  )

  it.effect("under a TestClock it follows the test clock (Effect.timeoutFail's behaviour)", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(Timeout.timeoutFail(Effect.never, Duration.seconds(10), onTimeout))
      yield* TestClock.adjust(Duration.seconds(9))
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* Fiber.await(fiber)).toStrictEqual(Exit.fail(new TimedOut()))
    })
  )
})
