import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { spawn, type ChildProcess } from "node:child_process"
import { once } from "node:events"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { bundleSearxngModule } from "./support/bundleModule.js"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))
// Users ship provider modules as JavaScript: the TypeScript source is bundled once, as a user's build would.
let providerModule = ""

// A local SearXNG mock (search) and a local page (fetch). "explode" makes the search endpoint fail with 502.
let mock: Server
let base = ""
const searched: Array<string> = []

beforeAll(async () => {
  providerModule = await bundleSearxngModule()
  mock = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    if (url.pathname === "/search") {
      const q = url.searchParams.get("q") ?? ""
      searched.push(q)
      if (q === "explode") {
        res.statusCode = 502
        res.end("bad gateway")
        return
      }
      res.setHeader("content-type", "application/json")
      res.end(
        JSON.stringify({
          results: [
            { title: `Answer page for ${q}`, url: `${base}/page`, content: `A snippet about ${q}.` },
            { title: "Second result", url: `${base}/other`, content: "Another snippet." }
          ]
        })
      )
      return
    }
    res.setHeader("content-type", "text/html; charset=utf-8")
    res.end(
      "<!doctype html><html><head><title>Local page</title></head><body><article><h1>Local page</h1>" +
        "<p>The answer is forty-two. This paragraph is long enough to be the main content of the page, so the " +
        "extractor keeps it and drops the navigation around it.</p></article></body></html>"
    )
  })
  mock.listen(0, "127.0.0.1")
  await once(mock, "listening")
  base = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`
})

afterAll(() => {
  mock.close()
})

// Only what the command may read, plus the provider module and the mock's endpoint, and a research provider
// with a key (never called here), so web_research is listed.
const env = (research = true): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  WEBSEARCH_PROVIDER_MODULES: providerModule,
  WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER: "searxng",
  SEARXNG_API_HOST: base,
  ...(research ? { OPENAI_API_KEY: "sk-test-not-a-real-key", WEBSEARCH_DEFAULT_RESEARCH_PROVIDER: "openai" } : {})
})

// The loopback guard refuses any non-local connection.
const nodeArgs = ["--import", guard, bin, "mcp", "--allow-host", "127.0.0.1"]

interface ToolResult {
  readonly isError?: boolean
  readonly structuredContent?: Record<string, unknown>
  readonly content: Array<{ readonly type: string; readonly text?: string }>
}

// The machine running the tests may be busy: a generous per-request timeout instead of the client's 60 s default.
const slow = { timeout: 150_000 }

const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> =>
  (await client.callTool({ name, arguments: args }, undefined, slow)) as ToolResult

const textOf = (result: ToolResult): string => result.content.map((c) => c.text ?? "").join("\n")

/** The same scenario over any transport: list tools, search the mock, read a result by id, and the errors. */
const scenario = async (client: Client) => {
  const { tools } = await client.listTools(undefined, slow)
  // The local fetcher maps and crawls sites, so web_map and web_crawl are listed too.
  expect(tools.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_research", "web_map", "web_crawl"])
  const search = tools[0]
  expect(search.inputSchema).toMatchObject({ type: "object", required: ["keywords"] })
  expect(search.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true })
  expect(search.description).toContain("web_fetch")

  const found = await call(client, "web_search", { keywords: ["meaning of life"] })
  expect(found.isError).toBe(false)
  expect(found.structuredContent).toMatchObject({
    providerId: "searxng",
    queries: ["meaning of life"],
    sources: [
      { id: "w1", title: "Answer page for meaning of life", url: `${base}/page` },
      { id: "w2", url: `${base}/other` }
    ],
    failures: []
  })
  expect(textOf(found)).toContain(`[w1] Answer page for meaning of life\nURL: ${base}/page`)
  expect(searched).toContain("meaning of life")

  // Read the first result by its id, through the local fetch provider (127.0.0.1 is allowlisted).
  const read = await call(client, "web_fetch", { items: [{ url: "w1" }, { url: `${base}/page#top` }] })
  expect(read.isError).toBe(false)
  const items = (read.structuredContent as { items: Array<Record<string, unknown>> }).items
  expect(items.map((i) => [i.status, i.id ?? i.skipped])).toEqual([
    ["success", "w1"],
    ["skipped", "same page as item 1"]
  ])
  // The page text travels once, in the tool's text: structuredContent carries the item without a second copy.
  expect(items[0].content).toBeUndefined()
  expect(textOf(read)).toMatch(/```untrusted-data source=http:\/\/127\.0\.0\.1:\d+\/page\n/)
  expect(textOf(read)).toContain("The answer is forty-two.")

  // A failing provider is a tool error the model can read: isError, the typed error as structured content.
  const failed = await call(client, "web_search", { keywords: ["explode"] })
  expect(failed.isError).toBe(true)
  expect(failed.structuredContent).toMatchObject({
    _tag: "RequestFailed",
    reason: "http_5xx",
    retryable: true,
    providerId: "searxng"
  })
  expect(textOf(failed)).toContain("Next step:")

  // Arguments outside the input schema: a tool error naming the field, so the model can correct itself.
  const invalid = await call(client, "web_fetch", { items: [{ url: 42 }] })
  expect(invalid.isError).toBe(true)
  expect(invalid.structuredContent).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
  expect(textOf(invalid)).toContain("items.0.url")

  // An unknown tool is a protocol error (JSON-RPC invalid params).
  await expect(client.callTool({ name: "web_nothing", arguments: {} }, undefined, slow)).rejects.toThrow(/-32602/)
}

describe("websearch mcp over stdio", () => {
  it(
    "serves the five tools to the official MCP client; stdout carries only protocol",
    { timeout: 240_000 },
    async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: nodeArgs,
        cwd: root,
        env: env(),
        stderr: "pipe"
      })
      const protocolErrors: Array<Error> = []
      let stderr = ""
      transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
      const client = new Client({ name: "websearch-test", version: "1.0.0" })
      client.onerror = (error) => protocolErrors.push(error)
      await client.connect(transport, slow)
      try {
        expect(client.getServerVersion()).toMatchObject({ name: "websearch" })
        await scenario(client)
      } finally {
        await client.close()
      }
      // A line on stdout that is not JSON-RPC would have surfaced here as a parse error.
      expect(protocolErrors).toEqual([])
      expect(stderr).toContain("serving web_search, web_fetch, web_research, web_map and web_crawl over stdio")
    }
  )

  it(
    "with --verbose, logs go to stderr; it exits 0 when stdin closes, having written only JSON-RPC; no research provider: web_research is off, said on stderr",
    { timeout: 240_000 },
    async () => {
      const child = spawn(process.execPath, [...nodeArgs, "--verbose"], {
        cwd: root,
        env: env(false),
        stdio: ["pipe", "pipe", "pipe"]
      })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
      const send = (message: Record<string, unknown>) =>
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`)
      const answered = async (id: number) => {
        while (!stdout.split("\n").some((line) => line.includes(`"id":${id}`))) await once(child.stdout, "data")
      }
      send({
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
      })
      await answered(1)
      send({ method: "notifications/initialized" })
      // A failing search makes the pipeline log a warning: it must reach stderr, never stdout.
      send({ id: 2, method: "tools/call", params: { name: "web_search", arguments: { keywords: ["explode"] } } })
      await answered(2)
      child.stdin.end()
      const [code] = (await once(child, "exit")) as [number | null]
      expect(code).toBe(0)
      const lines = stdout.trim().split("\n")
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" })
      expect(JSON.parse(lines[0])).toMatchObject({ id: 1, result: { serverInfo: { name: "websearch" } } })
      expect(lines.map((line) => JSON.parse(line) as { id?: number }).find((m) => m.id === 2)).toMatchObject({
        result: { isError: true, structuredContent: { reason: "http_5xx" } }
      })
      expect(stderr).toContain("explode")
      // No research provider is configured: the server does not offer web_research, and says why.
      expect(stderr).toContain(
        "serving web_search, web_fetch, web_map and web_crawl over stdio (web_research is off: no provider was given " +
          "and there is no default for research"
      )
    }
  )
})

