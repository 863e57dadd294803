/**
 * The loopback stand-in for every provider in the CLI fuzz suite: one node:http server on 127.0.0.1 that each
 * provider's endpoint points at (`/p/<provider>/<capability>` as the apiHost path), answering the way the current
 * run's mode says: the provider's recorded answer, an HTTP error, garbage, an echo of the request headers (so a
 * provider that quotes its key back is exercised), an empty body, or a reset connection. Pages the local fetcher
 * asks for (any other path) get the same treatment, with hostile HTML as the recorded answer.
 */
import * as Capability from "@websearch/core/Capability"
import * as ProviderId from "@websearch/core/ProviderId"
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as Presets from "./presets.js"

/** How the server answers during one run. */
export type Mode =
  | { readonly _tag: "Recorded" }
  | { readonly _tag: "Status"; readonly status: number; readonly body: string; readonly retryAfter?: string }
  | { readonly _tag: "Garbage"; readonly contentType: string; readonly body: string }
  | { readonly _tag: "Echo"; readonly status: number }
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Reset" }

const fixtures = new URL("../../../providers/test/fixtures/", import.meta.url)

// The recorded answer of each provider capability (the providers package's fixtures).
const recorded: Record<string, string> = {
  "duckduckgo/searchKeywords": "duckduckgo.html",
  "tavily/searchKeywords": "tavily.json",
  "tavily/fetchUrls": "tavily_extract.json",
  "exa/searchKeywords": "exa.json",
  "exa/fetchUrls": "exa_contents.json",
  "exa-mcp/searchKeywords": "exa_mcp.json",
  "jina/searchKeywords": "jina_search.json",
  "jina/fetchUrls": "jina_reader.json",
  "brave/searchKeywords": "brave.json",
  "bing/searchKeywords": "bing.json",
  "bocha/searchKeywords": "bocha.json",
  "serper/searchKeywords": "serper.json",
  "serpapi/searchKeywords": "serpapi.json",
  "searxng/searchKeywords": "searxng.json",
  "kagi/searchKeywords": "kagi.json",
  "keenable/searchKeywords": "keenable.json",
  "zhipu/searchKeywords": "zhipu.json",
  "perplexity/searchKeywords": "perplexity_search.json",
  "querit/searchKeywords": "querit.json",
  "querit/fetchUrls": "querit_contents.json",
  "firecrawl/searchKeywords": "firecrawl_search.json",
  "firecrawl/fetchUrls": "firecrawl_scrape.json",
  "ollama/searchKeywords": "ollama_web_search.json",
  "ollama/fetchUrls": "ollama_web_fetch.json",
  "google/searchKeywords": "google_cse.json",
  "baidu/searchKeywords": "baidu_qianfan.json",
  "openai/research": "openai_responses_web_search.json"
}

const bodies = new Map(
  Object.entries(recorded).map(([route, file]) => [route, readFileSync(new URL(file, fixtures), "utf8")])
)

// What the local fetcher gets for a page: hostile but well-formed HTML.
const hostilePage = (path: string) =>
  `<!doctype html><html dir="rtl"><head><title>\u202Eevil\u200B title ${path.slice(0, 40)}</title>` +
  `<script>while(true){}</script></head><body><nav>menu</nav><article><h1>Ünïcödé 👩‍👩‍👧</h1>` +
  `${"<p>Paragraph with \u0000 NUL, \uFEFF BOM and a lone \uD800 surrogate.</p>".repeat(20)}</article></body></html>`

/** The provider's apiHost path prefix for a capability. */
export const routeOf = (providerId: string, capability: string): string => `/p/${providerId}/${capability}`

/** The running server: its origin, its `host:port` and the mode of the current run. */
export interface FuzzServer {
  readonly origin: string
  readonly hostPort: string
  mode: Mode
  readonly close: () => Promise<void>
}

const respond = (server: FuzzServer, request: IncomingMessage, response: ServerResponse) => {
  const mode = server.mode
  const path = request.url ?? "/"
  switch (mode._tag) {
    case "Reset":
      request.socket.destroy()
      return
    case "Empty":
      response.writeHead(200).end()
      return
    case "Status":
      response
        .writeHead(mode.status, {
          "content-type": "application/json",
          ...(mode.retryAfter === undefined ? {} : { "retry-after": mode.retryAfter })
        })
        .end(mode.body)
      return
    case "Garbage":
      response.writeHead(200, { "content-type": mode.contentType }).end(mode.body)
      return
    case "Echo":
      // A provider that quotes the caller's credentials back in its error (some do): the key is in the body.
      response
        .writeHead(mode.status, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `bad request ${path}`, headers: request.headers } }))
      return
    case "Recorded": {
      const match = /^\/p\/([^/]+)\/([^/]+)/.exec(path)
      if (match === null) {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(hostilePage(path))
        return
      }
      const body = bodies.get(`${match[1]}/${match[2]}`)
      if (body === undefined) {
        response.writeHead(200, { "content-type": "application/json" }).end('{"results":[]}')
        return
      }
      response
        .writeHead(200, { "content-type": match[1] === "duckduckgo" ? "text/html; charset=utf-8" : "application/json" })
        .end(body)
      return
    }
  }
}

/** Starts the server on 127.0.0.1 with an ephemeral port. */
export const start = async (): Promise<FuzzServer> => {
  const state: { mode: Mode } = { mode: { _tag: "Recorded" } }
  const server: Server = createServer((request, response) => {
    request.resume()
    request.on("end", () => respond(handle, request, response))
    request.on("error", () => response.destroy())
  })
  const handle: FuzzServer = {
    origin: "",
    hostPort: "",
    get mode() {
      return state.mode
    },
    set mode(mode: Mode) {
      state.mode = mode
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`
  return Object.assign(handle, { origin: `http://${hostPort}`, hostPort })
}

/** One canary key per provider that takes keys: any of them on stdout or stderr is a leak. */
export const canaryOf = (providerId: string): string => `CANARY-${providerId}-5e8d2a7c1f9b3e4d`

/**
 * The environment of a fuzz run: every capability of every provider pointed at the server, a canary key for every
 * provider that takes one, and `fetchUrls` defaulting to Tavily so no generated URL is ever fetched directly.
 */
export const environment = (server: FuzzServer): Record<string, string> => {
  const env: Record<string, string> = {
    WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER: "tavily",
    WEBSEARCH_DEFAULT_RESEARCH_PROVIDER: "openai"
  }
  for (const preset of Presets.all) {
    const prefix = ProviderId.toEnvName(preset.id)
    if (preset.credentials !== "none") env[`${prefix}_API_KEY`] = canaryOf(preset.id)
    for (const capability of preset.capabilities) {
      if (preset.type === "local") continue
      env[`${prefix}_${Capability.toEnvName(capability.feature)}_API_HOST`] =
        `${server.origin}${routeOf(preset.id, capability.feature)}`
    }
  }
  return env
}

/** Every canary `environment` sets. */
export const canaries: ReadonlyArray<string> = Presets.all
  .filter((preset) => preset.credentials !== "none")
  .map((preset) => canaryOf(preset.id))
