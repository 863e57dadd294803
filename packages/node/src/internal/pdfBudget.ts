/**
 * A bound on what a PDF's compressed streams decode to. The body cap counts bytes on the wire, and PDF.js
 * inflates a FlateDecode stream into one growing ArrayBuffer, which no worker heap limit bounds: a 2 MB PDF of a
 * 2 GiB stream of zeros took a fetch to 3.2 GB of memory. Before PDF.js sees a body, the decoded size of every
 * zlib stream in it is counted (`deflateSize`: no output is written, and the cost is linear in the compressed
 * bytes), and a PDF whose streams decode to more than the budget in total is refused.
 *
 * Counting used to inflate each stream with node:zlib and drop the output: 80 ms of CPU per 128 MiB counted, on
 * the libuv thread pool, which runs at the process's priority whichever worker asked, so a PDF bomb a second took
 * the cores from ordinary pages (in `bench/hostile`, PDF bombs alone made ordinary fetches' p99 1.9 times slower).
 * The count now runs on the extraction worker's own thread, at its lane's priority, in milliseconds.
 */
import * as DeflateSize from "./deflateSize.js"

/** The most a PDF's zlib streams may decode to, in total: 128 MiB. */
export const maxDecodedBytes = 128 * 1024 * 1024

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
      total += DeflateSize.zlibSize(bytes.subarray(start, end), budget - total)
      if (total > budget) return true
    }
    at = bytes.indexOf("stream", end === -1 ? at + 6 : end + 9)
  }
  return false
}
