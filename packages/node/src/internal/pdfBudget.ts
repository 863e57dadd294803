/**
 * A bound on what a PDF's compressed streams decode to. The body cap counts bytes on the wire, and PDF.js
 * inflates a FlateDecode stream into one growing ArrayBuffer, which no worker heap limit bounds: a 2 MB PDF of a
 * 2 GiB stream of zeros took a fetch to 3.2 GB of memory. Before PDF.js sees a body, every zlib stream in it is
 * inflated here with an output limit (`maxOutputLength`: memory stays within the budget), and a PDF whose streams
 * decode to more than the budget in total is refused.
 */
import * as zlib from "node:zlib"

/** The most a PDF's zlib streams may decode to, in total: 128 MiB. */
export const maxDecodedBytes = 128 * 1024 * 1024

// A zlib header (RFC 1950): deflate method, a window of at most 32 KiB, and a check that makes it a multiple of 31.
const zlibHeader = (data: Uint8Array): boolean =>
  data.length >= 2 && (data[0] & 0x0f) === 8 && data[0] >> 4 <= 7 && ((data[0] << 8) | data[1]) % 31 === 0

/** Whether the zlib streams of a PDF decode to more than `budget` bytes in total; linear in the body. */
export const exceeds = (body: Uint8Array, budget: number = maxDecodedBytes): boolean => {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  let total = 0
  let at = bytes.indexOf("stream")
  while (at !== -1) {
    let start = at + 6
    if (bytes[start] === 0x0d) start++
    if (bytes[start] === 0x0a) start++
    const end = start === at + 6 ? -1 : bytes.indexOf("endstream", start)
    if (start !== at + 6 && end === -1) return false
    if (end !== -1) {
      const data = bytes.subarray(start, end)
      if (zlibHeader(data)) {
        try {
          // What a truncated stream decodes to still counts, as PDF.js reads it too.
          total += zlib.inflateSync(data, {
            maxOutputLength: budget - total + 1,
            finishFlush: zlib.constants.Z_SYNC_FLUSH
          }).length
        } catch (error) {
          if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") return true
        }
        if (total > budget) return true
      }
    }
    at = bytes.indexOf("stream", end === -1 ? at + 6 : end + 9)
  }
  return false
}
