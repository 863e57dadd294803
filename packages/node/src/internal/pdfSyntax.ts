/**
 * Just enough of PDF's syntax to find every stream of a body and the dictionary that says how it is decoded, in
 * time linear in the body, for `pdfBudget`. It reads the way PDF.js's own lexer does (whitespace, delimiters,
 * comments, literal and hex strings, names with `#xx` escapes, indirect references), but it does not follow the
 * cross-reference table: PDF.js reaches objects through it, and a hostile file can point it anywhere, even into
 * another stream's data. So every `stream` keyword in the body counts, wherever it stands, and a stream whose
 * dictionary cannot be read the way PDF.js would read it is reported as such (the budget then refuses the file)
 * rather than skipped.
 */

/** A PDF value, as far as the budget needs one: names, numbers, references, arrays and dictionaries. */
export type Value =
  | { readonly _tag: "Name"; readonly name: string }
  | { readonly _tag: "Number"; readonly value: number }
  | { readonly _tag: "Ref"; readonly num: number; readonly gen: number }
  | { readonly _tag: "Array"; readonly items: ReadonlyArray<Value> }
  | { readonly _tag: "Dict"; readonly entries: ReadonlyMap<string, Value> }
  /** Strings, booleans, null and any other keyword. */
  | { readonly _tag: "Other" }

/** A stream: its dictionary (or why it could not be read), and where its data may lie. */
export interface Stream {
  readonly dict: ReadonlyMap<string, Value> | string
  /** Where the data starts: after the end of line that follows the `stream` keyword. */
  readonly start: number
  /** Where `endstream` first follows `start` (the body's end when it never does). */
  readonly end: number
}

/** How many readings of the comments before a `stream` keyword are tried (each looks back over the same bytes). */
const maxReadings = 4

/** Nesting deeper than this in one value is not a PDF anyone writes: the value is unreadable. */
const maxDepth = 32

// PDF.js's character classes: whitespace, and the delimiters that end a regular token.
const isWhite = (byte: number): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00
const isDelimiter = (byte: number): boolean =>
  byte === 0x28 ||
  byte === 0x29 ||
  byte === 0x3c ||
  byte === 0x3e ||
  byte === 0x5b ||
  byte === 0x5d ||
  byte === 0x7b ||
  byte === 0x7d ||
  byte === 0x2f ||
  byte === 0x25
const isRegular = (byte: number | undefined): boolean => byte !== undefined && !isWhite(byte) && !isDelimiter(byte)

const hexDigit = (byte: number): number =>
  byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66 ? (byte | 0x20) - 87 : -1

/** Thrown (and caught in `parseAt`) where the bytes are not a value PDF.js would read the same way. */
const unreadable: unique symbol = Symbol("pdfSyntax.unreadable")

