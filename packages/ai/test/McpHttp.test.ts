/**
 * The MCP server over streamable HTTP on 127.0.0.1, attacked with raw requests: DNS rebinding (Host, Origin),
 * simple-request content types, oversized bodies (declared and chunked), missing or wrong tokens, and bodies
 * that are not JSON-RPC. The official client is served when it follows the rules.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as Effect from "effect/Effect"
import { request } from "node:http"
import * as WebSearchMcp from "../src/WebSearchMcp.js"
import { serveHttp } from "./support/mcpServer.js"

const token = "a-long-test-token-0123456789"

/** Serves the endpoint on a free loopback port for the test's scope; returns its port. */
const serve = (security: WebSearchMcp.HttpSecurity = {}) => Effect.map(serveHttp(security), ({ port }) => port)

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/** One raw HTTP request; `chunks` are written one by one (chunked transfer encoding unless a length is set). */
const raw = (
  port: number,
  options: {
    readonly method?: string
    readonly headers?: Record<string, string>
    readonly body?: string
    readonly chunks?: number
    readonly chunk?: string
  }
) =>
  Effect.async<Answer>((resume) => {
    const req = request(
      { host: "127.0.0.1", port, path: "/mcp", method: options.method ?? "POST", headers: options.headers },
      (res) => {
        let body = ""
        res.setEncoding("utf8").on("data", (c: string) => (body += c))
        res.on("end", () => resume(Effect.succeed({ status: res.statusCode ?? 0, headers: res.headers, body })))
      }
    )
    req.on("error", (error) =>
      resume(Effect.succeed({ status: -1, headers: {}, body: `${(error as NodeJS.ErrnoException).code}` }))
    )
    if (options.chunks !== undefined) {
      let sent = 0
      const pump = () => {
        while (sent < options.chunks!) {
          sent++
          if (!req.write(options.chunk ?? "")) return void req.once("drain", pump)
        }
        req.end()
      }
      pump()
    } else req.end(options.body)
  })

const json = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
})

