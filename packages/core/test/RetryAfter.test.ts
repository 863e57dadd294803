import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as TestClock from "effect/TestClock"
import * as RetryAfter from "../src/internal/retryAfter.js"

const now = Date.parse("2026-12-01T12:00:00Z")

describe("RetryAfter", () => {
  it.prop("delta-seconds: that many seconds, cut to a day", [FastCheck.nat({ max: 10_000_000 })], ([n]) => {
    expect(RetryAfter.parse(String(n), now)).toBe(Math.min(n, RetryAfter.maxSeconds))
    expect(RetryAfter.parse(` ${n}\t`, now)).toBe(Math.min(n, RetryAfter.maxSeconds))
  })

  it.prop(
    "an HTTP date: the whole seconds until it, never negative, cut to a day",
    [FastCheck.integer({ min: -100_000, max: 200_000 })],
    ([offset]) => {
      const date = new Date(now + offset * 1000).toUTCString()
      expect(RetryAfter.parse(date, now)).toBe(Math.min(RetryAfter.maxSeconds, Math.max(0, offset)))
    }
  )

  it.prop("anything else is no answer, never a throw", [FastCheck.string()], ([text]) => {
    const parsed = RetryAfter.parse(text, now)
    expect(parsed === undefined || (Number.isInteger(parsed) && parsed >= 0 && parsed <= RetryAfter.maxSeconds)).toBe(
      true
    )
  })

  it("fractions round up; junk, empty and overlong values are refused", () => {
    expect(RetryAfter.parse("1.2", now)).toBe(2)
    expect(RetryAfter.parse("", now)).toBeUndefined()
    expect(RetryAfter.parse(undefined, now)).toBeUndefined()
    expect(RetryAfter.parse("soon", now)).toBeUndefined()
    expect(RetryAfter.parse("-5", now)).toBeUndefined()
    expect(RetryAfter.parse(`${"1".repeat(100)}`, now)).toBeUndefined()
    expect(RetryAfter.fromHeaders({ "retry-after": "7" }, now)).toBe(7)
    expect(RetryAfter.fromHeaders({ "retry-after": ["9", "1"] }, now)).toBe(9)
    expect(RetryAfter.fromHeaders({}, now)).toBeUndefined()
  })

  it.effect("seconds reads Effect's Clock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      expect(yield* RetryAfter.seconds(new Date(now + 90_000).toUTCString())).toBe(90)
    })
  )
})
