/**
 * A short soak for CI: 200 concurrent clients, each on a connection of its own, send 5 searches each to the real
 * server, whose provider driver calls a local mock over undici. Every answer must be a 200 `WebSearchResponse` for
 * the keyword that client asked, every connection the server accepted must be one a client opened and must close
 * once the clients do, and nothing may reject unhandled. A fixed number of requests, no time or memory figures:
 * the timed 60 s soak with RSS sampling is bench/soak.ts.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import { WebSearchResponse } from "@websearch/core/WebSearchResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { spawn } from "node:child_process"
import diagnostics from "node:diagnostics_channel"
import type { Socket } from "node:net"
import { fileURLToPath } from "node:url"
import { Client } from "undici"
import * as Support from "./support/server.js"

const clients = 200
const requestsPerClient = 5

const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

// Tavily-shaped answers naming the query, from a process of its own: in this one, which the load keeps busy, its
// listener would accept one new driver connection per turn of the event loop (libuv accepts one connection per
// listener per poll) and the driver's calls would queue behind that instead of behind the server.
const mockSource = `
const { createServer } = require("node:http")
const server = createServer((request, response) => {
  const chunks = []
  request.on("data", (chunk) => chunks.push(chunk))
  request.on("end", () => {
    const { query } = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ results: [1, 2, 3].map((i) => ({
      title: query + " result " + i,
      url: "https://results.example/" + encodeURIComponent(query) + "/" + i,
      content: "Content " + i + " for " + query + "."
    })) }))
  })
})
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"))
process.stdin.on("end", () => process.exit(0))
process.stdin.resume()
`

/** The mock's base URL, for the current scope. */
const providerMock = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly stop: () => void }, Error>((resume) => {
    const child = spawn(process.execPath, ["--import", guard, "-e", mockSource], {
      stdio: ["pipe", "pipe", "inherit"]
    })
    const stop = () => {
      child.stdin.end()
      child.kill()
    }
    let out = ""
    let started = false
    child.stdout.on("data", (data: Buffer) => {
      out += data.toString("utf8")
      if (started || !out.includes("\n")) return
      started = true
      resume(Effect.succeed({ url: `http://127.0.0.1:${out.trim()}`, stop }))
    })
    child.once("exit", (code) => {
      if (started) return
      started = true
      resume(Effect.fail(new Error(`the provider mock exited with ${code}`)))
    })
    return Effect.sync(stop)
  }),
  (mock) => Effect.sync(mock.stop)
)

const MockAnswer = Schema.Struct({
  results: Schema.Array(Schema.Struct({ title: Schema.String, url: Schema.String, content: Schema.String }))
})

/** Search over HTTP: one `POST /search` to the mock per keyword, through the HttpClient it is given. */
const searchOver = (client: HttpClient.HttpClient, base: string) => (keyword: string) =>
  client
    .execute(HttpClientRequest.post(`${base}/search`).pipe(HttpClientRequest.bodyUnsafeJson({ query: keyword })))
    .pipe(
      Effect.flatMap(HttpClientResponse.filterStatusOk),
      Effect.flatMap(HttpClientResponse.schemaBodyJson(MockAnswer)),
      Effect.map((answer) => answer.results),
      Effect.mapError((error) =>
        WebSearchError.requestFailed("network", `the mock failed: ${error.message}`, { providerId: "tavily" })
      )
    )

/** Sockets the listener on `port` accepts, and how many of them are still open. */
const countSockets = (port: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const count = { accepted: 0, open: 0 }
      const onSocket = (message: unknown) => {
        const socket = (message as { readonly socket: Socket }).socket
        if (socket.localPort !== port) return
        count.accepted++
        count.open++
        socket.once("close", () => count.open--)
      }
      diagnostics.subscribe("net.server.socket", onSocket)
      return { count, onSocket }
    }),
    ({ onSocket }) => Effect.sync(() => diagnostics.unsubscribe("net.server.socket", onSocket))
  ).pipe(Effect.map(({ count }) => count))

/** Every unhandled rejection while the scope is open. */
const unhandledRejections = Effect.acquireRelease(
  Effect.sync(() => {
    const seen: Array<unknown> = []
    const onRejection = (reason: unknown) => seen.push(reason)
    process.on("unhandledRejection", onRejection)
    return { seen, onRejection }
  }),
  ({ onRejection }) => Effect.sync(() => process.off("unhandledRejection", onRejection))
).pipe(Effect.map(({ seen }) => seen))

const decodeResponse = Schema.decodeUnknownEither(WebSearchResponse)

