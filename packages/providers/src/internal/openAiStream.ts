/**
 * Reading an OpenAI research stream: its server-sent events fed to the run's accumulator as they arrive, within a
 * cap on the bytes read and on the size of one event, stopped (closing the connection) at the run's end. A stream
 * that ends before its completion event is cut short: `RequestFailed/stream_incomplete`.
 */
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { ResearchRequest } from "@websearch/core/WebSearchRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Stream from "effect/Stream"
import { concat } from "./cappedRead.js"
import * as Sse from "./eventStream.js"
import { ctxOf } from "./openAiErrors.js"
import * as Responses from "./openAiResponses.js"

/**
 * Limits of one streamed run: the largest single SSE event and the most bytes read from one response.
 */
export const limits = { maxEventChars: 8 * 1024 * 1024, maxStreamBytes: 64 * 1024 * 1024, maxErrorBodyBytes: 64 * 1024 }

/** The first `maxErrorBodyBytes` of an error answer, or nothing when it cannot be read. */
export const readErrorBody = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<string> =>
  response.stream.pipe(
    Stream.runFoldWhile(
      { chunks: [] as Array<Uint8Array>, size: 0 },
      (acc) => acc.size < limits.maxErrorBodyBytes,
      (acc, bytes) => {
        const kept = bytes.subarray(0, limits.maxErrorBodyBytes - acc.size)
        acc.chunks.push(kept)
        return { chunks: acc.chunks, size: acc.size + kept.length }
      }
    ),
    Effect.map(({ chunks, size }) => concat(chunks, size)),
    Effect.orElseSucceed(() => "")
  )

/** Reads the run off the stream. */
export const readRun = (
  request: ResearchRequest,
  response: HttpClientResponse.HttpClientResponse
): Effect.Effect<Responses.Run, WebSearchError.WebSearchError> =>
  Effect.suspend(() => {
    const decoder = Sse.make({ maxEventChars: limits.maxEventChars })
    const accumulator = Responses.make()
    let bytes = 0
    let events = 0
    let failure: WebSearchError.WebSearchError | undefined = undefined
    const step = (chunk: Uint8Array): boolean => {
      bytes += chunk.length
      if (bytes > limits.maxStreamBytes) {
        failure = WebSearchError.requestFailed(
          "too_large",
          `the OpenAI stream exceeded ${limits.maxStreamBytes} bytes; it was closed`,
          ctxOf(request)
        )
        return false
      }
      const decoded = decoder.feed(chunk)
      if (decoded._tag === "TooLarge") {
        failure = WebSearchError.requestFailed(
          "too_large",
          `an OpenAI stream event exceeded ${decoded.limit} characters; the stream was closed`,
          ctxOf(request)
        )
        return false
      }
      for (const event of decoded.events) {
        events++
        const applied = accumulator.apply(event)
        if (Either.isLeft(applied)) {
          failure = WebSearchError.responseInvalid(
            "decode_failed",
            `OpenAI sent an undecodable stream: ${applied.left.message}`,
            ctxOf(request)
          )
          return false
        }
        // The run is over: stop reading, which closes the connection.
        if (applied.right !== undefined) return false
      }
      return true
    }
    return response.stream.pipe(
      Stream.runForEachWhile((chunk) => Effect.sync(() => step(chunk))),
      Effect.catchAll((error) =>
        // A read error mid-stream is a cut stream: the completion event never arrived.
        Effect.logDebug(`websearch openai stream read failed: ${error.reason}`).pipe(Effect.asVoid)
      ),
      Effect.flatMap(() => {
        if (failure !== undefined) return Effect.fail(failure)
        const run = accumulator.result()
        if (run.ending === undefined) {
          return Effect.fail(
            WebSearchError.requestFailed(
              "stream_incomplete",
              `the OpenAI stream ended after ${events} event${events === 1 ? "" : "s"} without its completion event`,
              ctxOf(request)
            )
          )
        }
        return Effect.succeed(run)
      })
    )
  })