/** A value parser over `bytes[pos, end)`. */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
    readonly end: number
  ) {}

  /** Skips whitespace and comments. */
  skip(): void {
    const { bytes, end } = this
    while (this.pos < end) {
      const byte = bytes[this.pos]
      if (isWhite(byte)) this.pos++
      else if (byte === 0x25) {
        while (this.pos < end && bytes[this.pos] !== 0x0a && bytes[this.pos] !== 0x0d) this.pos++
      } else return
    }
  }

  /** A regular token (a number or a keyword) at `pos`, as text; `pos` moves past it. */
  token(): string {
    const from = this.pos
    while (this.pos < this.end && isRegular(this.bytes[this.pos])) this.pos++
    if (this.pos === from) throw unreadable
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + from, this.pos - from).toString("latin1")
  }

  /** The value at `pos` (after whitespace and comments); `pos` moves past it. */
  value(depth: number): Value {
    if (depth > maxDepth) throw unreadable
    this.skip()
    const { bytes, end } = this
    if (this.pos >= end) throw unreadable
    const byte = bytes[this.pos]
    if (byte === 0x2f) return { _tag: "Name", name: this.name() }
    if (byte === 0x3c && bytes[this.pos + 1] === 0x3c) {
      this.pos += 2
      const entries = new Map<string, Value>()
      for (;;) {
        this.skip()
        if (this.pos + 1 < end && bytes[this.pos] === 0x3e && bytes[this.pos + 1] === 0x3e) {
          this.pos += 2
          return { _tag: "Dict", entries }
        }
        if (bytes[this.pos] !== 0x2f) throw unreadable
        const key = this.name()
        entries.set(key, this.value(depth + 1))
      }
    }
    if (byte === 0x5b) {
      this.pos++
      const items: Array<Value> = []
      for (;;) {
        this.skip()
        if (this.pos >= end) throw unreadable
        if (bytes[this.pos] === 0x5d) {
          this.pos++
          return { _tag: "Array", items }
        }
        items.push(this.value(depth + 1))
      }
    }
    if (byte === 0x28) {
      this.literalString()
      return { _tag: "Other" }
    }
    if (byte === 0x3c) {
      // A hex string: everything up to the next `>`.
      while (this.pos < end && bytes[this.pos] !== 0x3e) this.pos++
      if (this.pos >= end) throw unreadable
      this.pos++
      return { _tag: "Other" }
    }
    if (!isRegular(byte)) throw unreadable
    const text = this.token()
    const number = Number(text)
    if (text === "" || Number.isNaN(number)) return { _tag: "Other" }
    // `num gen R` is a reference: look two tokens ahead, and come back when it is not one.
    if (Number.isInteger(number) && number >= 0) {
      const after = this.pos
      this.skip()
      if (this.pos < end && isRegular(bytes[this.pos])) {
        const gen = this.token()
        this.skip()
        if (/^\d+$/.test(gen) && bytes[this.pos] === 0x52 && !isRegular(bytes[this.pos + 1])) {
          this.pos++
          return { _tag: "Ref", num: number, gen: Number(gen) }
        }
      }
      this.pos = after
    }
    return { _tag: "Number", value: number }
  }

  /** A name at `pos` (its `/` included), `#xx` escapes decoded. */
  name(): string {
    const { bytes, end } = this
    this.pos++
    let plain = this.pos
    while (plain < end && isRegular(bytes[plain]) && bytes[plain] !== 0x23) plain++
    if (plain >= end || !isRegular(bytes[plain])) {
      const name = Buffer.from(bytes.buffer, bytes.byteOffset + this.pos, plain - this.pos).toString("latin1")
      this.pos = plain
      return name
    }
    let name = ""
    while (this.pos < end && isRegular(bytes[this.pos])) {
      const byte = bytes[this.pos]
      const high = byte === 0x23 ? hexDigit(bytes[this.pos + 1] ?? 0) : -1
      const low = high === -1 ? -1 : hexDigit(bytes[this.pos + 2] ?? 0)
      if (low !== -1) {
        name += String.fromCharCode(high * 16 + low)
        this.pos += 3
      } else {
        name += String.fromCharCode(byte)
        this.pos++
      }
    }
    return name
  }

  /** A literal string at `pos`: balanced parentheses, a backslash escaping the next byte. */
  literalString(): void {
    const { bytes, end } = this
    let depth = 0
    while (this.pos < end) {
      const byte = bytes[this.pos++]
      if (byte === 0x5c) this.pos++
      else if (byte === 0x28) depth++
      else if (byte === 0x29 && --depth === 0) return
    }
    throw unreadable
  }
}

/** The value at `pos`, or `undefined` when the bytes there are not one (or run past `end`). */
export const parseAt = (bytes: Uint8Array, pos: number, end: number = bytes.length): Value | undefined => {
  try {
    return new Reader(bytes, pos, end).value(0)
  } catch (error) {
    if (error === unreadable) return undefined
    throw error
  }
}

/** Where an object's value lies: from after its `obj` keyword to the next object's (or the body's end). */
export interface Region {
  readonly start: number
  readonly end: number
}

/** Whether two values are the same (strings and keywords all count as the same `Other`). */
export const equal = (a: Value, b: Value): boolean => {
  switch (a._tag) {
    case "Name":
      return b._tag === "Name" && a.name === b.name
    case "Number":
      return b._tag === "Number" && a.value === b.value
    case "Ref":
      return b._tag === "Ref" && a.num === b.num && a.gen === b.gen
    case "Array":
      return (
        b._tag === "Array" && a.items.length === b.items.length && a.items.every((item, i) => equal(item, b.items[i]))
      )
    case "Dict":
      return (
        b._tag === "Dict" &&
        a.entries.size === b.entries.size &&
        [...a.entries].every(([key, value]) => {
          const other = b.entries.get(key)
          return other !== undefined && equal(value, other)
        })
      )
    case "Other":
      return b._tag === "Other"
  }
}

/**
 * Where each object's value lies, by object number: every `num gen obj` in the body (all of them, not only those
 * the cross-reference table names; a number defined twice keeps every definition). The regions do not overlap, so
 * reading every object once reads the body once.
 */
