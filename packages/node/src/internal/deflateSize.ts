/**
 * How many bytes a deflate stream (RFC 1951) decodes to, found without decoding it: the blocks are walked code by
 * code and only the lengths are added up. No output is written and no window is kept, so the cost is linear in
 * the compressed bits, whatever they inflate to: a 1 MB stream of zeros that inflates to 1 GiB is walked in a few
 * milliseconds, where inflating it took a thread-pool thread 80 ms per 128 MiB counted, at the process's own
 * priority, whichever worker asked.
 *
 * The walk is lenient where a decoder could be: it is a bound, so it counts on wherever PDF.js's inflater would
 * (over-subscribed or incomplete codes, a distance further back than the output, more length or distance codes
 * than the format allows), and stops only where no decoder can go on (the input ends, a reserved block type, a
 * stored block whose length check fails, a code no table holds).
 */

/** The longest Huffman code deflate allows. */
const maxBits = 15

/** A canonical Huffman code: how many codes there are of each length, and its symbols in code order. */
interface Code {
  readonly counts: Uint16Array
  readonly symbols: Uint16Array
}

/** Thrown (and caught in `size`) where the stream cannot be read further: the count so far is the answer. */
const stop: unique symbol = Symbol("deflateSize.stop")

/** Builds the canonical code of symbols `0 … lengths.length - 1` with these code lengths (0: no code). */
const code = (lengths: ArrayLike<number>): Code => {
  const counts = new Uint16Array(maxBits + 1)
  for (let symbol = 0; symbol < lengths.length; symbol++) counts[lengths[symbol]]++
  counts[0] = 0
  // Where each length's symbols start in code order.
  const offsets = new Uint16Array(maxBits + 2)
  for (let length = 1; length <= maxBits; length++) offsets[length + 1] = offsets[length] + counts[length]
  const symbols = new Uint16Array(lengths.length)
  for (let symbol = 0; symbol < lengths.length; symbol++) {
    if (lengths[symbol] !== 0) symbols[offsets[lengths[symbol]]++] = symbol
  }
  return { counts, symbols }
}

/** The fixed codes of block type 1: literal/length codes 0–287 and distance codes 0–29 (30 and 31 unused). */
const fixed = (() => {
  const lengths = new Uint8Array(288)
  lengths.fill(8, 0, 144)
  lengths.fill(9, 144, 256)
  lengths.fill(7, 256, 280)
  lengths.fill(8, 280, 288)
  return { literals: code(lengths), distances: code(new Uint8Array(32).fill(5)) }
})()

/** The order in which a dynamic block gives the code lengths of its code-length code. */
const codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

/** Length symbols 257–285: the base match length, and how many extra bits add to it. */
const lengthBase = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163
].concat([195, 227, 258])
const lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]

/** Reads a deflate stream's bits, least significant first (RFC 1951, 3.1.1). */
class Bits {
  private at: number
  private buffer = 0
  private held = 0
  constructor(
    private readonly data: Uint8Array,
    start: number
  ) {
    this.at = start
  }

  /** The next `n` bits (at most 16) as a number. */
  read(n: number): number {
    let buffer = this.buffer
    while (this.held < n) {
      if (this.at >= this.data.length) throw stop
      buffer |= this.data[this.at++] << this.held
      this.held += 8
    }
    this.buffer = buffer >>> n
    this.held -= n
    return buffer & ((1 << n) - 1)
  }

  /** The next symbol of `table`, read a bit at a time along the canonical code (at most 15 steps). */
  decode(table: Code): number {
    // The bit reading of `read(1)`, inlined: this loop is where the whole walk spends its time.
    let buffer = this.buffer
    let held = this.held
    let value = 0
    let first = 0
    let index = 0
    for (let length = 1; length <= maxBits; length++) {
      if (held === 0) {
        if (this.at >= this.data.length) throw stop
        buffer = this.data[this.at++]
        held = 8
      }
      value |= buffer & 1
      buffer >>>= 1
      held--
      const count = table.counts[length]
      if (value - first < count) {
        this.buffer = buffer
        this.held = held
        return table.symbols[index + value - first]
      }
      index += count
      first = (first + count) << 1
      value <<= 1
    }
    throw stop
  }

