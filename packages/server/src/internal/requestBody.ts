/**
 * Reads a JSON request body under a byte cap. A declared `Content-Length` over the cap is refused before a byte is
 * read; a chunked body is counted as it streams and refused at the first chunk past the cap, so an oversized body
 * is never buffered. The errors are the caller-facing ones: `RequestFailed/too_large` (413) and
 * `RequestFailed/invalid_input` (400).
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as IncomingMessage from "@effect/platform/HttpIncomingMessage"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { Capability } from "@websearch/core/Capability"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Http from "node:http"

class TooLarge {
  readonly _tag = "TooLarge"
}

const tooLarge = (limit: number) =>
  Effect.zipRight(
    // The rest of the body is not read: close the connection after the answer instead of draining it.
    HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "connection", "close"))
    ),
    Effect.fail(
      WebSearchError.requestFailed(
        "too_large",
        `the request body is larger than ${limit} bytes, the most this server accepts`,
        { retryable: false }
      )
    )
  )

// Reused: a non-streaming decode keeps no state between calls.
const utf8 = new TextDecoder("utf-8", { fatal: true })

const jsonType = /^application\/([\w.+-]*\+)?json\s*(;|$)/i

/** Reads and parses the JSON body of a request, at most `limit` bytes. */
export const readJson: (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  capability: Capability | undefined
) => Effect.Effect<unknown, WebSearchError.RequestFailed> = Effect.fnUntraced(function* (request, limit, capability) {
  const invalid = (message: string) => WebSearchError.requestFailed("invalid_input", message, { capability })
  const contentType = request.headers["content-type"]
  if (contentType !== undefined && !jsonType.test(contentType.trim())) {
    return yield* Effect.fail(invalid("the request body must be JSON: send Content-Type: application/json"))
  }
  const declared = request.headers["content-length"]
  if (declared !== undefined && Number(declared) > limit) return yield* tooLarge(limit)
  const bytes =
    request.source instanceof Http.IncomingMessage
      ? yield* readNode(request.source, limit, invalid)
      : declared === undefined
        ? yield* readStream(request, limit, invalid)
        : yield* readDeclared(request, limit, invalid)
  if (bytes.length === 0) return yield* Effect.fail(invalid("the request body is empty: send a JSON object"))
  const text = yield* Effect.try({
    try: () => utf8.decode(bytes),
    catch: () => invalid("the request body is not valid UTF-8")
  })
  return yield* Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: (error) =>
      invalid(`the request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  })
})

type Invalid = (message: string) => WebSearchError.RequestFailed

const unreadable = (invalid: Invalid) =>
  invalid("the request body could not be read (the connection failed while sending it)")

// Elsewhere than on Node, a declared length at most the limit: one read, still capped by the platform in case the
// length lied.
const readDeclared = (request: HttpServerRequest.HttpServerRequest, limit: number, invalid: Invalid) =>
  request.arrayBuffer.pipe(
    IncomingMessage.withMaxBodySize(Option.some(limit)),
    Effect.map((buffer) => new Uint8Array(buffer)),
    Effect.mapError(() => unreadable(invalid))
  )

// On Node, with or without a declared length, the body is read from its IncomingMessage, counted chunk by chunk and
// cut off at the first chunk past the limit (so a length that lied is capped too), and only paused at the cap: the
// platform's `request.stream` destroys the socket when its consumer stops early, and then no 413 can be sent (the
// client saw a reset instead). No change of the fiber's context either, where the platform's capped `arrayBuffer`
// set its body-size limit around the read (a `FiberRef` change costs about as much as a span).
const readNode = (
  message: Http.IncomingMessage,
  limit: number,
  invalid: Invalid
): Effect.Effect<Uint8Array, WebSearchError.RequestFailed> =>
  Effect.catchAll(readIncoming(message, limit), (error) =>
    error instanceof TooLarge ? tooLarge(limit) : Effect.fail(unreadable(invalid))
  )

const readIncoming = (message: Http.IncomingMessage, limit: number): Effect.Effect<Uint8Array, TooLarge | Error> =>
  Effect.async<Uint8Array, TooLarge | Error>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const cleanup = () => {
      message.off("data", onData)
      message.off("end", onEnd)
      message.off("error", onError)
      message.off("aborted", onAborted)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      // The rest is left unread (the answer closes the connection); pausing stops buffering it.
      cleanup()
      message.pause()
      resume(Effect.fail(new TooLarge()))
    }
    const onEnd = () => {
      cleanup()
      resume(Effect.succeed(Buffer.concat(chunks, size)))
    }
    const onError = (error: Error) => {
      cleanup()
      resume(Effect.fail(error))
    }
    const onAborted = () => onError(new Error("the client aborted the request"))
    message.on("data", onData)
    message.on("end", onEnd)
    message.on("error", onError)
    message.on("aborted", onAborted)
    return Effect.sync(cleanup)
  })

const readStream = Effect.fnUntraced(function* (
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  invalid: Invalid
) {
  const chunks: Array<Uint8Array> = []
  let size = 0
  yield* request.stream.pipe(
    Stream.runForEachChunk((chunk) => {
      for (const bytes of chunk) {
        size += bytes.length
        chunks.push(bytes)
      }
      return size > limit ? Effect.fail(new TooLarge()) : Effect.void
    }),
    Effect.catchAll((error) => (error instanceof TooLarge ? tooLarge(limit) : Effect.fail(unreadable(invalid))))
  )
  return Buffer.concat(chunks, size)
})
