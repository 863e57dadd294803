/**
 * MCP sessions over streamable HTTP: each official client that initialises gets its own session (Mcp-Session-Id),
 * and with it its own source ids; a session that ended is 404, telling the client to initialise again.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import * as WebSearchMcp from "../src/WebSearchMcp.js"
import { drivers, live } from "./support/fixtures.js"

const serve = Effect.gen(function* () {
  const layer = Layer.mergeAll(
    WebSearchMcp.layerHttp({ name: "websearch-test", path: "/mcp" }),
    HttpRouter.Default.serve()
  ).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(live(drivers().drivers))
  )
  const address = Context.get(yield* Layer.build(layer), HttpServer.HttpServer).address
  return `http://127.0.0.1:${address._tag === "TcpAddress" ? address.port : 0}/mcp`
})

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
})
