/**
 * `websearch fetch --render`, end to end: the built command (its esbuild bundle) renders a page whose content a
 * script builds, with Debian's chromium. Fails (does not skip) when Chromium is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Cli from "../src/internal/cli.js"
import { websearch } from "./support/process.js"

const text = "This paragraph was written by a script after the page loaded, so a plain fetch never sees it."

let server: Server
let origin = ""
const hits: Array<string> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? "")
    if (request.url === "/") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(
        `<!doctype html><html><head><title>Shell</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>`
      )
    } else if (request.url === "/app.js") {
      response.writeHead(200, { "content-type": "text/javascript" })
      response.end(`document.title = "Rendered Notes"
document.getElementById("root").innerHTML = "<article><h1>Rendered Notes</h1><p>${text}</p></article>"`)
    } else {
      response.writeHead(404)
      response.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe("websearch fetch --render", () => {
  it("parses never, auto and always for fetch, mcp and serve; anything else or another command is a usage error", () => {
    for (const mode of ["never", "auto", "always"] as const) {
      const parsed = Cli.parse(["fetch", "--render", mode, "http://a.example/"])
      expect(Either.isRight(parsed) && parsed.right._tag === "Fetch" ? parsed.right.render : undefined).toBe(mode)
    }
    const fetch = Cli.parse(["fetch", "http://a.example/"])
    expect(Either.isRight(fetch) && fetch.right._tag === "Fetch" ? fetch.right.render : "set").toBeUndefined()
    expect(Either.isRight(Cli.parse(["mcp", "--render", "auto"]))).toBe(true)
    expect(Either.isRight(Cli.parse(["serve", "--render", "always"]))).toBe(true)
    const bad = Cli.parse(["fetch", "--render", "sometimes", "http://a.example/"])
    expect(Either.isLeft(bad) ? bad.left.message : "").toBe('--render takes never, auto or always, not "sometimes"')
    const misplaced = Cli.parse(["search", "--render", "auto", "effect"])
    expect(Either.isLeft(misplaced) ? misplaced.left.message : "").toBe('--render does not apply to "search"')
    expect(Cli.usage).toContain("--render MODE")
  })

  it("renders a page whose content a script builds; without --render the page has no text", async () => {
    const port = new URL(origin).port
    const rendered = await websearch([
      "fetch",
      "--render",
      "always",
      "--json",
      `${origin}/`,
      "--allow-host",
      `127.0.0.1:${port}`
    ])
    expect(rendered.code).toBe(0)
    const answer = JSON.parse(rendered.stdout.trim()) as {
      ok: boolean
      response: { results: Array<{ title: string; content: string }> }
    }
    expect(answer.ok).toBe(true)
    expect(answer.response.results[0].title).toBe("Rendered Notes")
    expect(answer.response.results[0].content).toContain(text)
    expect(hits.filter((hit) => hit === "/app.js")).toHaveLength(1)

    const plain = await websearch(["fetch", "--json", `${origin}/`, "--allow-host", `127.0.0.1:${port}`])
    expect(plain.code).toBe(1)
    expect(plain.stdout).toContain("empty_content")
    expect(hits.filter((hit) => hit === "/app.js")).toHaveLength(1)

    const fromEnv = await websearch(["fetch", `${origin}/`, "--allow-host", `127.0.0.1:${port}`], {
      FETCH_RENDER: "auto"
    })
    expect(fromEnv.code).toBe(0)
    expect(fromEnv.stdout).toContain(text)
  }, 60_000)

  it("names the missing Chromium when rendering is asked for and the executable is not there", async () => {
    const port = new URL(origin).port
    const missing = await websearch(
      ["fetch", "--render", "always", "--json", `${origin}/`, "--allow-host", `127.0.0.1:${port}`],
      { WEBSEARCH_CHROMIUM_PATH: "/nonexistent/chromium" }
    )
    expect(missing.code).toBe(1)
    const answer = JSON.parse(missing.stdout.trim()) as {
      ok: boolean
      error: { _tag: string; reason: string; message: string }
    }
    expect(answer.ok).toBe(false)
    expect(answer.error._tag).toBe("Unavailable")
    expect(answer.error.reason).toBe("invalid_config")
    expect(answer.error.message).toContain("/nonexistent/chromium")
  }, 60_000)
})
