/**
 * Reading a provider's answer whole, up to a cap: an answer must never grow without bound in memory, and a read
 * cut short says how (cut before its announced length, cut mid-stream, or over the cap).
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as NetworkFailure from "@websearch/core/internal/networkFailure"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { type Call, errorContext } from "./providerCall.js"

/**
 * A provider's answer, read whole (up to the cap).
 */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

// The socket's error code (UND_ERR_SOCKET, ECONNRESET) says what happened to a body read: the HttpClient's reason
// for any failed read is "Decode", which reads like a parse error.
const socketFault = (error: HttpClientError.ResponseError): string => NetworkFailure.codeOf(error.cause) ?? error.reason

/**
 * The body's text, at most `cap` bytes: over the cap it fails with `RequestFailed/too_large` when `failOver`,
 * else it is cut at the cap (an error answer: its first bytes are enough to read the provider's message).
 */
export const readCapped = (
  c: Call,
  response: HttpClientResponse.HttpClientResponse,
  cap: number,
  failOver: boolean
): Effect.Effect<string, WebSearchError.WebSearchError> =>
  Effect.suspend(() => {
    // An answer that announces a length within the cap is read whole: undici fails a body that runs past its
    // Content-Length, so the cap still holds, and streaming it chunk by chunk costs more CPU than the rest of the
    // provider call (bench/fanout.ts). An answer of unknown or too large a length is counted as it streams in.
    const announced = Number(response.headers["content-length"])
    if (Number.isSafeInteger(announced) && announced >= 0 && announced <= cap) {
      // A read that fails before the announced length arrived is a stream cut short (a clean close and a reset
      // look the same to the client): `stream_incomplete` says so, where `network` would not.
      return Effect.mapError(response.text, (error) =>
        WebSearchError.requestFailed(
          "stream_incomplete",
          `${c.providerName}'s answer was cut off before its announced ${announced} bytes (${socketFault(error)})`,
          errorContext(c)
        )
      )
    }
    const chunks: Array<Uint8Array> = []
    let size = 0
    let over = false
    return response.stream.pipe(
      Stream.runForEachWhile((chunk) =>
        Effect.sync(() => {
          if (size + chunk.length > cap) {
            chunks.push(chunk.subarray(0, cap - size))
            size = cap
            over = true
            return false
          }
          chunks.push(chunk)
          size += chunk.length
          return true
        })
      ),
      Effect.mapError((error) =>
        WebSearchError.requestFailed(
          "network",
          `${c.providerName}'s answer was cut off after ${size} bytes (${socketFault(error)})`,
          errorContext(c)
        )
      ),
      Effect.flatMap(() => {
        if (over && failOver) {
          return Effect.fail(
            WebSearchError.requestFailed(
              "too_large",
              `${c.providerName}'s answer exceeded ${cap} bytes; it was not read further`,
              errorContext(c)
            )
          )
        }
        return Effect.succeed(concat(chunks, size))
      })
    )
  })

/** The text of the chunks read, `size` bytes in all. */
export const concat = (chunks: ReadonlyArray<Uint8Array>, size: number): string => {
  const all = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.length
  }
  return new TextDecoder().decode(all)
}
