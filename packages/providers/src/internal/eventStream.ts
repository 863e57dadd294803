/**
 * A `text/event-stream` decoder fed byte chunks as they arrive, on `@effect/experimental`'s SSE parser: the
 * WHATWG grammar (CRLF, LF or CR line ends, `data` lines joined with LF, comments and unknown fields ignored, an
 * event still open when the stream ends never dispatched). Around the parser, it decodes UTF-8 across chunk
 * boundaries, keeps the last event id for the events after it (as the grammar says), and fails with `TooLarge`
 * instead of growing past `maxEventChars`, a whole oversized event in one chunk included.
 */
import * as Sse from "@effect/experimental/Sse"

/** One dispatched event. `event` is `message` when the stream named no type. */
export interface SseEvent {
  readonly event: string
  readonly data: string
  readonly id: string | undefined
}

/** An event (or a single line) grew past the limit. */
export interface TooLarge {
  readonly _tag: "TooLarge"
  readonly limit: number
}

/** The decoder's state machine. `feed` returns the events completed by this chunk, or why it gave up. */
export interface SseDecoder {
  readonly feed: (chunk: Uint8Array) => { readonly _tag: "Events"; readonly events: ReadonlyArray<SseEvent> } | TooLarge
}

/** Builds a decoder; each stream needs its own. */
export const make = (options: { readonly maxEventChars: number }): SseDecoder => {
  const text = new TextDecoder("utf-8")
  const tooLarge: TooLarge = { _tag: "TooLarge", limit: options.maxEventChars }
  let events: Array<SseEvent> = []
  let lastId: string | undefined = undefined
  let over = false
  let endedWithCr = false
  const parser = Sse.makeParser(
    (event) => {
      // `retry` is for browsers reconnecting on their own; a provider call never does.
      if (event._tag !== "Event") return
      if (event.id !== undefined) lastId = event.id
      // The parser measures what it holds between chunks: an event that arrived whole in one chunk is measured here.
      if (event.data.length > options.maxEventChars) over = true
      else events.push({ event: event.event, data: event.data, id: lastId })
    },
    { maxEventSize: options.maxEventChars }
  )
  return {
    feed: (chunk) => {
      if (over) return tooLarge
      let decoded = text.decode(chunk, { stream: true })
      // The parser reads a CR that ends one chunk and the LF that starts the next as two line ends, a blank line
      // that would dispatch the event early: that LF is the CR's own and is dropped.
      if (endedWithCr && decoded.startsWith("\n")) decoded = decoded.slice(1)
      if (decoded !== "") endedWithCr = decoded.endsWith("\r")
      const failed = parser.feed(decoded) !== undefined
      const done = events
      events = []
      if (failed || over) {
        over = true
        return tooLarge
      }
      return { _tag: "Events", events: done }
    }
  }
}
