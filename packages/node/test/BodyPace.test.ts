import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as SafeTransport from "../src/SafeTransport.js"
import * as BodyPace from "../src/internal/bodyPace.js"
import * as Support from "./support/transport.js"

const MiB = 1024 * 1024

/** A pace on a clock the test moves. */
const paced = (bytesPerSecond: number) => {
  const clock = { now: 1000 }
  const pace = BodyPace.make(bytesPerSecond, () => clock.now)!
  return { pace, clock }
}

/** Splits `total` bytes into chunks of the given sizes (the last one takes the rest). */
const chunking = FastCheck.array(FastCheck.integer({ min: 1, max: 256 * 1024 }), { minLength: 1, maxLength: 40 })

/** Reads `sizes` as one body's chunks on a clock that never moves: each chunk's delay, in order. */
const read = (pace: BodyPace.BodyPace, sizes: ReadonlyArray<number>) => {
  let total = 0
  return sizes.map((size) => {
    total += size
    return pace.delay(total, size)
  })
}

describe("the pace of big bodies", () => {
  it.prop("a body within its first MiB never waits", [chunking], ([sizes]) => {
    const { pace } = paced(1)
    let total = 0
    for (const size of sizes) {
      if (total + size > BodyPace.freeBytes) break
      total += size
      expect(pace.delay(total, size)).toBe(0)
    }
  })

  it.prop(
    "a body alone, in any chunks, waits exactly the time its bytes past the first MiB take at the rate",
    [chunking, FastCheck.integer({ min: 1, max: 64 * MiB })],
    ([sizes, rate]) => {
      const { pace } = paced(rate)
      const delays = read(pace, sizes)
      const total = sizes.reduce((a, b) => a + b, 0)
      const over = Math.max(0, total - BodyPace.freeBytes)
      // The clock never moves, so the last chunk waits for every byte booked before it.
      expect(delays[delays.length - 1]).toBeCloseTo((over / rate) * 1000, 6)
      // Delays only grow: a later chunk never goes before an earlier one.
      for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1])
    }
  )

  it.prop(
    "bodies read together share the rate: the last waits for all their bytes past the first MiB",
    [FastCheck.array(chunking, { minLength: 2, maxLength: 5 }), FastCheck.integer({ min: 1, max: 64 * MiB })],
    ([bodies, rate]) => {
      const { pace } = paced(rate)
      const totals = bodies.map(() => 0)
      let last = 0
      // Round robin over the bodies, one chunk each, as concurrent reads arrive.
      for (let round = 0; bodies.some((sizes) => round < sizes.length); round++) {
        bodies.forEach((sizes, i) => {
          if (round >= sizes.length) return
          totals[i] += sizes[round]
          last = Math.max(last, pace.delay(totals[i], sizes[round]))
        })
      }
      const over = totals.reduce((sum, total) => sum + Math.max(0, total - BodyPace.freeBytes), 0)
      expect(last).toBeCloseTo((over / rate) * 1000, 6)
    }
  )

  it("time nobody used is not saved up: after a pause a chunk waits for its own bytes only", () => {
    const { clock, pace } = paced(MiB)
    expect(pace.delay(2 * MiB, 2 * MiB)).toBe(1000)
    clock.now += 60_000
    expect(pace.delay(3 * MiB, MiB / 2)).toBe(500)
  })

  it("Infinity is no pace at all", () => {
    expect(BodyPace.make(Infinity)).toBeUndefined()
    expect(SafeTransport.defaultLargeBodyBytesPerSecond).toBe(32 * MiB)
  })
})

const sized =
  (bytes: number) =>
  (_: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(bytes) })
    response.end(Buffer.alloc(bytes, 97))
  }

describe("the transport's pace", () => {
  const transport = (ports: ReadonlyArray<number>, options: Omit<SafeTransport.Options, "policy" | "lookup">) =>
    SafeTransport.make({
      ...options,
      policy: UrlPolicy.make({ allowHosts: ["127.0.0.1"], allowPorts: ports }),
      lookup: async () => [{ address: "127.0.0.1", family: 4 }]
    })

  it.scopedLive("reads the first MiB at full speed and the rest at the pace, until the timeout", () =>
    Effect.gen(function* () {
      const small = yield* Support.serve(sized(BodyPace.freeBytes))
      const big = yield* Support.serve(sized(BodyPace.freeBytes + 64 * 1024))
      // One byte a second: the 64 KiB past the first MiB would take 18 hours, so the 2 s timeout must end it.
      const slow = yield* transport([small.port, big.port], {
        largeBodyBytesPerSecond: 1,
        timeout: Duration.seconds(2)
      })
      const whole = yield* slow.request({ url: `http://127.0.0.1:${small.port}/` })
      expect(whole.body.byteLength).toBe(BodyPace.freeBytes)
      const error = yield* Effect.flip(slow.request({ url: `http://127.0.0.1:${big.port}/` }))
      expect(error.reason).toBe("timeout")
      // The default pace reads it.
      const fast = yield* transport([big.port], { timeout: Duration.seconds(10) })
      const read = yield* fast.request({ url: `http://127.0.0.1:${big.port}/` })
      expect(read.body.byteLength).toBe(BodyPace.freeBytes + 64 * 1024)
    })
  )
})
