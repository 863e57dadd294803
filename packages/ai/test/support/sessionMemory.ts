/**
 * Run as a child process (`node --expose-gc`, under tsx): an MCP server over streamable HTTP on 127.0.0.1 whose
 * fetcher answers every URL with a distinct page of `PAGE_CHARS` characters, and one official SDK client that reads
 * `PAGES` of them in one session, the first part (8,000 characters) of each. Prints, as one JSON line, the heap
 * retained by the reads (after full collections, against the heap after a warm-up read) and the bounds that apply:
 * the core page store's and the session's.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as PageStore from "@websearch/core/PageStore"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SessionPages from "../../src/internal/sessionPages.js"
import { drivers } from "./fixtures.js"
import { serveHttp } from "./mcpServer.js"

const pages = Number(process.env.PAGES ?? 100)
const pageChars = Number(process.env.PAGE_CHARS ?? 1_000_000)

// A flat page of one-byte characters, new for every fetch (`repeat` would build a rope that costs next to nothing).
const pageText = (seed: number) => new TextDecoder().decode(new Uint8Array(pageChars).fill(0x61 + (seed % 26)))

const gc = (globalThis as { gc?: () => void }).gc!
const heapUsed = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const fetchDriver = drivers().drivers.find((d) => d.preset.id === "fetch")!
let fetches = 0
const live = WebSearch.layer(
  ProviderRegistry.register({
    ...fetchDriver,
    fetchUrls: (url) => Effect.sync(() => ({ title: `Page ${url}`, url, content: pageText(fetches++) }))
  }),
  ProviderRegistry.proposeDefaults("test", { fetchUrls: "fetch" })
).pipe(Layer.provideMerge(Settings.layer({ defaults: { research: null } })))

const program = Effect.gen(function* () {
  const { url } = yield* serveHttp({}, live)
  const client = new Client({ name: "memory", version: "1.0.0" })
  yield* Effect.promise(() => client.connect(new StreamableHTTPClientTransport(new URL(url))))
  const read = (page: string) =>
    Effect.promise(() => client.callTool({ name: "web_fetch", arguments: { items: [{ url: page }] } }))
  yield* read("https://pages.example/warm-up")
  const before = heapUsed()
  for (let i = 0; i < pages; i++) yield* read(`https://pages.example/${i}`)
  const after = heapUsed()
  process.stdout.write(
    `${JSON.stringify({
      pages,
      pageChars,
      fetches,
      retained: after - before,
      pageStoreBound: PageStore.defaults.maxBytes,
      sessionBound: SessionPages.defaultMaxSessionBytes
    })}\n`
  )
  yield* Effect.promise(() => client.close())
})

Effect.runPromise(Effect.scoped(program)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`)
    process.exit(1)
  }
)