describe("WebSearchMcp over HTTP, hostile requests", () => {
  it.scoped("DNS rebinding: a foreign Origin or Host is 403; loopback ones and no Origin are served", () =>
    Effect.gen(function* () {
      const port = yield* serve()
      const evil = yield* raw(port, { headers: { ...json, origin: "http://evil.example" }, body: initialize })
      expect(evil.status).toBe(403)
      expect(JSON.parse(evil.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } })
      expect(evil.body).not.toContain("evil")
      const nullOrigin = yield* raw(port, { headers: { ...json, origin: "null" }, body: initialize })
      expect(nullOrigin.status).toBe(403)
      const rebound = yield* raw(port, { headers: { ...json, host: `evil.example:${port}` }, body: initialize })
      expect(rebound.status).toBe(403)
      for (const origin of [undefined, `http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
        const ok = yield* raw(port, { headers: { ...json, ...(origin ? { origin } : {}) }, body: initialize })
        expect(ok.status).toBe(200)
        expect(JSON.parse(ok.body)).toMatchObject({ id: 1, result: { serverInfo: { name: "websearch-test" } } })
      }
      const localhost = yield* raw(port, { headers: { ...json, host: `localhost:${port}` }, body: initialize })
      expect(localhost.status).toBe(200)
    })
  )

  it.scoped("a configured origin and host are allowed", () =>
    Effect.gen(function* () {
      const port = yield* serve({ allowedOrigins: ["https://app.example"], allowedHosts: ["mcp.example"] })
      const fromApp = yield* raw(port, { headers: { ...json, origin: "https://app.example" }, body: initialize })
      expect(fromApp.status).toBe(200)
      const named = yield* raw(port, { headers: { ...json, host: `mcp.example:${port}` }, body: initialize })
      expect(named.status).toBe(200)
      const other = yield* raw(port, { headers: { ...json, origin: "https://app.example.evil" }, body: initialize })
      expect(other.status).toBe(403)
    })
  )

  it.scoped("only application/json bodies: text/plain and form bodies are 415; GET and DELETE are 405", () =>
    Effect.gen(function* () {
      const port = yield* serve()
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
        const answer = yield* raw(port, { headers: { "content-type": type }, body: initialize })
        expect(answer.status).toBe(415)
      }
      expect((yield* raw(port, { headers: {}, body: initialize })).status).toBe(415)
      expect(
        (yield* raw(port, { headers: { "content-type": "application/json; charset=utf-8" }, body: initialize })).status
      ).toBe(200)
      expect((yield* raw(port, { method: "GET", headers: { accept: "text/event-stream" } })).status).toBe(405)
      expect((yield* raw(port, { method: "DELETE" })).status).toBe(405)
    })
  )

  it.scoped("a body over the cap is 413, declared or chunked, and the answer never echoes it", () =>
    Effect.gen(function* () {
      const port = yield* serve({ maxBodyBytes: 4096 })
      const declared = yield* raw(port, {
        headers: { ...json, "content-length": String(10 * 1024 * 1024) },
        chunks: 1,
        chunk: "x".repeat(1024)
      })
      expect(declared.status).toBe(413)
      const chunked = yield* raw(port, { headers: json, chunks: 2000, chunk: "z".repeat(1024) })
      expect(chunked.status).toBe(413)
      expect(JSON.parse(chunked.body)).toMatchObject({ id: null, error: { code: -32000 } })
      expect(chunked.body).not.toContain("zzz")
      // The server still answers afterwards.
      expect((yield* raw(port, { headers: json, body: initialize })).status).toBe(200)
    })
  )

  it.scoped("bodies that are not JSON-RPC get JSON-RPC errors, not an empty 500; nothing echoes the input", () =>
    Effect.gen(function* () {
      const port = yield* serve()
      const post = (body: string) => raw(port, { headers: json, body })
      for (const [body, code] of [
        ["42", -32600],
        ["{}", -32600],
        ["[]", -32600],
        ["{not json", -32700],
        ['{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600]
      ] as const) {
        const answer = yield* post(body)
        expect(answer.status).toBe(400)
        expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code } })
      }
      const unknown = yield* post('{"jsonrpc":"2.0","id":"u1","method":"no/such"}')
      expect(JSON.parse(unknown.body)).toEqual({
        jsonrpc: "2.0",
        id: "u1",
        error: { code: -32601, message: "Method not found" }
      })
      const noParams = yield* post('{"jsonrpc":"2.0","id":5,"method":"tools/call"}')
      expect(JSON.parse(noParams.body)).toMatchObject({ id: 5, error: { code: -32602 } })
      // A huge bad argument is named, not echoed.
      const bad = "B".repeat(200_000)
      const invalid = yield* post(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 6,
          method: "tools/call",
          params: { name: "web_search", arguments: { keywords: bad } }
        })
      )
      expect(invalid.status).toBe(200)
      expect(JSON.parse(invalid.body)).toMatchObject({ id: 6, result: { isError: true } })
      expect(invalid.body).not.toContain("BBBBBBBB")
      expect(invalid.body.length).toBeLessThan(4096)
      // A notification is accepted without a body.
      expect((yield* post('{"jsonrpc":"2.0","method":"notifications/initialized"}')).status).toBe(202)
    })
  )

  it.scoped("with tokens, a request without the right bearer token is 401; the official client with it is served", () =>
    Effect.gen(function* () {
      const port = yield* serve({ tokens: [token] })
      const none = yield* raw(port, { headers: json, body: initialize })
      expect(none.status).toBe(401)
      expect(none.headers["www-authenticate"]).toContain("Bearer")
      const wrong = yield* raw(port, {
        headers: { ...json, authorization: `Bearer ${token}x` },
        body: initialize
      })
      expect(wrong.status).toBe(401)
      expect(wrong.body).not.toContain(token)
      const client = new Client({ name: "test", version: "1.0.0" })
      const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } }
      })
      yield* Effect.promise(() => client.connect(transport))
      yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_research"])
      const found = (yield* Effect.promise(() =>
        client.callTool({ name: "web_search", arguments: { keywords: ["mcp"] } })
      )) as { readonly isError?: boolean }
      expect(found.isError).toBe(false)
    })
  )

  it.effect("settings are validated: short tokens and an out-of-range body cap are invalid_config", () =>
    Effect.gen(function* () {
      const short = yield* Effect.flip(WebSearchMcp.makeHttpSecurity({ tokens: ["short"] }))
      expect(short).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(short.message).not.toContain('short"')
      const cap = yield* Effect.flip(WebSearchMcp.makeHttpSecurity({ maxBodyBytes: 10 }))
      expect(cap).toMatchObject({ reason: "invalid_config" })
    })
  )
})
