/**
 * An incremental decoder for `text/event-stream` (the WHATWG server-sent events grammar), fed byte chunks as they
 * arrive. Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the next are one
 * line end); `data` lines of one event are joined with LF; comments (`:`) and fields we do not know (garbage
 * lines included) are ignored, as the grammar says; an event still open when the stream ends is discarded,
 * so a stream cut in the middle of an event never yields half an event. Events larger than `maxEventChars`
 * fail the decoder instead of growing without bound.
 */

/** One dispatched event. `event` is `message` when the stream named no type. */
export interface SseEvent {
  readonly event: string
  readonly data: string
  readonly id: string | undefined
}

/** The decoder's state machine. `feed` returns the events completed by this chunk, or why it gave up. */
export interface SseDecoder {
  readonly feed: (chunk: Uint8Array) => { readonly _tag: "Events"; readonly events: ReadonlyArray<SseEvent> } | TooLarge
}

/** An event (or a single line) grew past the limit. */
export interface TooLarge {
  readonly _tag: "TooLarge"
  readonly limit: number
}

/** Builds a decoder; each stream needs its own. */
export const make = (options: { readonly maxEventChars: number }): SseDecoder => {
  const text = new TextDecoder("utf-8")
  let line = ""
  let skipLf = false
  let data: Array<string> = []
  let dataChars = 0
  let eventType = ""
  let lastId: string | undefined = undefined
  let tooLarge = false

  const field = (raw: string, out: Array<SseEvent>): void => {
    if (raw === "") {
      // A blank line dispatches; an event with no data is dropped and its type forgotten.
      if (data.length > 0)
        out.push({ event: eventType === "" ? "message" : eventType, data: data.join("\n"), id: lastId })
      data = []
      dataChars = 0
      eventType = ""
      return
    }
    if (raw.startsWith(":")) return
    const colon = raw.indexOf(":")
    const name = colon === -1 ? raw : raw.slice(0, colon)
    let value = colon === -1 ? "" : raw.slice(colon + 1)
    if (value.startsWith(" ")) value = value.slice(1)
    switch (name) {
      case "data":
        data.push(value)
        dataChars += value.length + 1
        if (dataChars > options.maxEventChars) tooLarge = true
        return
      case "event":
        eventType = value
        return
      case "id":
        if (!value.includes("\u0000")) lastId = value
        return
      default:
        // `retry` and unknown fields (garbage) are ignored.
        return
    }
  }

  return {
    feed: (chunk) => {
      if (tooLarge) return { _tag: "TooLarge", limit: options.maxEventChars }
      const decoded = text.decode(chunk, { stream: true })
      const out: Array<SseEvent> = []
      let start = 0
      for (let i = 0; i < decoded.length; i++) {
        const c = decoded.charCodeAt(i)
        if (c === 10 && skipLf && i === start && line === "") {
          // The LF of a CRLF whose CR ended the previous chunk (or the previous line).
          skipLf = false
          start = i + 1
          continue
        }
        skipLf = false
        if (c !== 10 && c !== 13) continue
        field(line + decoded.slice(start, i), out)
        if (tooLarge) return { _tag: "TooLarge", limit: options.maxEventChars }
        line = ""
        if (c === 13) {
          if (i + 1 < decoded.length) {
            if (decoded.charCodeAt(i + 1) === 10) i++
          } else skipLf = true
        }
        start = i + 1
      }
      line += decoded.slice(start)
      // Checked per chunk: a chunk is bounded by the transport, so at most one chunk more than the limit is held.
      if (line.length + dataChars > options.maxEventChars) {
        tooLarge = true
        return { _tag: "TooLarge", limit: options.maxEventChars }
      }
      return { _tag: "Events", events: out }
    }
  }
}
