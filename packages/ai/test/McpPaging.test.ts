/**
 * A long page read over MCP in parts, with the official SDK client over stdio and over streamable HTTP: a 200 KB
 * page served by a local origin on 127.0.0.1 and read by the real local fetcher, part by part through the
 * startIndex each part's last line gives, until the end. The parts join to the unpaged content, each response
 * stays within the page size plus its notice, and the origin sees one request for the whole read.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Fetch from "@websearch/node/Fetch"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { PassThrough } from "node:stream"
import * as ToolOutput from "../src/ToolOutput.js"
import * as WebSearchMcp from "../src/WebSearchMcp.js"
import { PipeTransport } from "./support/pipeTransport.js"

// About 200 KB of text in lines (under the 200,000-character hard cap, so the unpaged read is the whole page), with astral characters, so a careless cut would split a surrogate pair.
const body = Array.from(
  { length: 3000 },
  (_, i) => `Line ${i} of the long page: effect layers, schemas and streams ${i % 40 === 0 ? "😀 𠀋" : "."}`
).join("\n")

const maxLength = 20_000

/** A local origin serving the long page at /long, counting the requests for it. */
const origin = Effect.acquireRelease(
  Effect.async<{ readonly server: Server; readonly url: string; readonly hits: () => number }>((resume) => {
    let hits = 0
    const server = createServer((request, response) => {
      if (request.url !== "/long") {
        response.writeHead(404).end()
        return
      }
      hits++
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(body)
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({ server, url: `http://127.0.0.1:${port}/long`, hits: () => hits }))
    })
  }),
  ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
)

const live = WebSearch.layer(Fetch.layer).pipe(
  Layer.provideMerge(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] } }))
)

interface Text {
  readonly type: string
  readonly text?: string
}

interface Called {
  readonly isError?: boolean
  readonly content: ReadonlyArray<Text>
  readonly structuredContent?: { readonly items: ReadonlyArray<Record<string, unknown>> }
}

const fencedText = (text: string): string => {
  // The page part is the fenced block between the URL line and the notice (or the blank line before Next steps).
  const open = text.indexOf("```untrusted-data")
  const fence = /^`{3,}/.exec(text.slice(open))![0]
  const start = text.indexOf("\n", open) + 1
  const end = text.indexOf(`\n${fence}\n`, start)
  return ToolOutput.unfenced(text.slice(open, end + fence.length + 1))
}

/** Reads the page through the client until the end; returns each response's text and structured content. */
const readAll = (client: Client, url: string) =>
  Effect.gen(function* () {
    const responses: Array<Called> = []
    let startIndex: number | undefined = 0
    let target = url
    while (startIndex !== undefined) {
      const called: Called = (yield* Effect.promise(() =>
        client.callTool({
          name: "web_fetch",
          arguments: { items: [{ url: target, ...(startIndex === 0 ? {} : { startIndex }) }] }
        })
      )) as unknown as Called
      expect(called.isError).toBe(false)
      responses.push(called)
      const item = called.structuredContent!.items[0]
      // Read on by the id the first part was given, as the notice says.
      target = item.id as string
      startIndex = item.nextStartIndex as number | undefined
      if (responses.length > 50) throw new Error("the read did not end")
    }
    return responses
  })

const check = (responses: ReadonlyArray<Called>, unpaged: string) => {
  const parts = responses.map((r) => fencedText(r.content[0].text!))
  expect(parts.length).toBe(Math.ceil(unpaged.length / maxLength))
  expect(parts.join("")).toBe(unpaged)
  responses.forEach((response, index) => {
    const text = response.content[0].text!
    const item = response.structuredContent!.items[0]
    const notice = item.notice as string
    expect(parts[index].length).toBeLessThanOrEqual(maxLength)
    // The text is the part, its notice, and a few short lines around them (header, id, URL, next steps).
    expect(text.length).toBeLessThanOrEqual(maxLength + notice.length + 1200)
    expect(text).toContain(notice)
    // The page text is in `content` only.
    expect(item.content).toBeUndefined()
    expect(JSON.stringify(response.structuredContent).length).toBeLessThan(2000)
    if (index < responses.length - 1) {
      expect(notice).toContain(`"url": "${item.id}", "startIndex": ${item.nextStartIndex}`)
      expect(notice).toContain(`of ${unpaged.length.toLocaleString("en-US")} characters`)
    } else {
      expect(item.nextStartIndex).toBeUndefined()
      expect(notice).toContain("end of the page")
    }
  })
}

const unpagedContent = (url: string) =>
  Effect.map(FetchUrls.fetchUrls({ urls: [url] }), (response) => {
    // The whole page, not a first part of it.
    expect(response.results[0].nextStartIndex).toBeUndefined()
    return response.results[0].content
  }).pipe(Effect.provide(live))

describe("web_fetch over MCP reads a long page in parts", () => {
  it.scopedLive("over stdio: the parts join to the unpaged content; the origin is asked once", () =>
    Effect.gen(function* () {
      const page = yield* origin
      const unpaged = yield* unpagedContent(page.url)
      expect(unpaged.length).toBeGreaterThan(180_000)
      expect(Buffer.byteLength(body)).toBeGreaterThan(190_000)
      const before = page.hits()
      const toServer = new PassThrough()
      const fromServer = new PassThrough()
      const server = WebSearchMcp.layerStdio({
        name: "websearch-test",
        stdin: Stream.fromAsyncIterable(toServer as AsyncIterable<Uint8Array>, (error) => error).pipe(Stream.orDie),
        stdout: Sink.forEach((chunk: Uint8Array | string) => Effect.sync(() => fromServer.write(chunk))),
        toolkit: { maxLength }
      })
      yield* Layer.launch(server).pipe(Effect.provide(live), Effect.forkScoped)
      yield* Effect.addFinalizer(() => Effect.sync(() => toServer.end()))
      const client = new Client({ name: "test", version: "1.0.0" })
      yield* Effect.promise(() => client.connect(new PipeTransport(toServer, fromServer)))
      const responses = yield* readAll(client, page.url)
      check(responses, unpaged)
      expect(page.hits() - before).toBe(1)
    })
  )

  it.scopedLive("over streamable HTTP: the same, with the official HTTP client", () =>
    Effect.gen(function* () {
      const page = yield* origin
      const unpaged = yield* unpagedContent(page.url)
      const before = page.hits()
      const layer = Layer.mergeAll(
        WebSearchMcp.layerHttp({ name: "websearch-test", path: "/mcp", toolkit: { maxLength } }),
        HttpRouter.Default.serve()
      ).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
        Layer.provide(live)
      )
      const context = yield* Layer.build(layer)
      const address = Context.get(context, HttpServer.HttpServer).address
      const port = address._tag === "TcpAddress" ? address.port : 0
      const client = new Client({ name: "test", version: "1.0.0" })
      yield* Effect.promise(() =>
        client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
      const responses = yield* readAll(client, page.url)
      check(responses, unpaged)
      expect(page.hits() - before).toBe(1)
    })
  )
})
