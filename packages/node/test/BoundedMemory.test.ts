/**
 * The in-memory backing store under the result cache keeps a byte budget as well as an entry count: fetched pages
 * make entries of very different sizes, so 5000 entries of page text grew a server by hundreds of MiB. Entries are
 * counted at about their cost in V8's heap (a two-byte string twice a one-byte one), and a full budget holds about
 * that much heap; the least recently used go first; one over the whole budget is not kept.
 */
import * as Persistence from "@effect/experimental/Persistence"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import * as BoundedMemory from "../src/internal/boundedMemory.js"

const storeOf = (capacity: number, maxBytes: number) =>
  Effect.flatMap(Persistence.BackingPersistence, (backing) => backing.make("test")).pipe(
    Effect.provide(BoundedMemory.layer(capacity, maxBytes))
  )

// What a one-character key and its string value of `n` characters count.
const countOf = (n: number) => BoundedMemory.entryBytes("a", "x".repeat(n))

// A string value whose entry (under a one-character key) counts `bytes`.
const valueOf = (bytes: number) => "x".repeat(bytes - countOf(0))

// Flat strings of `n` characters, distinct by `seed`: one byte a character, or two (CJK). `repeat` would build
// ropes sharing their halves, which cost next to nothing.
const narrow = (n: number, seed: number) => new TextDecoder().decode(new Uint8Array(n).fill(0x61 + (seed % 26)))
const wideText = (n: number, seed: number) => {
  const bytes = new Uint8Array(2 * n)
  for (let i = 0; i < n; i++) bytes.set([(seed + i) % 256, 0x65], 2 * i)
  return new TextDecoder("utf-16le").decode(bytes)
}

// The heap in use after full collections (the flag set at run time exposes `gc` to a new context).
setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void
const heapUsed = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

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
          const bytes = countOf(size)
          yield* store.set(key, "x".repeat(size), Option.none())
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

  it.prop(
    "a string counts one byte a character when all fit in one byte, two otherwise, beside a fixed overhead",
    [FastCheck.string({ unit: "binary", maxLength: 200 })],
    ([text]) => {
      const wide = [...text].some((c) => c.codePointAt(0)! > 0xff)
      expect(BoundedMemory.entryBytes("a", text) - BoundedMemory.entryBytes("a", "")).toBe((wide ? 2 : 1) * text.length)
    }
  )

  it.scoped("a full budget holds about its size in heap, for narrow text, wide text and small records alike", () =>
    Effect.gen(function* () {
      const maxBytes = 8 * 1024 * 1024
      const values: Array<(i: number) => unknown> = [
        (i) => narrow(64 * 1024, i),
        (i) => wideText(64 * 1024, i),
        (i) => ({
          results: Array.from({ length: 200 }, (_, j) => ({ title: narrow(20, i + j), url: narrow(40, i * j) }))
        })
      ]
      for (const make of values) {
        const before = heapUsed()
        const store = yield* storeOf(1_000_000, maxBytes)
        // Twice the budget written: the store is full, its oldest entries evicted.
        let written = 0
        for (let i = 0; written < 2 * maxBytes; i++) {
          const value = make(i)
          written += BoundedMemory.entryBytes(`key-${i}`, value)
          yield* store.set(`key-${i}`, value, Option.none())
        }
        const held = heapUsed() - before
        // Counting a string's characters, not its bytes, held twice the budget of wide text.
        expect(held).toBeLessThan(1.25 * maxBytes)
        expect(held).toBeGreaterThan(0.75 * maxBytes)
        yield* store.clear
      }
    })
  )
})
