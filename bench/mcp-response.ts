/**
 * The size of one `web_fetch` answer over MCP for a long page: the bytes of the JSON-RPC line on the wire, the
 * characters of the tool's text and of its `structuredContent`. The official SDK client talks to
 * `WebSearchMcp.layerStdio` over an in-process pipe; the page (~194,000 characters of text) comes from a local
 * server through the real `Fetch` provider. Not a ratio: a size, printed as JSON.
 *
 *   node --conditions=@websearch/source --import tsx bench/mcp-response.ts
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import * as WebSearchMcp from "@websearch/ai/WebSearchMcp"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Fetch from "@websearch/node/Fetch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { PassThrough } from "node:stream"

const line = (i: number) =>
  `Line ${i} of the long page: effect layers, schemas and streams ${i % 40 === 0 ? "\u{1F600} \u{2000B}" : "."}`
const body = Array.from({ length: 3000 }, (_, i) => line(i)).join("\n")
const origin = createServer((_, response) =>
  response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(body)
)
await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/long`

const toServer = new PassThrough()
const fromServer = new PassThrough()
const server = WebSearchMcp.layerStdio({
  name: "bench",
  version: "0.0.0",
  stdin: Stream.fromAsyncIterable(toServer, (error) => error).pipe(Stream.orDie),
  stdout: Sink.forEach((chunk: Uint8Array | string) => Effect.sync(() => void fromServer.write(chunk)))
})
const live = WebSearch.layer(Fetch.layer).pipe(
  Layer.provideMerge(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] } }))
)
Effect.runFork(Layer.launch(server).pipe(Effect.provide(live)))

let wire = 0
let buffer = ""
const transport: Transport = {
  start: async () => {
    fromServer.on("data", (chunk: Buffer) => {
      buffer += chunk.toString()
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const message = buffer.slice(0, end)
        buffer = buffer.slice(end + 1)
        wire = Buffer.byteLength(message)
        if (message.trim() !== "") transport.onmessage?.(JSON.parse(message) as JSONRPCMessage)
      }
    })
  },
  send: async (message) => void toServer.write(`${JSON.stringify(message)}\n`),
  close: async () => void toServer.end()
}
const client = new Client({ name: "bench", version: "0.0.0" })
await client.connect(transport)
const result = await client.callTool({ name: "web_fetch", arguments: { items: [{ url }] } })
const text = (result.content as Array<{ readonly text: string }>)[0].text
console.log(
  JSON.stringify({
    pageCharacters: body.length,
    responseBytesOnTheWire: wire,
    textCharacters: text.length,
    structuredContentCharacters: JSON.stringify(result.structuredContent).length
  })
)
await client.close()
origin.close()
process.exit(0)
