/**
 * The body of an MCP HTTP request, capped: a declared length over the cap fails before reading; otherwise bytes are
 * counted as they stream and the read fails the moment the count passes the cap, whatever the transfer encoding.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Stream from "effect/Stream"

/** The body is over the cap. */
export class TooLarge {
  readonly _tag = "TooLarge"
}

/** The body could not be read. */
export class Broken {
  readonly _tag = "Broken"
}

// Past the cap the rest of a body is read and dropped in the background, up to this many bytes more, so the 413
// (sent at once) reaches a client that is still sending; a body longer than that has its connection closed.
const drainLimit = 16 * 1024 * 1024

const concat = (chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.length
  }
  return body
}

/** The body, at most `max` bytes. */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  max: number
): Effect.Effect<Uint8Array, TooLarge | Broken> => {
  const declared = request.headers["content-length"]
  if (declared !== undefined && Number(declared) > max) return Effect.fail(new TooLarge())
  return Effect.gen(function* () {
    const result = yield* Deferred.make<Uint8Array, TooLarge | Broken>()
    const chunks: Array<Uint8Array> = []
    let size = 0
    let over = false
    yield* request.stream.pipe(
      Stream.runForEachWhile((chunk) =>
        Effect.sync(() => {
          size += chunk.length
          if (size <= max) {
            chunks.push(chunk)
            return true
          }
          if (!over) {
            over = true
            chunks.length = 0
            Deferred.unsafeDone(result, Exit.fail(new TooLarge()))
          }
          return size <= max + drainLimit
        })
      ),
      Effect.exit,
      Effect.flatMap((exit) =>
        over
          ? Effect.void
          : Deferred.done(result, Exit.isSuccess(exit) ? Exit.succeed(concat(chunks, size)) : Exit.fail(new Broken()))
      ),
      Effect.forkDaemon
    )
    return yield* Deferred.await(result)
  })
}

/** Whether a Content-Type is JSON's. */
export const isJson = (contentType: string | undefined): boolean =>
  contentType !== undefined && contentType.split(";")[0].trim().toLowerCase() === "application/json"