  /** Drops the bits left of the current byte: a stored block's length starts at the next byte. */
  align(): void {
    this.buffer = 0
    this.held = 0
  }

  /** Skips `n` whole bytes (after `align`); how many of them the input held. */
  skip(n: number): number {
    const available = Math.min(n, this.data.length - this.at)
    this.at += n
    return available
  }
}

/** Reads a dynamic block's header (RFC 1951, 3.2.7): its literal/length and distance codes. */
const dynamic = (bits: Bits): { literals: Code; distances: Code } => {
  const literalCount = bits.read(5) + 257
  const distanceCount = bits.read(5) + 1
  const codeLengthCount = bits.read(4) + 4
  const codeLengths = new Uint8Array(19)
  for (let i = 0; i < codeLengthCount; i++) codeLengths[codeLengthOrder[i]] = bits.read(3)
  const lengthCode = code(codeLengths)
  const lengths = new Uint8Array(literalCount + distanceCount)
  for (let i = 0; i < lengths.length;) {
    const symbol = bits.decode(lengthCode)
    if (symbol < 16) {
      lengths[i++] = symbol
      continue
    }
    // 16 repeats the previous length 3–6 times; 17 and 18 give 3–10 and 11–138 zeros. A repeat past the end is
    // cut at the end (the lengths are a bound's, not a validator's).
    if (symbol === 16 && i === 0) throw stop
    const value = symbol === 16 ? lengths[i - 1] : 0
    const times = symbol === 16 ? 3 + bits.read(2) : symbol === 17 ? 3 + bits.read(3) : 11 + bits.read(7)
    const end = Math.min(lengths.length, i + times)
    lengths.fill(value, i, end)
    i = end
  }
  return { literals: code(lengths.subarray(0, literalCount)), distances: code(lengths.subarray(literalCount)) }
}

/**
 * How many bytes the raw deflate data of `data` from `start` decodes to, counted until the last block ends, the
 * data stops being readable, or the count passes `limit` (then some number above `limit` is returned).
 */
export const rawSize = (data: Uint8Array, limit: number, start = 0): number => {
  const bits = new Bits(data, start)
  let total = 0
  try {
    let last = 0
    while (last === 0 && total <= limit) {
      last = bits.read(1)
      const type = bits.read(2)
      if (type === 0) {
        bits.align()
        const length = bits.read(16)
        if ((bits.read(16) ^ 0xffff) !== length) throw stop
        total += bits.skip(length)
        continue
      }
      if (type === 3) throw stop
      const { distances, literals } = type === 1 ? fixed : dynamic(bits)
      for (;;) {
        const symbol = bits.decode(literals)
        if (symbol < 256) {
          total++
          continue
        }
        if (symbol === 256) break
        if (symbol > 285) throw stop
        total += lengthBase[symbol - 257] + bits.read(lengthExtra[symbol - 257])
        const distance = bits.decode(distances)
        if (distance > 29) throw stop
        // The distance's value does not change the length; only its extra bits are skipped.
        if (distance >= 4) bits.read((distance >> 1) - 1)
        if (total > limit) break
      }
    }
  } catch (error) {
    if (error !== stop) throw error
  }
  return total
}

/**
 * How many bytes a zlib stream (RFC 1950: a two-byte header, then deflate) decodes to, at most a little over
 * `limit`; 0 when the header is not one a PDF reader inflates (see `isZlibHeader`).
 */
export const zlibSize = (data: Uint8Array, limit: number): number => (isZlibHeader(data) ? rawSize(data, limit, 2) : 0)

/**
 * A zlib header PDF.js inflates: the deflate method, a check that makes it a multiple of 31, and no preset
 * dictionary. PDF.js does not check the window size (zlib refuses one over 32 KiB), so neither does this: a bound
 * that did would count nothing for a stream PDF.js inflates.
 */
export const isZlibHeader = (data: Uint8Array): boolean =>
  data.length >= 2 && (data[0] & 0x0f) === 8 && ((data[0] << 8) | data[1]) % 31 === 0 && (data[1] & 0x20) === 0
