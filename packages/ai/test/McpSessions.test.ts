/**
 * MCP sessions over streamable HTTP: each official client that initialises gets its own session (Mcp-Session-Id),
 * and with it its own source ids; a session that ended (deleted, or idle past the idle time) is 404, telling the
 * client to initialise again; a burst of sessions from one token ends only that token's own.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import type * as WebSearchMcp from "../src/WebSearchMcp.js"
import { serveHttp } from "./support/mcpServer.js"

const serveWith = (security: WebSearchMcp.HttpSecurity) => Effect.map(serveHttp(security), ({ url }) => url)

const serve = serveWith({})

const post = (url: string, message: unknown, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(message)
    })
  )

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
}

interface Called {
  readonly isError?: boolean
  readonly structuredContent?: Record<string, unknown>
}

const connect = (url: string) =>
  Effect.gen(function* () {
    const transport = new StreamableHTTPClientTransport(new URL(url))
    const client = new Client({ name: "test", version: "1.0.0" })
    yield* Effect.promise(() => client.connect(transport))
    yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
    const call = (name: string, args: Record<string, unknown>) =>
      Effect.promise(() => client.callTool({ name, arguments: args }) as Promise<Called>)
    return { client, transport, call }
  })

const sources = (called: Called) =>
  (called.structuredContent!.sources as Array<{ id: string; url: string }>).map((s) => [s.id, s.url])

describe("MCP sessions over HTTP", () => {
  it.scoped("two clients of one server get independent source ids", () =>
    Effect.gen(function* () {
      const url = yield* serve
      const a = yield* connect(url)
      const b = yield* connect(url)
      expect(a.transport.sessionId).toBeDefined()
      expect(b.transport.sessionId).toBeDefined()
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId)
      const alpha = sources(yield* a.call("web_search", { keywords: ["alpha"] }))
      const beta = sources(yield* b.call("web_search", { keywords: ["beta"] }))
      // Both start at w1: neither session sees the other's sources.
      expect(alpha.map(([id]) => id)).toEqual(["w1", "w2"])
      expect(beta.map(([id]) => id)).toEqual(["w1", "w2"])
      // The same id reads each client's own page.
      const readA = (yield* a.call("web_fetch", { items: [{ url: "w1" }] })).structuredContent!
      const readB = (yield* b.call("web_fetch", { items: [{ url: "w1" }] })).structuredContent!
      expect((readA.items as Array<{ url: string }>)[0].url).toBe(alpha[0][1])
      expect((readB.items as Array<{ url: string }>)[0].url).toBe(beta[0][1])
      // Ids go on within a session: a's next search continues from w3.
      expect(sources(yield* a.call("web_search", { keywords: ["gamma"] })).map(([id]) => id)).toEqual(["w3", "w4"])
    })
  )

  it.scoped("DELETE ends a session; a request in it is then 404", () =>
    Effect.gen(function* () {
      const url = yield* serve
      const { transport } = yield* connect(url)
      const session = transport.sessionId!
      const post = () =>
        fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": session
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })
        })
      expect((yield* Effect.promise(post)).status).toBe(200)
      const ended = yield* Effect.promise(() =>
        fetch(url, { method: "DELETE", headers: { "mcp-session-id": session } })
      )
      expect(ended.status).toBe(204)
      expect((yield* Effect.promise(post)).status).toBe(404)
      const again = yield* Effect.promise(() =>
        fetch(url, { method: "DELETE", headers: { "mcp-session-id": session } })
      )
      expect(again.status).toBe(404)
    })
  )

  it.scoped("a session unused for the idle time ends: its next request is 404; one in use stays", () =>
    Effect.gen(function* () {
      const url = yield* serveWith({ sessions: { idleTimeout: "10 minutes" } })
      const idle = (yield* connect(url)).transport.sessionId!
      const used = yield* connect(url)
      const ping = (session: string) =>
        Effect.map(post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": session }), (r) => r.status)
      yield* TestClock.adjust("9 minutes")
      expect(yield* ping(used.transport.sessionId!)).toBe(200)
      yield* TestClock.adjust("2 minutes")
      // The sweep runs on the server's clock, with no request needed to notice the idle session.
      expect(yield* ping(idle)).toBe(404)
      expect(yield* ping(used.transport.sessionId!)).toBe(200)
    })
  )

  it.scoped("257 initialize calls from one token end none of another token's sessions, only its own oldest", () =>
    Effect.gen(function* () {
      const tokens = ["first-token-0123456789", "flood-token-0123456789"]
      const url = yield* serveWith({ tokens })
      const open = (token: string) =>
        Effect.map(post(url, initialize, { authorization: `Bearer ${token}` }), (r) => r.headers.get("mcp-session-id")!)
      const ping = (token: string, session: string) =>
        Effect.map(
          post(
            url,
            { jsonrpc: "2.0", id: 2, method: "ping" },
            { authorization: `Bearer ${token}`, "mcp-session-id": session }
          ),
          (r) => r.status
        )
      const mine = yield* open(tokens[0])
      const flood: Array<string> = []
      for (let i = 0; i < 257; i++) flood.push(yield* open(tokens[1]))
      expect(yield* ping(tokens[0], mine)).toBe(200)
      // The flooding token keeps its 16 newest sessions; its older ones ended.
      expect(yield* ping(tokens[1], flood[0])).toBe(404)
      expect(yield* ping(tokens[1], flood[256])).toBe(200)
      expect(yield* ping(tokens[1], flood[241])).toBe(200)
      expect(yield* ping(tokens[1], flood[240])).toBe(404)
    })
  )
})
