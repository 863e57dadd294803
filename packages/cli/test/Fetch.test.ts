import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Pdf from "../../../test-support/pdf.js"
import { websearch } from "./support/process.js"

const json = (stdout: string): Record<string, unknown> => {
  const lines = stdout.trim().split("\n")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]) as Record<string, unknown>
}

const paragraph = (i: number) =>
  `<p>Paragraph ${i}: layers describe how services are built, and a program names the services it needs.</p>`

const pages: Record<string, { readonly type: string; readonly body: string | Uint8Array }> = {
  "/page": {
    type: "text/html; charset=utf-8",
    body: `<html><head><title>Local Page</title></head><body><nav>Menu</nav><article><h1>Local Page</h1>${[0, 1, 2, 3].map(paragraph).join("")}</article></body></html>`
  },
  // Above the 64 KiB worker threshold.
  "/big": {
    type: "text/html; charset=utf-8",
    body: `<html><head><title>Big Page</title></head><body><article><h1>Big Page</h1>${Array.from({ length: 900 }, (_, i) => paragraph(i)).join("\n")}</article></body></html>`
  },
  "/robots.txt": { type: "text/plain", body: "User-agent: websearch\nDisallow: /page\n" },
  "/paper.pdf": { type: "application/pdf", body: Pdf.build(["A page of a bundled PDF"], "Bundled PDF") }
}

let server: Server
let origin = ""
let port = 0
const hits: Array<string> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? "")
    const page = pages[request.url ?? ""]
    if (page === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not here")
      return
    }
    response.writeHead(200, { "content-type": page.type }).end(page.body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
  origin = `http://127.0.0.1:${port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

// Each run may rebuild the bundle first, and starts the extraction worker from it.
describe("websearch fetch as a process, against a local server", { timeout: 120_000 }, () => {
  it("prints the page with --allow-host 127.0.0.1 and no other configuration", async () => {
    hits.length = 0
    const { code, stdout, stderr } = await websearch(["fetch", `${origin}/page`, "--allow-host", "127.0.0.1"])
    expect(stderr).toBe("")
    expect(code).toBe(0)
    expect(stdout).toContain("Local Page")
    expect(stdout).toContain(`${origin}/page`)
    expect(stdout).toContain("Paragraph 3: layers describe how services are built")
    expect(stdout).not.toContain("Menu")
    expect(hits).toEqual(["/page"])
  })

  it("without the flag the URL is refused: exit 1, RequestFailed/ssrf_rejected, the server saw nothing", async () => {
    hits.length = 0
    const { code, stdout } = await websearch(["fetch", `${origin}/page`, "--json"])
    expect(code).toBe(1)
    const out = json(stdout)
    expect(out.ok).toBe(false)
    expect(out.error).toMatchObject({
      _tag: "RequestFailed",
      reason: "ssrf_rejected",
      providerId: "fetch",
      capability: "fetchUrls"
    })
    expect(hits).toEqual([])
  })

  it("--allow-cidr trusts the address; the port comes from the settings file's allowPorts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "websearch-fetch-"))
    const config = join(dir, "settings.json")
    writeFileSync(config, JSON.stringify({ urlPolicy: { allowPorts: [port] } }))
    const refused = await websearch(["fetch", `${origin}/page`, "--allow-cidr", "127.0.0.0/8", "--json"])
    expect(json(refused.stdout).error).toMatchObject({ reason: "ssrf_rejected" })
    expect(String((json(refused.stdout).error as { message: string }).message)).toContain(`port ${port}`)
    const allowed = await websearch([
      "fetch",
      `${origin}/page`,
      "--allow-cidr",
      "127.0.0.0/8",
      "--config",
      config,
      "--json"
    ])
    expect(allowed.code).toBe(0)
    const out = json(allowed.stdout) as { response: { results: Array<{ title: string; url: string }> } }
    expect(out.response.results.map((r) => [r.title, r.url])).toEqual([["Local Page", `${origin}/page`]])
  })

  it("a big page is extracted on the bundled worker thread", async () => {
    expect(pages["/big"].body.length).toBeGreaterThan(64 * 1024)
    const { code, stdout, stderr } = await websearch([
      "fetch",
      `${origin}/big`,
      "--allow-host",
      "127.0.0.1",
      "--json",
      "--verbose"
    ])
    expect(code).toBe(0)
    const out = json(stdout) as { response: { results: Array<{ title: string; content: string }> } }
    expect(out.response.results[0].title).toBe("Big Page")
    expect(out.response.results[0].content).toContain("Paragraph 100: layers describe")
    expect(stderr).toContain("on a worker thread")
    expect(stderr).not.toContain("cannot start")
  })

  it("a small page is extracted on the main thread, a big one on the worker thread", async () => {
    const urls = [`${origin}/page`, `${origin}/big`]
    const { code, stdout, stderr } = await websearch([
      "fetch",
      ...urls,
      "--allow-host",
      "127.0.0.1",
      "--json",
      "--verbose"
    ])
    expect(code).toBe(0)
    const out = json(stdout) as { response: { results: Array<{ title: string }> } }
    expect(out.response.results.map((r) => r.title)).toEqual(["Local Page", "Big Page"])
    expect(stderr).toContain(`bytes of ${origin}/big on a worker thread`)
    expect(stderr).not.toContain(`bytes of ${origin}/page on a worker thread`)
  })

  it("a PDF is read by the bundled PDF engine (its worker module ships beside the bundle)", async () => {
    const { code, stdout, stderr } = await websearch(["fetch", `${origin}/paper.pdf`, "--allow-host", "127.0.0.1"])
    expect(stderr).toBe("")
    expect(code).toBe(0)
    expect(stdout).toContain("Bundled PDF")
    expect(stdout).toContain("A page of a bundled PDF")
  })

  it("FETCH_RESPECT_ROBOTS_TXT=true obeys robots.txt: RequestFailed/robots_disallowed", async () => {
    hits.length = 0
    const { code, stdout } = await websearch(["fetch", `${origin}/page`, "--allow-host", "127.0.0.1", "--json"], {
      FETCH_RESPECT_ROBOTS_TXT: "true"
    })
    expect(code).toBe(1)
    expect(json(stdout).error).toMatchObject({ _tag: "RequestFailed", reason: "robots_disallowed", retryable: false })
    expect(hits).toEqual(["/robots.txt"])
  })
})
