import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as zlib from "node:zlib"
import * as DeflateSize from "../src/internal/deflateSize.js"

const MiB = 1024 * 1024

/** Bytes that compress: runs and repeats of a few words, with some noise, so every kind of block and code shows. */
const compressible = FastCheck.array(
  FastCheck.oneof(
    FastCheck.uint8Array({ maxLength: 64 }),
    FastCheck.tuple(
      FastCheck.constantFrom("effect ", "layer ", "stream ", "\n", "\u00e9t\u00e9 "),
      FastCheck.nat(40)
    ).map(([word, times]) => Buffer.from(word.repeat(times))),
    FastCheck.tuple(FastCheck.integer({ min: 0, max: 255 }), FastCheck.nat(2000)).map(([byte, times]) =>
      new Uint8Array(times).fill(byte)
    )
  ),
  { maxLength: 60 }
).map((parts) => Buffer.concat(parts))

/** Every deflate level and strategy zlib has: stored blocks, fixed and dynamic codes, Huffman only, RLE. */
const settings = FastCheck.record({
  level: FastCheck.integer({ min: 0, max: 9 }),
  strategy: FastCheck.constantFrom(
    zlib.constants.Z_DEFAULT_STRATEGY,
    zlib.constants.Z_FILTERED,
    zlib.constants.Z_HUFFMAN_ONLY,
    zlib.constants.Z_RLE,
    zlib.constants.Z_FIXED
  ),
  memLevel: FastCheck.integer({ min: 1, max: 9 })
})

/** What zlib itself inflates from `data`, as far as it can read it (a cut stream gives what was decoded). */
const inflated = (data: Uint8Array): number =>
  zlib.inflateSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length

describe("the decoded size of a deflate stream, counted without decoding", () => {
  it.prop(
    "equals the length zlib compressed, at every level and strategy",
    [compressible, settings],
    ([data, options]) => {
      expect(DeflateSize.zlibSize(zlib.deflateSync(data, options), Infinity)).toBe(data.length)
      expect(DeflateSize.rawSize(zlib.deflateRawSync(data, options), Infinity)).toBe(data.length)
    }
  )

  it.prop(
    "a stream cut anywhere counts at least what zlib inflates from it (a bound is never short)",
    [compressible, settings, FastCheck.double({ min: 0, max: 1, noNaN: true })],
    ([data, options, at]) => {
      const whole = zlib.deflateSync(data, options)
      const cut = whole.subarray(0, Math.floor(at * whole.length))
      const counted = DeflateSize.zlibSize(cut, Infinity)
      expect(counted).toBeGreaterThanOrEqual(cut.length < 2 ? 0 : inflated(cut))
      expect(counted).toBeLessThanOrEqual(data.length)
    }
  )

  it.prop(
    "stops soon after the limit: above it, and by at most one stored block or match",
    [compressible, settings, FastCheck.nat(20_000)],
    ([data, options, limit]) => {
      const counted = DeflateSize.zlibSize(zlib.deflateSync(data, options), limit)
      if (data.length <= limit) expect(counted).toBe(data.length)
      else {
        expect(counted).toBeGreaterThan(limit)
        expect(counted).toBeLessThanOrEqual(limit + 65_535)
      }
    }
  )

  it.prop(
    "any bytes after a valid header give a count, never a throw, and never more than the limit allows",
    [FastCheck.uint8Array({ maxLength: 4096 }), FastCheck.nat(1_000_000)],
    ([tail, limit]) => {
      const counted = DeflateSize.zlibSize(Buffer.concat([Buffer.from([0x78, 0x9c]), tail]), limit)
      expect(Number.isSafeInteger(counted) && counted >= 0).toBe(true)
      expect(counted).toBeLessThanOrEqual(limit + 65_535)
    }
  )

  it("counts a gibibyte of zeros from its megabyte of stream, and stops at the limit", () => {
    const bomb = zlib.deflateSync(Buffer.alloc(1024 * MiB))
    expect(bomb.length).toBeLessThan(2 * MiB)
    expect(DeflateSize.zlibSize(bomb, Infinity)).toBe(1024 * MiB)
    const limited = DeflateSize.zlibSize(bomb, 128 * MiB)
    expect(limited).toBeGreaterThan(128 * MiB)
    expect(limited).toBeLessThanOrEqual(128 * MiB + 258)
  })

  it("a header no PDF reader inflates counts nothing: not deflate, a bad check, a preset dictionary", () => {
    const stream = zlib.deflateSync(Buffer.from("text ".repeat(100)))
    expect(DeflateSize.zlibSize(stream, Infinity)).toBe(500)
    expect(DeflateSize.zlibSize(Buffer.concat([Buffer.from([0x79, 0x9c]), stream.subarray(2)]), Infinity)).toBe(0)
    expect(DeflateSize.zlibSize(Buffer.concat([Buffer.from([0x78, 0x9d]), stream.subarray(2)]), Infinity)).toBe(0)
    const withDictionary = zlib.deflateSync(Buffer.from("text ".repeat(100)), { dictionary: Buffer.from("text") })
    expect(withDictionary[1] & 0x20).toBe(0x20)
    expect(DeflateSize.zlibSize(withDictionary, Infinity)).toBe(0)
  })
})
