/**
 * Gzip bodies that came as files (a sitemap's `.xml.gz`, sent as `application/gzip` and not as a
 * Content-Encoding the transport decodes): recognised by their magic bytes and decompressed up to a cap, so a
 * small bomb never becomes more than the cap in memory. What fits under the cap is kept (`truncated` says there
 * was more); a stream that is not gzip is `ResponseInvalid/decode_failed`.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Zlib from "node:zlib"
import * as TransportError from "./transportError.js"

/** Whether a body starts with gzip's magic bytes. */
export const isGzip = (body: Uint8Array): boolean => body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b

/** A body decompressed up to a cap. */
export interface Gunzipped {
  readonly bytes: Uint8Array
  /** The stream had more than the cap: `bytes` is its first `cap` bytes. */
  readonly truncated: boolean
}

/** Decompresses `body` (gzip) keeping at most `cap` bytes; the inflater stops at the cap. */
export const gunzip = (
  body: Uint8Array,
  cap: number,
  url: string
): Effect.Effect<Gunzipped, WebSearchError.ResponseInvalid> =>
  Effect.async<Gunzipped, WebSearchError.ResponseInvalid>((resume) => {
    const inflater = Zlib.createGunzip()
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (truncated: boolean) => {
      if (done) return
      done = true
      inflater.destroy()
      resume(Effect.succeed({ bytes: Buffer.concat(chunks, size), truncated }))
    }
    inflater.on("data", (chunk: Buffer) => {
      if (done) return
      if (size + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - size))
        size = cap
        finish(true)
        return
      }
      chunks.push(chunk)
      size += chunk.length
    })
    inflater.on("end", () => finish(false))
    inflater.on("error", (error) => {
      if (done) return
      done = true
      inflater.destroy()
      resume(
        Effect.fail(
          WebSearchError.responseInvalid(
            "decode_failed",
            `a file of ${TransportError.describe(url)} is not a readable gzip stream (${error.message})`
          )
        )
      )
    })
    inflater.end(body)
    return Effect.sync(() => {
      done = true
      inflater.destroy()
    })
  })
