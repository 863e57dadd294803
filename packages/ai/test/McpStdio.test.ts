/**
 * The MCP server over stdio against malformed input, as raw JSON-RPC lines: every bad line gets its JSON-RPC
 * error, the server keeps serving, and the official client works on the same pipe afterwards.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { PassThrough } from "node:stream"
import * as WebSearchMcp from "../src/WebSearchMcp.js"
import { drivers, live } from "./support/fixtures.js"
import { PipeTransport } from "./support/pipeTransport.js"

interface Reply {
  readonly jsonrpc: string
  readonly id: unknown
  readonly result?: Record<string, unknown>
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown }
}

/** A server on a pipe; `send` writes raw text, `next` waits for the next line the server writes. */
const serve = (options: { readonly maxLineLength?: number } = {}) =>
  Effect.gen(function* () {
    const toServer = new PassThrough()
    const fromServer = new PassThrough()
    const raw: Array<string> = []
    const lines: Array<string> = []
    const waiting: Array<(line: string) => void> = []
    let buffer = ""
    fromServer.on("data", (chunk: Buffer) => {
      raw.push(chunk.toString())
      buffer += chunk.toString()
      let end = buffer.indexOf("\n")
      while (end >= 0) {
        const line = buffer.slice(0, end)
        buffer = buffer.slice(end + 1)
        const waiter = waiting.shift()
        if (waiter === undefined) lines.push(line)
        else waiter(line)
        end = buffer.indexOf("\n")
      }
    })
    const server = WebSearchMcp.layerStdio({
      name: "websearch-test",
      stdin: Stream.fromAsyncIterable(toServer as AsyncIterable<Uint8Array>, (error) => error).pipe(Stream.orDie),
      stdout: Sink.forEach((chunk: Uint8Array | string) => Effect.sync(() => fromServer.write(chunk))),
      ...options
    })
    yield* Layer.launch(server).pipe(Effect.provide(live(drivers().drivers)), Effect.forkScoped)
    // Closing stdin ends the server, as a client does (a pending read of the pipe does not interrupt).
    yield* Effect.addFinalizer(() => Effect.sync(() => toServer.end()))
    const send = (text: string) => Effect.sync(() => toServer.write(text))
    const next = Effect.async<Reply>((resume) => {
      const line = lines.shift()
      if (line !== undefined) resume(Effect.succeed(JSON.parse(line) as Reply))
      else waiting.push((l) => resume(Effect.succeed(JSON.parse(l) as Reply)))
    })
    return { send, next, raw, toServer, fromServer }
  })