const waitForUrl = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    let stderr = ""
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(stderr)
      if (match !== null) {
        child.stderr?.off("data", onData)
        resolve(match[1])
      }
    }
    child.stderr?.on("data", onData)
    child.once("exit", (code) => reject(new Error(`websearch mcp --http exited (${code}) before listening: ${stderr}`)))
  })

describe("websearch mcp over streamable HTTP", () => {
  it("prints its URL on stderr and serves the same tools to the official client", { timeout: 240_000 }, async () => {
    const child = spawn(process.execPath, [...nodeArgs, "--http", "0"], {
      cwd: root,
      env: env(),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    try {
      const url = await waitForUrl(child)
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
      const client = new Client({ name: "websearch-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)), slow)
      try {
        await scenario(client)
      } finally {
        await client.close()
      }
    } finally {
      child.kill("SIGINT")
      await once(child, "exit")
    }
    expect(stdout).toBe("")
  })

  it("a port that is taken is a typed Unavailable/invalid_config error, exit 1", { timeout: 240_000 }, async () => {
    const port = (mock.address() as AddressInfo).port
    // mcp takes no --json (issue 36): the error is one line on stderr, stdout stays empty.
    const child = spawn(process.execPath, [...nodeArgs, "--http", String(port)], {
      cwd: root,
      env: env(),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = (await once(child, "exit")) as [number | null]
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(/^error: Unavailable\/invalid_config: /)
    expect(stderr).toContain(`127.0.0.1:${port}`)
  })
})

describe("WEBSEARCH_PROVIDER_MODULES", () => {
  it(
    "a module that cannot be loaded fails with Unavailable/invalid_config naming its path",
    { timeout: 120_000 },
    async () => {
      const missing = "/nonexistent/provider-module.mjs"
      const child = spawn(
        process.execPath,
        ["--import", guard, bin, "search", "x", "--json", "--allow-host", "127.0.0.1"],
        {
          cwd: root,
          env: { ...env(), WEBSEARCH_PROVIDER_MODULES: missing },
          stdio: ["ignore", "pipe", "pipe"]
        }
      )
      let stdout = ""
      child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
      const [code] = (await once(child, "exit")) as [number | null]
      expect(code).toBe(1)
      const out = JSON.parse(stdout.trim()) as { error: { _tag: string; reason: string; message: string } }
      expect(out.error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(out.error.message).toContain(missing)
      expect(out.error.message).toContain("WEBSEARCH_PROVIDER_MODULES")
    }
  )

  it("a module without a `layer` export is refused the same way", { timeout: 120_000 }, async () => {
    const notAProvider = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))
    const child = spawn(
      process.execPath,
      ["--import", guard, bin, "search", "x", "--json", "--allow-host", "127.0.0.1"],
      {
        cwd: root,
        env: { ...env(), WEBSEARCH_PROVIDER_MODULES: notAProvider },
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    let stdout = ""
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    await once(child, "exit")
    const out = JSON.parse(stdout.trim()) as { error: { reason: string; message: string } }
    expect(out.error.reason).toBe("invalid_config")
    expect(out.error.message).toContain('does not export a provider Layer named "layer"')
  })
})
