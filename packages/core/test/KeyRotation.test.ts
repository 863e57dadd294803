import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as KeyRotation from "../src/internal/resolution/rotate.js"

describe("KeyRotation", () => {
  it.effect("holds a bounded number of positions however many call-state keys it sees", () =>
    Effect.gen(function* () {
      const rotation = yield* KeyRotation.makeBounded(64)
      // As a server sees them: every revision of every workspace's instance is a key of its own.
      for (let revision = 1; revision <= 1000; revision++) {
        yield* rotation.next(`acme/prod@${revision}#0`, 3)
      }
      expect(rotation.size()).toBe(64)
    })
  )

  it.effect("the default rotation is bounded too", () =>
    Effect.gen(function* () {
      const rotation = yield* KeyRotation.make
      for (let i = 0; i < KeyRotation.defaultBound + 100; i++) yield* rotation.next(`w${i}/p@1#0`, 2)
      expect(rotation.size()).toBe(KeyRotation.defaultBound)
    })
  )

  it.effect.prop(
    "rotates round-robin per key, a key in use never dropped for others",
    { count: FastCheck.integer({ min: 1, max: 5 }), calls: FastCheck.integer({ min: 1, max: 30 }) },
    ({ calls, count }) =>
      Effect.gen(function* () {
        const rotation = yield* KeyRotation.makeBounded(2)
        const seen: Array<number> = []
        for (let i = 0; i < calls; i++) {
          seen.push(yield* rotation.next("used", count))
          yield* rotation.next(`other-${i}`, 2)
        }
        expect(seen).toEqual(Array.from({ length: calls }, (_, i) => i % count))
      })
  )
})
