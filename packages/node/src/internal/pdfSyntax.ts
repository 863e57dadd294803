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
  /** A literal or hex string, as the bytes it stands for. */
  | { readonly _tag: "String"; readonly bytes: Uint8Array }
  | { readonly _tag: "Bool"; readonly value: boolean }
  /** `null` and any other keyword. */
  | { readonly _tag: "Other" }

/** A stream: its dictionary (or why it could not be read), and where its data may lie. */
export interface Stream {
  readonly dict: ReadonlyMap<string, Value> | string
  /** The number and generation of the object it is (`num gen obj` before its dictionary), when it has them. */
  readonly object?: { readonly num: number; readonly gen: number } | undefined
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
      return { _tag: "String", bytes: this.literalString() }
    }
    if (byte === 0x3c) {
      return { _tag: "String", bytes: this.hexString() }
    }
    if (!isRegular(byte)) throw unreadable
    const text = this.token()
    const number = Number(text)
    if (text === "true" || text === "false") return { _tag: "Bool", value: text === "true" }
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

  /**
   * A literal string at `pos`, as PDF.js reads it: balanced parentheses, the escapes `\n \r \t \b \f \( \) \\`,
   * up to three octal digits, a backslash before an end of line dropping both, any other escaped byte kept.
   */
  literalString(): Uint8Array {
    const { bytes, end } = this
    const out: Array<number> = []
    let depth = 1
    this.pos++
    while (this.pos < end) {
      const byte = bytes[this.pos++]
      if (byte === 0x29 && --depth === 0) return Uint8Array.from(out)
      if (byte === 0x28) depth++
      if (byte !== 0x5c) {
        out.push(byte)
        continue
      }
      if (this.pos >= end) break
      const next = bytes[this.pos++]
      const escaped = escapes[next]
      if (escaped !== undefined) out.push(escaped)
      else if (next >= 0x30 && next <= 0x37) {
        let value = next - 0x30
        for (let digits = 1; digits < 3 && bytes[this.pos] >= 0x30 && bytes[this.pos] <= 0x37; digits++) {
          value = value * 8 + bytes[this.pos++] - 0x30
        }
        out.push(value & 0xff)
      } else if (next === 0x0d) {
        if (bytes[this.pos] === 0x0a) this.pos++
      } else if (next !== 0x0a) out.push(next)
    }
    throw unreadable
  }

  /** A hex string at `pos`: pairs of hex digits up to `>`, anything else skipped, a lone last digit followed by 0. */
  hexString(): Uint8Array {
    const { bytes, end } = this
    const out: Array<number> = []
    let first = -1
    this.pos++
    while (this.pos < end) {
      const byte = bytes[this.pos++]
      if (byte === 0x3e) {
        if (first !== -1) out.push(first << 4)
        return Uint8Array.from(out)
      }
      const digit = hexDigit(byte)
      if (digit === -1) continue
      if (first === -1) first = digit
      else {
        out.push((first << 4) | digit)
        first = -1
      }
    }
    throw unreadable
  }
}

/** What a backslash makes of the byte after it in a literal string, for the named escapes. */
const escapes: Record<number, number> = {
  0x6e: 0x0a,
  0x72: 0x0d,
  0x74: 0x09,
  0x62: 0x08,
  0x66: 0x0c,
  0x5c: 0x5c,
  0x28: 0x28,
  0x29: 0x29
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

/**
 * The `num gen` of the `num gen obj` that ends at `end` (whitespace between), walked back without leaving its own
 * run: at most 9 digits a number.
 */
const header = (bytes: Uint8Array, end: number): { readonly num: number; readonly gen: number } | undefined => {
  let pos = end - 1
  while (pos >= 0 && isWhite(bytes[pos])) pos--
  if (bytes[pos] !== 0x6a || bytes[pos - 1] !== 0x62 || bytes[pos - 2] !== 0x6f || isRegular(bytes[pos - 3])) {
    return undefined
  }
  pos -= 3
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
  const gen = integer()
  const num = gen === -1 ? -1 : integer()
  return num === -1 ? undefined : { num, gen }
}

/** Where an object's value lies: from after its `obj` keyword to the next object's (or the body's end). */
export interface Region {
  readonly start: number
  readonly end: number
}

/** Whether two values are the same (keywords all count as the same `Other`). */
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
    case "String":
      return b._tag === "String" && Buffer.from(a.bytes).equals(b.bytes)
    case "Bool":
      return b._tag === "Bool" && a.value === b.value
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
  for (let at = text.indexOf("obj"); at !== -1; at = text.indexOf("obj", at + 3)) {
    if (isRegular(bytes[at - 1]) || isRegular(bytes[at + 3])) continue
    const object = header(bytes, at + 3)
    if (object !== undefined) headers.push({ num: object.num, at })
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
): { readonly entries: ReadonlyMap<string, Value>; readonly open: number } | string | undefined => {
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
      if (value._tag === "Dict" && reader.pos === last + 1) return { entries: value.entries, open }
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
    const end = nextEnd === -1 ? bytes.length : nextEnd
    if (typeof dict === "string") yield { dict, start, end }
    else yield { dict: dict.entries, object: header(bytes, dict.open), start, end }
  }
}
