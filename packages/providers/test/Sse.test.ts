import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Sse from "../src/internal/eventStream.js"

const encoder = new TextEncoder()

/** Feeds the bytes of `text` split at the given cut points and collects every event. */
const decode = (text: string, cuts: ReadonlyArray<number> = [], maxEventChars = 1_000_000) => {
  const bytes = encoder.encode(text)
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const decoder = Sse.make({ maxEventChars })
  const events: Array<Sse.SseEvent> = []
  let previous = 0
  for (const point of [...points, bytes.length]) {
    const out = decoder.feed(bytes.subarray(previous, point))
    if (out._tag === "TooLarge") return out
    events.push(...out.events)
    previous = point
  }
  return events
}

const eventName = FastCheck.constantFrom("message", "response.completed", "response.output_text.delta", "error", "")
// Data lines may hold anything but line breaks; an event's data is several lines joined by LF.
const dataLine = FastCheck.fullUnicodeString({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, " "))
const event = FastCheck.record({ event: eventName, lines: FastCheck.array(dataLine, { minLength: 1, maxLength: 4 }) })
const eol = FastCheck.constantFrom("\n", "\r\n", "\r")

const frame = (e: { event: string; lines: ReadonlyArray<string> }, end: string, noise: boolean) =>
  [
    ...(noise ? [": comment", "garbage", "retry: 5"] : []),
    ...(e.event === "" ? [] : [`event: ${e.event}`]),
    ...e.lines.map((l) => `data: ${l}`)
  ]
    .map((line) => `${line}${end}`)
    .join("") + end

describe("Sse decoder", () => {
  it("decodes fields, joins data lines, ignores comments and unknown fields", () => {
    const events = decode(
      ': hello\nevent: a\ndata: one\ndata:two\ndata\nbogus: x\nid: 7\n\ndata: {"x":1}\n\nevent: empty\n\n'
    )
    expect(events).toEqual([
      { event: "a", data: "one\ntwo\n", id: "7" },
      { event: "message", data: '{"x":1}', id: "7" }
    ])
  })

  it("an event still open at the end of the stream is discarded", () => {
    expect(decode("data: complete\n\ndata: half")).toEqual([{ event: "message", data: "complete", id: undefined }])
  })

  it("a CRLF split between chunks is one line end", () => {
    expect(decode("data: a\r\n\r\ndata: b\r\n\r\n", [8, 9, 10])).toEqual([
      { event: "message", data: "a", id: undefined },
      { event: "message", data: "b", id: undefined }
    ])
  })

  it("an event over the limit stops the decoder", () => {
    expect(decode(`data: ${"x".repeat(200)}\n\n`, [50], 100)).toEqual({ _tag: "TooLarge", limit: 100 })
    // A whole oversized event inside one chunk, and an endless line without a line end.
    expect(decode(`data: ${"x".repeat(200)}\n\n`, [], 100)).toEqual({ _tag: "TooLarge", limit: 100 })
    expect(decode(`data: ${"x".repeat(200)}`, [], 100)).toEqual({ _tag: "TooLarge", limit: 100 })
  })

  it.prop(
    "any framing (LF, CRLF, CR, noise lines) and any chunking of the bytes decode to the same events",
    [
      FastCheck.array(event, { maxLength: 8 }),
      eol,
      FastCheck.boolean(),
      FastCheck.array(FastCheck.nat({ max: 2000 }), { maxLength: 12 })
    ],
    ([events, end, noise, cuts]) => {
      const text = events.map((e) => frame(e, end, noise)).join("")
      const decoded = decode(text, cuts)
      expect(decoded).toEqual(
        events.map((e) => ({ event: e.event === "" ? "message" : e.event, data: e.lines.join("\n"), id: undefined }))
      )
    }
  )
})
