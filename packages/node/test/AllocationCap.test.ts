import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as AllocationCap from "../src/internal/allocationCap.js"

const MiB = 1024 * 1024

/** Each constructor the cap checks, by name, with the bytes of one element. */
const kinds = {
  Int8Array: 1,
  Uint8Array: 1,
  Uint8ClampedArray: 1,
  Int16Array: 2,
  Uint16Array: 2,
  Int32Array: 4,
  Uint32Array: 4,
  Float32Array: 4,
  Float64Array: 8,
  BigInt64Array: 8,
  BigUint64Array: 8,
  ArrayBuffer: 1
} as const
type Kind = keyof typeof kinds
const construct = (kind: Kind, length: number): object =>
  new (globalThis as unknown as Record<Kind, new (length: number) => object>)[kind](length)

// These tests replace this test file's realm's constructors, as the extraction worker does its own.
describe("the allocation cap of a PDF job", () => {
  it.effect.prop(
    "refuses exactly the allocations over the cap, of every kind, and reports the largest",
    [FastCheck.constantFrom(...(Object.keys(kinds) as Array<Kind>)), FastCheck.integer({ min: 0, max: 2 * 1024 })],
    ([kind, length]) =>
      Effect.promise(async () => {
        const cap = 4096
        const bytes = length * kinds[kind]
        const { refused, result } = await AllocationCap.run(cap, async () => {
          try {
            construct(kind, length)
            return "made"
          } catch (error) {
            return error instanceof AllocationCap.OverCap ? "refused" : "other"
          }
        })
        expect(result).toBe(bytes > cap ? "refused" : "made")
        expect(refused).toBe(bytes > cap ? bytes : 0)
      })
  )

  it("counts a copy of an array-like, never a view on a buffer; outside a job nothing is capped", async () => {
    const { refused, result } = await AllocationCap.run(MiB, async () => {
      const big = new ArrayBuffer(MiB)
      // Views of any size on an existing buffer allocate nothing.
      const views = [new Uint8Array(big), new Float64Array(big, 8, 1000), new Uint8Array(big).subarray(10)]
      const copied = (() => {
        try {
          return new Uint16Array(new Uint8Array(big))
        } catch (error) {
          return error
        }
      })()
      return { views: views.length, copied }
    })
    expect(result.views).toBe(3)
    expect(result.copied).toBeInstanceOf(AllocationCap.OverCap)
    expect(refused).toBe(2 * MiB)
    expect(new Uint8Array(8 * MiB).length).toBe(8 * MiB)
  })

  it("keeps the realm working: instanceof, Buffers, species, structured clones", async () => {
    await AllocationCap.run(MiB, async () => {
      const bytes = Uint8Array.from([1, 2, 3])
      expect(bytes).toBeInstanceOf(Uint8Array)
      expect(Buffer.from("abc")).toBeInstanceOf(Uint8Array)
      expect(new Uint8Array(4).slice(1)).toBeInstanceOf(Uint8Array)
      expect([...structuredClone(bytes)]).toEqual([1, 2, 3])
      expect(ArrayBuffer.isView(bytes)).toBe(true)
      expect(new ArrayBuffer(16)).toBeInstanceOf(ArrayBuffer)
    })
  })
})
