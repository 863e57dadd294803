/**
 * The MCP stdio transport as an `@effect/rpc` server protocol: newline-delimited JSON-RPC, each line read and
 * answered on its own by the codec, so one malformed line costs one error reply and never the connection. A line
 * longer than the cap is skipped as it streams (its bytes are not kept) and answered with a parse error.
 */
import * as RpcServer from "@effect/rpc/RpcServer"
import * as Effect from "effect/Effect"
import * as Mailbox from "effect/Mailbox"
import type * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import * as JsonRpcCodec from "./jsonRpcCodec.js"

/** The longest line read, in UTF-16 code units (MCP requests are a few KiB). */
export const defaultMaxLineLength = 1024 * 1024

/** Splits text chunks into lines; a line over `max` is dropped as it arrives and reported as `undefined`. */
export const lineSplitter = (max: number) => {
  let buffer = ""
  let skipping = false
  return (chunk: string): Array<string | undefined> => {
    const lines: Array<string | undefined> = []
    let start = 0
    let end = chunk.indexOf("\n")
    while (end !== -1) {
      if (skipping) {
        skipping = false
        lines.push(undefined)
      } else {
        const line = buffer + chunk.slice(start, end)
        lines.push(line.length > max ? undefined : line)
      }
      buffer = ""
      start = end + 1
      end = chunk.indexOf("\n", start)
    }
    if (!skipping) {
      buffer += chunk.slice(start)
      if (buffer.length > max) {
        buffer = ""
        skipping = true
      }
    }
    return lines
  }
}

/** The protocol over `stdin` and `stdout`; it stops reading when `stdin` ends. */
export const make = <EIn, RIn, EOut, ROut>(options: {
  readonly stdin: Stream.Stream<Uint8Array, EIn, RIn>
  readonly stdout: Sink.Sink<unknown, Uint8Array | string, unknown, EOut, ROut>
  readonly maxLineLength?: number | undefined
}) =>
  RpcServer.Protocol.make(
    Effect.fnUntraced(function* (writeRequest) {
      const codec = JsonRpcCodec.make()
      const out = yield* Mailbox.make<string>()
      const write = (message: JsonRpcCodec.Outgoing) => out.offer(`${JsonRpcCodec.stringify(message)}\n`)
      const split = lineSplitter(options.maxLineLength ?? defaultMaxLineLength)

      const handle = (line: string | undefined): Effect.Effect<void> => {
        if (line === undefined) return write(JsonRpcCodec.parseError())
        // CRLF framing is tolerated; blank lines are keep-alives.
        const text = line.endsWith("\r") ? line.slice(0, -1) : line
        if (text.trim() === "") return Effect.void
        const decoded = codec.decodeText(text)
        return Effect.zipRight(
          Effect.forEach(decoded.replies, write, { discard: true }),
          Effect.forEach(decoded.messages, (message) => writeRequest(0, message), { discard: true })
        )
      }

      yield* options.stdin.pipe(
        Stream.decodeText(),
        Stream.runForEach((chunk) => Effect.forEach(split(chunk), handle, { discard: true })),
        Effect.catchAllCause(() => Effect.void),
        Effect.forkScoped,
        Effect.interruptible
      )
      yield* Mailbox.toStream(out).pipe(Stream.run(options.stdout), Effect.forkScoped, Effect.interruptible)

      return {
        disconnects: yield* Mailbox.make<number>(),
        send: (_clientId, response) => {
          const encoded = codec.encode(response)
          return encoded === undefined ? Effect.void : write(encoded)
        },
        end: () => out.end,
        clientIds: Effect.succeed(new Set([0])),
        initialMessage: Effect.succeedNone,
        supportsAck: false,
        supportsTransferables: false,
        supportsSpanPropagation: false
      }
    })
  )
