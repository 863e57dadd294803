/**
 * The in-memory provider budget (the default of every provider registry) is a token bucket without an extra token:
 * over any span d of random call times at most `limit + ⌊d × limit / window⌋` calls are granted, so at `limit = 1`
 * no span shorter than the window ever sees two grants. The node stores (memory and Redis) are held to the same
 * rule in `packages/node/test/SharedStores.test.ts`.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import * as ProviderQuota from "../src/ProviderQuota.js"

describe("the in-memory token bucket", () => {
  it.effect.prop(
    "over any span d, at most limit + ⌊d × limit / window⌋ calls are granted",
    [
      FastCheck.integer({ min: 1, max: 5 }),
      FastCheck.integer({ min: 100, max: 2_000 }),
      FastCheck.array(FastCheck.integer({ min: 0, max: 700 }), { minLength: 1, maxLength: 25 })
    ],
    ([limit, windowMillis, gaps]) =>
      Effect.gen(function* () {
        const store = ProviderQuota.memoryStore()
        const granted: Array<number> = []
        let now = 0
        for (const gap of gaps) {
          now += gap
          yield* TestClock.setTime(now)
          const refused = yield* store.consume({ key: "budget", limit, window: Duration.millis(windowMillis) })
          if (Option.isNone(refused)) granted.push(now)
        }
        for (let i = 0; i < granted.length; i++) {
          for (let j = i; j < granted.length; j++) {
            const span = granted[j] - granted[i]
            expect(j - i + 1).toBeLessThanOrEqual(limit + Math.floor((span * limit) / windowMillis))
          }
        }
        // Not vacuous: after a whole window of quiet the bucket is full again.
        yield* TestClock.setTime(now + windowMillis)
        for (let k = 0; k < limit; k++) {
          expect(
            Option.isNone(yield* store.consume({ key: "budget", limit, window: Duration.millis(windowMillis) }))
          ).toBe(true)
        }
      }),
    { fastCheck: { numRuns: 60 } }
  )
})
