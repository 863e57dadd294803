/**
 * A bound on what a PDF's compressed streams decode to. The body cap counts bytes on the wire, and PDF.js
 * inflates a FlateDecode stream into one growing ArrayBuffer, which no worker heap limit bounds: a 2 MB PDF of a
 * 2 GiB stream of zeros took a fetch to 3.2 GB of memory. Before PDF.js sees a body, every zlib stream in it is
 * inflated here and only counted (the output is dropped chunk by chunk, so memory stays at zlib's chunk size;
 * inflating into one buffer capped at the budget held 128 MiB per check), and a PDF whose streams decode to more
 * than the budget in total is refused.
 */
import * as zlib from "node:zlib"

/** The most a PDF's zlib streams may decode to, in total: 128 MiB. */
export const maxDecodedBytes = 128 * 1024 * 1024

// A zlib header (RFC 1950): deflate method, a window of at most 32 KiB, and a check that makes it a multiple of 31.
const zlibHeader = (data: Uint8Array): boolean =>
  data.length >= 2 && (data[0] & 0x0f) === 8 && data[0] >> 4 <= 7 && ((data[0] << 8) | data[1]) % 31 === 0

// zlib's output chunk while counting: 256 KiB. Each chunk is a round trip to the thread pool and a callback: at
// zlib's default 16 KiB, counting a stream to the 128 MiB budget took 8192 of them, 390 ms of CPU and over a second
// of a busy machine's time holding the extraction worker; at 256 KiB, 512 of them and 80 ms (measured on node 20).
const countChunkBytes = 256 * 1024

// What one zlib stream decodes to, counted as it streams out of zlib (on the thread pool, so the calling thread is
// never held) and dropped at once: memory stays at zlib's chunk size whatever the stream inflates to. Stops as
// soon as the count passes `limit`. A truncated or corrupt stream counts what it decoded before its error, as
// PDF.js reads that much too.
const decodedSize = (data: Uint8Array, limit: number): Promise<number> =>
  new Promise((resolve) => {
    const inflate = zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: countChunkBytes })
    let size = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      inflate.removeAllListeners("data")
      inflate.destroy()
      resolve(size)
    }
    inflate.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) finish()
    })
    inflate.on("end", finish)
    inflate.on("error", finish)
    inflate.on("close", finish)
    inflate.end(data)
  })

/** Whether the zlib streams of a PDF decode to more than `budget` bytes in total; linear in the body. */
export const exceeds = async (body: Uint8Array, budget: number = maxDecodedBytes): Promise<boolean> => {
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
        total += await decodedSize(data, budget - total)
        if (total > budget) return true
      }
    }
    at = bytes.indexOf("stream", end === -1 ? at + 6 : end + 9)
  }
  return false
}