/** Why `text` is not the success answer for exactly `keyword`, or undefined when it is. */
const wrongAnswer = (keyword: string, status: number, text: string): string | undefined => {
  if (status !== 200) return `${keyword}: status ${status}: ${text.slice(0, 200)}`
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return `${keyword}: body is not JSON: ${text.slice(0, 200)}`
  }
  const decoded = decodeResponse(json)
  if (Either.isLeft(decoded)) return `${keyword}: body is not a WebSearchResponse: ${text.slice(0, 200)}`
  const answer = decoded.right
  const own =
    answer.inputs.length === 1 &&
    answer.inputs[0] === keyword &&
    answer.failures.length === 0 &&
    answer.results.length === 3 &&
    answer.results.every((r) => r.sourceInput === keyword && r.title.startsWith(`${keyword} result `))
  return own ? undefined : `${keyword}: answer for something else: ${text.slice(0, 200)}`
}

// Gives up after 2 s: well under Node's 5 s keep-alive timeout, so the server closing idle connections on its own
// cannot stand in for it closing them when the clients do.
const waitFor = (condition: () => boolean, what: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 100; i++) {
      if (condition()) return
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.dieMessage(`timed out waiting for ${what}`)
  })

describe("soak", () => {
  it.scopedLive(
    `${clients} concurrent clients x ${requestsPerClient} searches: every answer is theirs, every connection closes`,
    () =>
      Effect.gen(function* () {
        const rejections = yield* unhandledRejections
        const mock = yield* providerMock
        const http = yield* HttpClient.HttpClient
        const { driver, recorder } = Support.driver("tavily", { searchKeywords: searchOver(http, mock.url) })
        const base = yield* Support.start(
          { tokens: [Support.token], rateLimit: { limit: 1_000_000, window: "1 minute" } },
          Support.live([driver], {
            defaults: { searchKeywords: "tavily" },
            // Far above the load, so Tavily's published limit does not turn this into a quota test.
            providers: { tavily: { apiKeys: [Support.canaryKey], rateLimit: { limit: 1_000_000, window: "1 second" } } }
          })
        )
        const sockets = yield* countSockets(Number(new URL(base).port))
        const connections = yield* Effect.acquireRelease(
          Effect.sync(() => Array.from({ length: clients }, () => new Client(base, { pipelining: 1 }))),
          (all) => Effect.promise(() => Promise.allSettled(all.map((client) => client.destroy())))
        )
        const connects = connections.map(() => 0)
        connections.forEach((client, i) => client.on("connect", () => connects[i]++))

        // Every client connects (GET /health) before the searches start, while the server is idle: a server the
        // first clients keep busy accepts latecomers one per turn of its event loop, which is a connection burst,
        // not the steady load this test is about.
        const health = yield* Effect.promise(() =>
          Promise.all(
            connections.map(async (client) => {
              const { statusCode, body } = await client.request({ method: "GET", path: "/health" })
              await body.text()
              return statusCode
            })
          )
        )
        expect(health.every((status) => status === 200)).toBe(true)
        expect(sockets.accepted).toBe(clients)

        const headers = { authorization: `Bearer ${Support.token}`, "content-type": "application/json" }
        const problems = yield* Effect.promise(() =>
          Promise.all(
            connections.map(async (client, i) => {
              const wrong: Array<string> = []
              for (let n = 0; n < requestsPerClient; n++) {
                // A keyword of its own per request, so no answer can stand in for another.
                const keyword = `soak ${i}.${n}`
                try {
                  const response = await client.request({
                    method: "POST",
                    path: "/v1/search",
                    headers,
                    body: JSON.stringify({ keywords: [keyword] })
                  })
                  const problem = wrongAnswer(keyword, response.statusCode, await response.body.text())
                  if (problem !== undefined) wrong.push(problem)
                } catch (error) {
                  wrong.push(`${keyword}: ${String(error)}`)
                }
              }
              return wrong
            })
          )
        )
        expect(problems.flat()).toEqual([])
        expect(recorder.calls).toHaveLength(clients * requestsPerClient)
        expect(recorder.completed).toHaveLength(clients * requestsPerClient)
        expect(recorder.interrupted).toEqual([])

        // Every connection the server accepted is one a client opened (keep-alive normally keeps that at one per
        // client; a connection the server closed while idle would be reopened, and still be counted on both sides).
        const opened = connects.reduce((a, b) => a + b, 0)
        expect(connects.every((n) => n >= 1)).toBe(true)
        expect(sockets.accepted).toBe(opened)
        yield* Effect.promise(() => Promise.all(connections.map((client) => client.close())))
        yield* waitFor(() => sockets.open === 0, "the server to close every client connection")
        expect(sockets).toEqual({ accepted: opened, open: 0 })
        expect(rejections).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici)),
    60_000
  )
})
