/**
 * `websearch mcp` as a process against hostile clients: malformed stdio lines are answered and the server keeps
 * serving; over HTTP, tokens from WEBSEARCH_API_TOKENS are required, a foreign Origin is refused, and a bind
 * address that is not loopback is refused without tokens; a session is its token's alone, each token is held to
 * its request rate (WEBSEARCH_SERVER_RATE_LIMIT), and a bad limit is refused at start, naming its variable.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { spawn, type ChildProcess } from "node:child_process"
import { once } from "node:events"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))
const token = "cli-test-token-0123456789abcdef"

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  ...extra
})

const mcp = (args: ReadonlyArray<string>, extra: Record<string, string> = {}) =>
  spawn(process.execPath, ["--import", guard, bin, "mcp", ...args], {
    cwd: root,
    env: env(extra),
    stdio: ["pipe", "pipe", "pipe"]
  })

const waitForUrl = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(stderr)
      if (match !== null) resolve(match[1])
    })
    child.once("exit", (code) => reject(new Error(`websearch mcp exited (${code}): ${stderr}`)))
  })

describe("websearch mcp against hostile clients", { timeout: 240_000 }, () => {
  it("stdio: a malformed line is answered with -32700 and a valid message in the same write is served", async () => {
    const child = mcp([])
    let stdout = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    const lines = async (n: number) => {
      while (stdout.split("\n").filter((l) => l.length > 0).length < n) await once(child.stdout, "data")
      return stdout
        .split("\n")
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    }
    const initialize = {
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
    }
    child.stdin.write(`{not json\n${JSON.stringify(initialize)}\n`)
    child.stdin.write(`{"jsonrpc":"2.0","id":null,"method":"ping"}\n{"jsonrpc":"2.0","id":7,"method":"nope"}\n`)
    child.stdin.write(`{"jsonrpc":"2.0","id":8,"method":"tools/call"}\n{"jsonrpc":"2.0","id":9,"method":"ping"}\n`)
    // A deaf server never answers: stop it at the test's deadline rather than leave it running.
    const timer = setTimeout(() => child.kill("SIGKILL"), 200_000)
    const replies = await lines(6).finally(() => clearTimeout(timer))
    child.stdin.end()
    const [code] = (await once(child, "exit")) as [number | null]
    expect(code).toBe(0)
    expect(replies[0]).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
    expect(replies[1]).toMatchObject({ id: "init", result: { serverInfo: { name: "websearch" } } })
    expect(replies[2]).toMatchObject({ id: null, error: { code: -32600 } })
    expect(replies[3]).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } })
    expect(replies[4]).toMatchObject({ id: 8, error: { code: -32602 } })
    expect(replies[5]).toEqual({ jsonrpc: "2.0", id: 9, result: {} })
  })

  it("http: with WEBSEARCH_API_TOKENS a request needs the token; a foreign Origin is refused", async () => {
    const child = mcp(["--http", "0"], { WEBSEARCH_API_TOKENS: token })
    try {
      const url = await waitForUrl(child)
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
      const anonymous = await fetch(url, { method: "POST", headers, body })
      expect(anonymous.status).toBe(401)
      const evil = await fetch(url, {
        method: "POST",
        headers: { ...headers, authorization: `Bearer ${token}`, origin: "http://evil.example" },
        body
      })
      expect(evil.status).toBe(403)
      const plain = await fetch(url, {
        method: "POST",
        headers: { "content-type": "text/plain", authorization: `Bearer ${token}` },
        body
      })
      expect(plain.status).toBe(415)
      const client = new Client({ name: "test", version: "1.0.0" })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } }
        })
      )
      try {
        const { tools } = await client.listTools()
        // No research provider is configured: web_research is not offered.
        expect(tools.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_map", "web_crawl"])
      } finally {
        await client.close()
      }
    } finally {
      child.kill("SIGINT")
      await once(child, "exit")
    }
  })

  it("http: a bind address that is not loopback is refused without tokens, before listening", async () => {
    const child = mcp(["--http", "0", "--host", "192.0.2.10"])
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = (await once(child, "exit")) as [number | null]
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(/^error: Unavailable\/invalid_config: /)
    expect(stderr).toContain("without authentication")
    expect(stderr).not.toContain("listening on")
  })

  it("http: a session is its token's alone; a token past WEBSEARCH_SERVER_RATE_LIMIT gets 429 with Retry-After", async () => {
    const other = "cli-other-token-0123456789abcdef"
    const child = mcp(["--http", "0"], {
      WEBSEARCH_API_TOKENS: `${token}@acme:admin,${other}@beta`,
      WEBSEARCH_SERVER_RATE_LIMIT: "4",
      WEBSEARCH_SERVER_RATE_WINDOW: "1 hour"
    })
    try {
      const url = await waitForUrl(child)
      const post = (bearer: string, message: Record<string, unknown>, session?: string) =>
        fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${bearer}`,
            ...(session === undefined ? {} : { "mcp-session-id": session })
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message })
        })
      const initialize = {
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
      }
      const opened = await post(token, initialize)
      const session = opened.headers.get("mcp-session-id")!
      expect(opened.status).toBe(200)
      expect((await post(other, { method: "ping" }, session)).status).toBe(404)
      expect((await post(token, { method: "ping" }, session)).status).toBe(200)
      expect((await post(token, { method: "ping" }, session)).status).toBe(200)
      expect((await post(token, { method: "ping" }, session)).status).toBe(200)
      const limited = await post(token, { method: "ping" }, session)
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(((await limited.json()) as { error: { message: string } }).error.message).toContain("Too Many Requests")
      // The other token has its own budget.
      expect((await post(other, { method: "ping" })).status).toBe(200)
    } finally {
      child.kill("SIGINT")
      await once(child, "exit")
    }
  })

  it("http: a bad limit is refused at start, naming its variable", async () => {
    const child = mcp(["--http", "0"], { WEBSEARCH_MCP_MAX_CONCURRENT: "0" })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    // A server that starts anyway is stopped, and fails the test below.
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    const [code] = (await once(child, "exit")) as [number | null]
    clearTimeout(timer)
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(/^error: Unavailable\/invalid_config: /)
    expect(stderr).toContain("WEBSEARCH_MCP_MAX_CONCURRENT must be at least 1")
    expect(stderr).not.toContain("listening on")
  })
})