export const objects = (bytes: Uint8Array): ReadonlyMap<number, ReadonlyArray<Region>> => {
  const headers: Array<{ readonly num: number; readonly at: number }> = []
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // An unsigned integer of at most 9 digits ending at `pos` (whitespace skipped back first): its value and where it
  // starts, or -1. Walked back without leaving this `obj`'s own run.
  let pos = 0
  const integer = (): number => {
    while (pos >= 0 && isWhite(bytes[pos])) pos--
    let value = 0
    let scale = 1
    const last = pos
    while (pos >= 0 && bytes[pos] >= 0x30 && bytes[pos] <= 0x39 && last - pos < 9) {
      value += (bytes[pos] - 0x30) * scale
      scale *= 10
      pos--
    }
    return pos === last || isRegular(bytes[pos]) ? -1 : value
  }
  for (let at = text.indexOf("obj"); at !== -1; at = text.indexOf("obj", at + 3)) {
    if (isRegular(bytes[at - 1]) || isRegular(bytes[at + 3])) continue
    pos = at - 1
    if (integer() === -1) continue
    const num = integer()
    if (num !== -1) headers.push({ num, at })
  }
  const found = new Map<number, Array<Region>>()
  for (const [i, { at, num }] of headers.entries()) {
    const region = { start: at + 3, end: headers[i + 1]?.at ?? bytes.length }
    const list = found.get(num)
    if (list === undefined) found.set(num, [region])
    else list.push(region)
  }
  return found
}

/**
 * The dictionary that ends right before `stream` at `keyword` (whitespace and comments between), no earlier than
 * `floor`: `undefined` when none does (then it is no stream to PDF.js either), a reason when one seems to but
 * cannot be read.
 */
const dictionaryBefore = (
  bytes: Uint8Array,
  keyword: number,
  floor: number
): ReadonlyMap<string, Value> | string | undefined => {
  // The candidates for the dictionary's last byte: before the keyword, and before each comment that may sit
  // between (a `%` on the line may also be inside a string; both readings are tried, the plain one first).
  const ends: Array<number> = []
  let q = keyword - 1
  for (;;) {
    while (q >= floor && isWhite(bytes[q])) q--
    if (q < floor) break
    if (bytes[q] === 0x3e && bytes[q - 1] === 0x3e && ends.push(q) === maxReadings) break
    let lineStart = q
    while (lineStart >= floor && bytes[lineStart] !== 0x0a && bytes[lineStart] !== 0x0d) lineStart--
    let percent = -1
    for (let i = lineStart + 1; i <= q; i++) {
      if (bytes[i] === 0x25) {
        percent = i
        break
      }
    }
    if (percent === -1) break
    q = percent - 1
  }
  if (ends.length === 0) return undefined
  for (const last of ends) {
    // The `<<` that opens it: `>>` and `<<` counted back, strings not known yet (the forward read checks).
    let depth = 0
    let open = -1
    for (let i = last; i > floor;) {
      if (bytes[i] === 0x3e && bytes[i - 1] === 0x3e) {
        depth++
        i -= 2
      } else if (bytes[i] === 0x3c && bytes[i - 1] === 0x3c) {
        if (--depth === 0) {
          open = i - 1
          break
        }
        i -= 2
      } else i--
    }
    if (open === -1) continue
    const reader = new Reader(bytes, open, last + 1)
    try {
      const value = reader.value(0)
      if (value._tag === "Dict" && reader.pos === last + 1) return value.entries
    } catch (error) {
      if (error !== unreadable) throw error
    }
  }
  return "a stream's dictionary could not be read"
}

/**
 * Whether `endstream` follows `at`, whitespace and comments between, as PDF.js checks a stream's `/Length`; looked
 * for within 256 bytes only.
 */
export const endsAt = (bytes: Uint8Array, at: number): boolean => {
  if (!Number.isInteger(at) || at < 0 || at > bytes.length) return false
  const reader = new Reader(bytes, at, Math.min(bytes.length, at + 256))
  reader.skip()
  const word = "endstream"
  for (let i = 0; i < word.length; i++) if (bytes[reader.pos + i] !== word.charCodeAt(i)) return false
  return !isRegular(bytes[reader.pos + word.length])
}

/**
 * Every stream of the body: each `stream` keyword that follows a dictionary, in order, found as they are asked
 * for. Linear in the body: each keyword looks back no further than the one before it, and the search for
 * `endstream` only moves forward.
 */
export function* streams(bytes: Uint8Array): Generator<Stream, void, undefined> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let floor = 0
  let nextEnd = -2
  for (let at = text.indexOf("stream"); at !== -1; at = text.indexOf("stream", at + 6)) {
    if (isRegular(bytes[at - 1]) || isRegular(bytes[at + 6])) continue
    const dict = dictionaryBefore(bytes, at, floor)
    floor = at + 6
    if (dict === undefined) continue
    // The data starts after the end of line that follows the keyword (PDF.js skips to the next line).
    let start = at + 6
    while (start < bytes.length && bytes[start] !== 0x0a && bytes[start] !== 0x0d) start++
    if (bytes[start] === 0x0d && bytes[start + 1] === 0x0a) start++
    start = Math.min(bytes.length, start + 1)
    if (nextEnd !== -1 && nextEnd < start) nextEnd = text.indexOf("endstream", start)
    yield { dict, start, end: nextEnd === -1 ? bytes.length : nextEnd }
  }
}
