/**
 * Reading a response body: decoded while it streams (gzip, deflate, br) and capped on the decoded bytes, so a
 * small compressed bomb is stopped like an endless body; at the cap the body is destroyed, and with it the socket.
 * Past its first MiB a body reads at the transport's pace (`bodyPace`).
 */
import type { Dispatcher } from "undici"
import { setTimeout as sleep } from "node:timers/promises"
import * as zlib from "node:zlib"
import type * as BodyPace from "./bodyPace.js"
import * as TransportError from "./transportError.js"

/** What the transport asks for when it decodes bodies. */
export const acceptEncoding = "gzip, deflate, br"

/**
 * The decoders' output chunk: 64 KiB. Every chunk is a round trip to the thread pool plus a callback and a loop
 * turn on the calling thread, and at zlib's default 16 KiB decoding a 5 MiB body (a bomb at the cap) took 320 of
 * them: 38 ms of CPU for gzip, 45 ms for br, against 10 and 22 ms at 64 KiB (measured on node 20).
 */
const decodeChunkBytes = 64 * 1024

/** A streaming decoder for a single supported content coding; `undefined` leaves the body as it came. */
const makeDecoder = (coding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined => {
  // Lenient flushing: servers often end a gzip stream without a clean trailer; what was decoded still counts.
  const lenient = {
    flush: zlib.constants.Z_SYNC_FLUSH,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
    chunkSize: decodeChunkBytes
  }
  if (coding === "gzip" || coding === "x-gzip") return zlib.createGunzip(lenient)
  if (coding === "deflate") return zlib.createInflate(lenient)
  if (coding === "br") return zlib.createBrotliDecompress({ chunkSize: decodeChunkBytes })
  return undefined
}

/** How a body is read. */
export interface ReadOptions {
  readonly method: string
  readonly maxBodyBytes: number
  /** Decode the body's content coding (and drop `content-encoding` and `content-length` from `headers`). */
  readonly decompress: boolean
  readonly signal: AbortSignal
  /** The transport's pace for the bytes of big bodies (see `bodyPace`); none reads at full speed. */
  readonly pace?: BodyPace.BodyPace | undefined
}

/**
 * Reads the whole body of `response`, whose flattened `headers` are given (and edited when the body is decoded).
 * Rejects with `BodyTooLarge` over the cap (announced or streamed) and `BodyIncomplete` when the connection ends
 * before the announced length arrived.
 */
export const read = async (
  response: Dispatcher.ResponseData,
  headers: Record<string, string>,
  options: ReadOptions
): Promise<Uint8Array> => {
  const { maxBodyBytes } = options
  const announced = Number(headers["content-length"])
  if (Number.isFinite(announced) && announced > maxBodyBytes) {
    response.body.destroy()
    throw new TransportError.BodyTooLarge(maxBodyBytes, announced)
  }
  const status = response.statusCode
  const hasBody = options.method !== "HEAD" && status !== 204 && status !== 304
  const coding = options.decompress && hasBody ? (headers["content-encoding"] ?? "").trim().toLowerCase() : ""
  const decoder = makeDecoder(coding)
  const source: AsyncIterable<Uint8Array> = decoder === undefined ? response.body : response.body.pipe(decoder)
  if (decoder !== undefined) {
    // The decoded body replaces the encoded one, so its length and coding no longer apply.
    delete headers["content-encoding"]
    delete headers["content-length"]
    response.body.on("error", (error) => decoder.destroy(error))
  }
  const chunks: Array<Uint8Array> = []
  let total = 0
  // Bytes as they came on the wire, to tell a body cut short of its announced length.
  let received = 0
  if (decoder !== undefined) response.body.on("data", (chunk: Uint8Array) => void (received += chunk.length))
  try {
    for await (const chunk of source) {
      // The cap counts decoded bytes: a small compressed bomb is stopped like an endless body.
      total += chunk.byteLength
      if (decoder === undefined) received = total
      if (total > maxBodyBytes) throw new TransportError.BodyTooLarge(maxBodyBytes, undefined)
      chunks.push(chunk)
      // Past its first MiB a body waits for its turn at the transport's pace; the stream (and with it the decoder
      // and the socket) stays paused meanwhile, so waiting costs no CPU and holds no more than one chunk.
      const wait = options.pace?.delay(total, chunk.byteLength) ?? 0
      if (wait >= 1) await sleep(wait, undefined, { signal: options.signal })
    }
  } catch (error) {
    // Destroying an unfinished body makes undici destroy the socket: no more bytes are read.
    response.body.destroy()
    decoder?.destroy()
    // The connection ended (cleanly or by a reset: the client sees the same socket error) before the
    // announced length arrived: the stream is incomplete, which says more than "network".
    if (!options.signal.aborted && !(error instanceof TransportError.BodyTooLarge) && received < announced) {
      throw new TransportError.BodyIncomplete(received, announced)
    }
    throw error
  }
  return Buffer.concat(chunks, total)
}
