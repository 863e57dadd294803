/**
 * PDF's stream filters, as PDF.js decodes them, for `pdfBudget`: each one either counts what it decodes to (the
 * last filter of a chain: nothing is written) or decodes it (a filter whose output the next one reads), and stops
 * once past a limit. Each is linear in its input and never writes more than the limit. FlateDecode counts through
 * `deflateSize`; LZWDecode, RunLengthDecode, ASCIIHexDecode and ASCII85Decode follow PDF.js's own decoders step
 * by step, so they count what PDF.js would put in memory, quirks included.
 */
import * as zlib from "node:zlib"
import * as DeflateSize from "./deflateSize.js"

/** What a filter gave: how many bytes, and those bytes when asked for (absent past the limit). */
export interface Output {
  readonly size: number
  readonly bytes?: Uint8Array | undefined
}

/** A filter: what `input` decodes to, stopping once past `limit`; the bytes only when `emit`. */
export type Filter = (input: Uint8Array, limit: number, emit: boolean) => Output

/** Bytes written one at a time, or only counted; growing by doubling, never past the limit. */
class Sink {
  size = 0
  private buffer: Uint8Array
  constructor(
    readonly limit: number,
    readonly emit: boolean
  ) {
    this.buffer = new Uint8Array(emit ? Math.min(limit + 1, 64 * 1024) : 0)
  }
  get full(): boolean {
    return this.size > this.limit
  }
  push(byte: number): void {
    if (this.emit && this.size < this.limit + 1) {
      if (this.size === this.buffer.length) this.grow(this.size + 1)
      this.buffer[this.size] = byte
    }
    this.size++
  }
  /** `count` more bytes that are not written (a caller that emits writes them with `push`). */
  add(count: number): void {
    this.size += count
  }
  private grow(needed: number): void {
    const next = new Uint8Array(Math.min(this.limit + 1, Math.max(needed, this.buffer.length * 2)))
    next.set(this.buffer)
    this.buffer = next
  }
  output(): Output {
    return this.full || !this.emit
      ? { size: this.size }
      : { size: this.size, bytes: this.buffer.subarray(0, this.size) }
  }
}

/** FlateDecode. Decoding (for a next filter) is zlib's, stopped at the limit; a stream zlib cannot inflate has size `NaN`. */
export const flate: Filter = (input, limit, emit) => {
  // PDF.js decodes nothing from a stream whose header it refuses.
  if (!DeflateSize.isZlibHeader(input)) return { size: 0, bytes: emit ? new Uint8Array(0) : undefined }
  if (!emit) return { size: DeflateSize.zlibSize(input, limit) }
  // Raw inflation past the header: PDF.js checks neither the window size nor the checksum at the end. A cut stream
  // gives what it holds.
  try {
    const bytes = zlib.inflateRawSync(input.subarray(2), {
      maxOutputLength: Math.max(1, Math.min(limit + 1, 2 ** 31 - 1)),
      finishFlush: zlib.constants.Z_SYNC_FLUSH
    })
    return { size: bytes.length, bytes }
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") return { size: limit + 1 }
    // What PDF.js would make of a stream zlib refuses is not known: the caller treats it as uncountable.
    return { size: Number.NaN }
  }
}