const ping = (id: unknown) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`

describe("WebSearchMcp over stdio, malformed input", () => {
  it.scoped("a line that is not JSON gets -32700; a valid message in the same read is still answered", () =>
    Effect.gen(function* () {
      const { next, send } = yield* serve()
      yield* send(`{not json\n${ping(1)}`)
      expect(yield* next).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
      expect(yield* next).toEqual({ jsonrpc: "2.0", id: 1, result: {} })
    })
  )

  it.scoped("ids that are null, out of range or not scalars are -32600 with id null; the server keeps serving", () =>
    Effect.gen(function* () {
      const { next, send } = yield* serve()
      for (const id of ["null", "1e400", "12345678901234567890", "1.5", '{"a":1}', "[1]", "true"]) {
        yield* send(`{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`)
        const reply = yield* next
        expect(reply).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } })
      }
      for (const bad of ["42", '"ping"', "null", "[]", "{}", '{"jsonrpc":"1.0","id":3,"method":"ping"}']) {
        yield* send(`${bad}\n`)
        expect((yield* next).error?.code).toBe(-32600)
      }
      // String ids and ids beyond 2^31 are valid, and come back as sent.
      yield* send(ping("req-a"))
      expect(yield* next).toEqual({ jsonrpc: "2.0", id: "req-a", result: {} })
      yield* send(ping(9007199254740991))
      expect(yield* next).toEqual({ jsonrpc: "2.0", id: 9007199254740991, result: {} })
    })
  )

  it.scoped("an unknown method is -32601 with the caller's id; tools/call without params is -32602", () =>
    Effect.gen(function* () {
      const { next, send } = yield* serve()
      yield* send(`{"jsonrpc":"2.0","id":7,"method":"no/such/method"}\n`)
      expect(yield* next).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } })
      yield* send(`{"jsonrpc":"2.0","id":"x","method":"@effect/rpc/Eof"}\n`)
      expect(yield* next).toMatchObject({ id: "x", error: { code: -32601 } })
      yield* send(`{"jsonrpc":"2.0","id":8,"method":"tools/call"}\n`)
      expect(yield* next).toMatchObject({ jsonrpc: "2.0", id: 8, error: { code: -32602 } })
      yield* send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"web_search","arguments":7}}\n`)
      expect(yield* next).toMatchObject({ id: 9, error: { code: -32602 } })
      // An unknown notification is dropped without an answer; the next request is answered.
      yield* send(`{"jsonrpc":"2.0","method":"notifications/nothing"}\n${ping(10)}`)
      expect(yield* next).toEqual({ jsonrpc: "2.0", id: 10, result: {} })
    })
  )

  it.scoped("a line over the cap is skipped as it streams and answered with -32700; the next line is served", () =>
    Effect.gen(function* () {
      const { next, send } = yield* serve({ maxLineLength: 4096 })
      yield* send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":"`)
      for (let i = 0; i < 10; i++) yield* send("y".repeat(1000))
      yield* send(`"}}}\n${ping(2)}`)
      expect((yield* next).error?.code).toBe(-32700)
      expect(yield* next).toEqual({ jsonrpc: "2.0", id: 2, result: {} })
    })
  )

  it.scoped("whatever a line holds, the server answers it (or drops a notification) and then the next ping", () =>
    Effect.gen(function* () {
      const { next, raw, send } = yield* serve()
      const scalar = FastCheck.oneof(
        FastCheck.constant(null),
        FastCheck.integer(),
        FastCheck.double(),
        FastCheck.string({ maxLength: 5 }),
        FastCheck.boolean(),
        FastCheck.constant({}),
        FastCheck.constant([])
      )
      const message = FastCheck.record(
        {
          jsonrpc: FastCheck.oneof(FastCheck.constant("2.0"), scalar),
          id: scalar,
          method: FastCheck.oneof(
            FastCheck.constantFrom("ping", "tools/call", "tools/list", "initialize", "notifications/cancelled"),
            FastCheck.constantFrom("@effect/rpc/Eof", "@effect/rpc/Interrupt", "__proto__", "constructor"),
            scalar
          ),
          params: FastCheck.oneof(scalar, FastCheck.object({ maxDepth: 2 })),
          result: scalar,
          error: scalar
        },
        { requiredKeys: [] }
      )
      const line = FastCheck.oneof(
        message.map((m) => JSON.stringify(m)),
        FastCheck.json({ maxDepth: 3 }),
        FastCheck.string({ maxLength: 40 }).map((t) => t.replace(/[\n\r]/g, " "))
      )
      const lines = FastCheck.sample(line, { numRuns: 150, seed: 16 })
      for (const [i, text] of lines.entries()) {
        yield* send(`${text}\n${ping(`probe-${i}`)}`)
        let reply = yield* next
        while (reply.id !== `probe-${i}`) {
          expect(reply.jsonrpc).toBe("2.0")
          reply = yield* next
        }
        expect(reply).toEqual({ jsonrpc: "2.0", id: `probe-${i}`, result: {} })
      }
      expect(raw.join("")).not.toContain("Cause")
    })
  )

  it.scoped("after a burst of garbage the official client connects and calls a tool; nothing leaks a Cause", () =>
    Effect.gen(function* () {
      const { fromServer, next, raw, send, toServer } = yield* serve()
      const garbage = ["{not json", "null", '{"jsonrpc":"2.0","id":null,"method":"initialize"}', "\u0000\u00ff", "[{}]"]
      yield* send(`${garbage.join("\n")}\n`)
      for (let i = 0; i < garbage.length; i++) expect((yield* next).error?.code).toBeLessThan(-32000)
      const client = new Client({ name: "test", version: "1.0.0" })
      yield* Effect.promise(() => client.connect(new PipeTransport(toServer, fromServer)))
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_research"])
      const found = (yield* Effect.promise(() =>
        client.callTool({ name: "web_search", arguments: { keywords: ["mcp"] } })
      )) as { readonly isError?: boolean }
      expect(found.isError).toBe(false)
      const all = raw.join("")
      expect(all).not.toContain("Cause")
      expect(all).not.toContain("-32603")
    })
  )
})
