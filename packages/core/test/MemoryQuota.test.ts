import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import * as MemoryQuota from "../src/internal/memoryQuota.js"

const window = Duration.seconds(1)

describe("ProviderQuota.memoryStore", () => {
  it.effect("holds only the buckets and hold-offs in use however many call-state keys pass", () =>
    Effect.gen(function* () {
      const store = MemoryQuota.make()
      // As a server sees them: every revision of every workspace's instance is a key of its own.
      for (let revision = 1; revision <= 6_000; revision++) {
        const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        yield* store.consume({ key: `budget:acme/prod@${revision}#0`, limit: 5, window })
        yield* store.setHoldOff(`holdoff:acme/prod@${revision}#0`, now + 500)
        // Each key's token is back, and its hold-off over, within a second.
        if (revision % 100 === 0) yield* TestClock.adjust(Duration.seconds(1))
      }
      const { buckets, holdOffs } = store.size()
      expect(buckets).toBeLessThanOrEqual(2 * MemoryQuota.minSweep)
      expect(holdOffs).toBeLessThanOrEqual(2 * MemoryQuota.minSweep)
    })
  )

  it.effect.prop(
    "dropping full buckets changes no answer: a budget is kept exactly as without sweeping",
    {
      calls: FastCheck.array(
        FastCheck.record({
          key: FastCheck.integer({ min: 0, max: 3000 }),
          wait: FastCheck.integer({ min: 0, max: 400 })
        }),
        { minLength: 1, maxLength: 300 }
      )
    },
    ({ calls }) =>
      Effect.gen(function* () {
        const store = MemoryQuota.make()
        // The reference: the same buckets, never swept.
        const reference = new Map<number, { tokens: number; refilled: number }>()
        const limit = 2
        const every = Duration.toMillis(window) / limit
        for (const call of calls) {
          yield* TestClock.adjust(Duration.millis(call.wait))
          const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
          const bucket = reference.get(call.key) ?? { tokens: limit, refilled: now }
          const back = Math.floor((now - bucket.refilled) / every)
          if (back > 0) {
            bucket.tokens = Math.min(limit, bucket.tokens + back)
            bucket.refilled = bucket.tokens === limit ? now : bucket.refilled + back * every
          }
          reference.set(call.key, bucket)
          const expected = bucket.tokens === 0 ? Option.some(bucket.refilled + every - now) : Option.none()
          if (bucket.tokens > 0) bucket.tokens -= 1
          const got = yield* store.consume({ key: `k${call.key}`, limit, window })
          expect(Option.map(got, Duration.toMillis)).toEqual(expected)
        }
      })
  )
})
