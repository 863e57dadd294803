/**
 * The in-memory backing store under the result cache keeps a byte budget as well as an entry count: fetched pages
 * make entries of very different sizes, so 5000 entries of page text grew a server by hundreds of MiB. Entries are
 * counted as the length of their JSON; the least recently used go first; one over the whole budget is not kept.
 */
import * as Persistence from "@effect/experimental/Persistence"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as BoundedMemory from "../src/internal/boundedMemory.js"

const storeOf = (capacity: number, maxBytes: number) =>
  Effect.flatMap(Persistence.BackingPersistence, (backing) => backing.make("test")).pipe(
    Effect.provide(BoundedMemory.layer(capacity, maxBytes))
  )

// A string value whose JSON is `bytes` long (its two quotes included).
const valueOf = (bytes: number) => "x".repeat(bytes - 2)

describe("BoundedMemory", () => {
  it.scoped("past the byte budget the least recently used entries go; an entry over the budget is not kept", () =>
    Effect.gen(function* () {
      const store = yield* storeOf(100, 1000)
      yield* store.set("a", valueOf(400), Option.none())
      yield* store.set("b", valueOf(400), Option.none())
      expect(Option.isSome(yield* store.get("a"))).toBe(true) // a is now the most recently used
      yield* store.set("c", valueOf(400), Option.none()) // 1200 > 1000: b goes
      expect(Option.isSome(yield* store.get("b"))).toBe(false)
      expect(Option.isSome(yield* store.get("a"))).toBe(true)
      expect(Option.isSome(yield* store.get("c"))).toBe(true)
      // Too big for the whole budget: not kept, and nothing else is evicted for it.
      yield* store.set("huge", valueOf(1001), Option.none())
      expect(Option.isSome(yield* store.get("huge"))).toBe(false)
      expect(Option.isSome(yield* store.get("a"))).toBe(true)
      // A removed entry gives its bytes back: two more fit after it.
      yield* store.remove("a")
      yield* store.set("d", valueOf(300), Option.none())
      expect(Option.isSome(yield* store.get("c"))).toBe(true)
      expect(Option.isSome(yield* store.get("d"))).toBe(true)
    })
  )

  it.scoped.prop(
    "after any writes, the entries kept fit the budget, and the last write is kept when it fits alone",
    { writes: FastCheck.array(FastCheck.tuple(FastCheck.constantFrom("a", "b", "c", "d", "e"), FastCheck.nat(600))) },
    ({ writes }) =>
      Effect.gen(function* () {
        const maxBytes = 1000
        const store = yield* storeOf(4, maxBytes)
        const sizes = new Map<string, number>()
        for (const [key, size] of writes) {
          const bytes = size + 2
          yield* store.set(key, valueOf(bytes), Option.none())
          sizes.set(key, bytes)
          let held = 0
          let count = 0
          for (const [k, b] of sizes) {
            if (Option.isSome(yield* store.get(k))) {
              held += b
              count += 1
            }
          }
          expect(held).toBeLessThanOrEqual(maxBytes)
          expect(count).toBeLessThanOrEqual(4)
          expect(Option.isSome(yield* store.get(key))).toBe(bytes <= maxBytes)
        }
      })
  )
})