/** LZWDecode with this `/EarlyChange`, code for code as PDF.js decodes it. */
export const lzw =
  (earlyChange: number): Filter =>
  (input, limit, emit) => {
    const sink = new Sink(limit, emit)
    const values = new Uint8Array(4096)
    const lengths = new Uint16Array(4096)
    const previous = new Uint16Array(4096)
    const sequence = new Uint8Array(4096)
    for (let i = 0; i < 256; i++) {
      values[i] = i
      lengths[i] = 1
    }
    let sequenceLength = 0
    let nextCode = 258
    let codeLength = 9
    let prevCode = 0
    let cached = 0
    let bitsCached = 0
    let at = 0
    while (!sink.full) {
      while (bitsCached < codeLength && at < input.length) {
        cached = ((cached << 8) | input[at++]) & 0xffffff
        bitsCached += 8
      }
      // At the end of the data PDF.js reads no more codes (the few bytes it adds before stopping are not counted).
      if (bitsCached < codeLength) break
      bitsCached -= codeLength
      const code = (cached >>> bitsCached) & ((1 << codeLength) - 1)
      const hasPrev = sequenceLength > 0
      if (code < 256) {
        sequence[0] = code
        sequenceLength = 1
      } else if (code >= 258) {
        if (code < nextCode) {
          sequenceLength = lengths[code]
          if (emit) {
            for (let j = sequenceLength - 1, q = code; j >= 0; j--) {
              sequence[j] = values[q]
              q = previous[q]
            }
          }
        } else {
          sequence[sequenceLength++] = sequence[0]
        }
      } else if (code === 256) {
        codeLength = 9
        nextCode = 258
        sequenceLength = 0
        continue
      } else break
      if (hasPrev) {
        // Typed arrays drop writes past their end, as PDF.js's do once the table is full.
        previous[nextCode] = prevCode
        lengths[nextCode] = lengths[prevCode] + 1
        values[nextCode] = sequence[0]
        nextCode++
        const next = nextCode + earlyChange
        if ((next & (next - 1)) === 0) codeLength = Math.min((Math.log(next) / Math.LN2 + 1) | 0, 12)
      }
      prevCode = code
      if (emit) for (let j = 0; j < sequenceLength && !sink.full; j++) sink.push(sequence[j] ?? 0)
      else sink.add(sequenceLength)
    }
    return sink.output()
  }

/** RunLengthDecode: a length byte, then that many bytes plus one, or one byte repeated 257 minus the length. */
export const runLength: Filter = (input, limit, emit) => {
  const sink = new Sink(limit, emit)
  let at = 0
  while (at + 1 < input.length && input[at] !== 128 && !sink.full) {
    const n = input[at]
    if (n < 128) {
      // PDF.js counts n + 1 bytes even when the data ends sooner.
      if (emit) for (let i = 0; i <= n && !sink.full; i++) sink.push(input[at + 1 + i] ?? 0)
      else sink.add(n + 1)
      at += n + 2
    } else {
      if (emit) for (let i = 0; i < 257 - n && !sink.full; i++) sink.push(input[at + 1])
      else sink.add(257 - n)
      at += 2
    }
  }
  return sink.output()
}

const hexValue = (byte: number): number =>
  byte >= 0x30 && byte <= 0x39
    ? byte & 0x0f
    : (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
      ? (byte & 0x0f) + 9
      : -1

/** ASCIIHexDecode: pairs of hex digits up to `>`, anything else skipped; a lone last digit is followed by 0. */
export const asciiHex: Filter = (input, limit, emit) => {
  const sink = new Sink(limit, emit)
  let first = -1
  for (let at = 0; at < input.length && !sink.full; at++) {
    if (input[at] === 0x3e) break
    const digit = hexValue(input[at])
    if (digit === -1) continue
    if (first === -1) first = digit
    else {
      sink.push((first << 4) | digit)
      first = -1
    }
  }
  if (first !== -1) sink.push(first << 4)
  return sink.output()
}

const isWhiteSpace = (byte: number): boolean =>
  byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a || byte === 0x0c || byte === 0x00

/** ASCII85Decode: five characters make four bytes, `z` four zeros, `~` ends it, whitespace is skipped. */
export const ascii85: Filter = (input, limit, emit) => {
  const sink = new Sink(limit, emit)
  const group = new Uint8Array(5)
  let at = 0
  const next = (): number => {
    while (at < input.length && isWhiteSpace(input[at])) at++
    return at < input.length ? input[at++] : -1
  }
  while (!sink.full) {
    const c = next()
    if (c === -1 || c === 0x7e) break
    if (c === 0x7a) {
      for (let i = 0; i < 4; i++) sink.push(0)
      continue
    }
    group[0] = c
    let i = 1
    let end = false
    for (; i < 5; i++) {
      const d = next()
      if (d === -1 || d === 0x7e) {
        end = true
        break
      }
      group[i] = d
    }
    const count = i - 1
    for (let j = i; j < 5; j++) group[j] = 0x21 + 84
    let t = 0
    for (let j = 0; j < 5; j++) t = t * 85 + (group[j] - 0x21)
    for (let j = 0; j < count; j++) sink.push((t >>> (24 - 8 * j)) & 0xff)
    if (end) break
  }
  return sink.output()
}
