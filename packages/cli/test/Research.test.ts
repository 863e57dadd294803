import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"

// `websearch research` as a process, against a local stand-in for OpenAI's Responses endpoint replaying the
// recorded stream of the providers package's fixture. The child must run asynchronously: the server lives in
// this process, and a blocking spawn would starve it.

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))
const fixturePath = fileURLToPath(
  new URL("../../providers/test/fixtures/openai_responses_web_search.json", import.meta.url)
)

const canary = "sk-proj-CLICANARY9d8c7b6a5f4e3d2c1b0a"

type Json = Record<string, unknown>

const events = (JSON.parse(readFileSync(fixturePath, "utf8")) as { response: { events: Array<Json> } }).response.events
const report = events
  .filter((e) => e.type === "response.output_text.delta")
  .map((e) => e.delta as string)
  .join("")
// The fixture's authors elided the full text of `.done` events; put the streamed text back.
const stream = events
  .map((e) => {
    const data = JSON.stringify(e).replace(/"<full text>"|"<full concatenated text[^"]*"/g, JSON.stringify(report))
    return `event: ${String(e.type)}\ndata: ${data}\n\n`
  })
  .join("")

interface Received {
  readonly path: string
  readonly authorization: string | undefined
  readonly body: Json
}

let server: Server
let answer: "stream" | "401" = "stream"
const received: Array<Received> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Json
      })
      if (answer === "401") {
        res.writeHead(401, { "content-type": "application/json" })
        res.end(
          JSON.stringify({
            error: {
              message: `Incorrect API key provided: ${canary.slice(0, 10)}****${canary.slice(-4)}.`,
              code: "invalid_api_key"
            }
          })
        )
        return
      }
      res.writeHead(200, { "content-type": "text/event-stream" })
      res.end(stream)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const websearch = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const { port } = server.address() as AddressInfo
    const child = spawn(process.execPath, ["--import", guard, bin, ...args, "--allow-host", "127.0.0.1"], {
      // Only what the command may read: no keys or defaults leak in from the developer's shell.
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        OPENAI_API_KEY: canary,
        OPENAI_API_HOST: `http://127.0.0.1:${port}/v1`,
        WEBSEARCH_DEFAULT_RESEARCH_PROVIDER: "openai",
        ...env
      }
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")))
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")))
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

describe("websearch research", () => {
  it("--json prints one success object with the report, sources and queries; the allowlist reaches OpenAI", async () => {
    answer = "stream"
    received.length = 0
    const { code, stdout, stderr } = await websearch([
      "research",
      "What happened in Berlin today?",
      "--allow-domain",
      "Wallpaper.com",
      "--domain",
      "reuters.com",
      "--json"
    ])
    expect(code).toBe(0)
    const lines = stdout.trim().split("\n")
    expect(lines).toHaveLength(1)
    const out = JSON.parse(lines[0]) as { ok: boolean; response: Json }
    expect(out.ok).toBe(true)
    expect(out.response).toMatchObject({
      providerId: "openai",
      query: "What happened in Berlin today?",
      queries: ["Berlin news today"],
      images: []
    })
    expect(String(out.response.report)).toBe(report.trim())
    const sources = out.response.sources as Array<{ title: string; url: string }>
    expect(sources[0]).toEqual({
      title: "What to see at Berlin Art Week 2025 | Wallpaper*",
      url: "https://www.wallpaper.com/art/exhibitions-shows/berlin-art-week-2025"
    })
    expect(received).toHaveLength(1)
    expect(received[0].path).toBe("/v1/responses")
    expect(received[0].authorization).toBe(`Bearer ${canary}`)
    expect(received[0].body.tools).toEqual([
      { type: "web_search", filters: { allowed_domains: ["wallpaper.com", "reuters.com"] } }
    ])
    expect(stdout + stderr).not.toContain(canary)
  })

  it("human output is the report, then numbered sources and the queries; --verbose logs usage, never the key", async () => {
    answer = "stream"
    const { code, stdout, stderr } = await websearch(["research", "What happened in Berlin today?", "--verbose"])
    expect(code).toBe(0)
    expect(stdout.startsWith("Here’s what’s notable in Berlin today")).toBe(true)
    expect(stdout).toContain(
      "\nSources:\n[1] What to see at Berlin Art Week 2025 | Wallpaper* — https://www.wallpaper.com/art/exhibitions-shows/berlin-art-week-2025\n"
    )
    expect(stdout).toContain("\nQueries: Berlin news today\n")
    expect(stderr).toContain("websearch usage")
    expect(stderr).toContain("toolCalls=2")
    expect(stdout + stderr).not.toContain(canary)
  })

  it("a rejected key is Unavailable/credentials_rejected, exit 1, and the key OpenAI quotes back is not printed", async () => {
    answer = "401"
    const { code, stdout, stderr } = await websearch(["research", "brief", "--json", "--verbose"])
    expect(code).toBe(1)
    const out = JSON.parse(stdout.trim()) as { ok: boolean; error: Json }
    expect(out.ok).toBe(false)
    expect(out.error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "openai" })
    expect(stdout + stderr).not.toContain(canary.slice(0, 10))
  })

  it("a routed or unpriced OPENAI_MODEL is refused before any request: Unavailable/unpriced_model", async () => {
    answer = "stream"
    received.length = 0
    for (const model of ["openai/gpt-5", "gpt-unpriced"]) {
      const { code, stdout } = await websearch(["research", "brief", "--json"], { OPENAI_MODEL: model })
      expect(code).toBe(1)
      expect((JSON.parse(stdout.trim()) as { error: Json }).error).toMatchObject({
        _tag: "Unavailable",
        reason: "unpriced_model"
      })
    }
    expect(received).toHaveLength(0)
  })

  it("an invalid brief is RequestFailed/invalid_input before any request", async () => {
    received.length = 0
    const { code, stdout } = await websearch(["research", "x".repeat(1001), "--json"])
    expect(code).toBe(1)
    expect((JSON.parse(stdout.trim()) as { error: Json }).error).toMatchObject({
      _tag: "RequestFailed",
      reason: "invalid_input",
      capability: "research"
    })
    expect(received).toHaveLength(0)
  })
})
