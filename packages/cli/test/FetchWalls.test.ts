/**
 * `websearch fetch` as a process on pages of each kind the fetcher tells apart: a read page says what kind of page it
 * was read as (text, Markdown and JSON), a wall is listed as `blocked` with the hint in the command line's words
 * (`--render auto` where rendering may get past it, else that the site refuses automated reading), and an empty
 * JavaScript shell says it needs `--render auto`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as WallPages from "../../../test-support/wallPages.js"
import { websearch } from "./support/process.js"

const pages: Record<string, { readonly status: number; readonly body: string }> = {
  "/article": { status: 200, body: WallPages.articleWithBanner.html },
  "/challenge": { status: 403, body: WallPages.cloudflare.html },
  "/login": { status: 200, body: WallPages.loginWall.html },
  "/shell": {
    status: 200,
    body: `<!doctype html><html><head><title>Harbour app</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>`
  }
}

let server: Server
let origin = ""

beforeAll(async () => {
  server = createServer((request, response) => {
    const page = pages[request.url ?? ""]
    if (page === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not here")
      return
    }
    response.writeHead(page.status, { "content-type": "text/html; charset=utf-8" }).end(page.body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const fetch = (paths: ReadonlyArray<string>, ...flags: ReadonlyArray<string>) =>
  websearch(["fetch", ...paths.map((path) => `${origin}${path}`), "--allow-host", "127.0.0.1", ...flags])

describe("websearch fetch: page types, walls and shells", { timeout: 120_000 }, () => {
  it("prints the page type of a read page, lists each wall as blocked with its hint, and exits 0", async () => {
    const { code, stdout, stderr } = await fetch(["/article", "/challenge", "/login"])
    expect(code).toBe(0)
    expect(stdout).toContain(`${origin}/article\n    page type: article\n`)
    expect(stdout).toContain("Paragraph 8 follows the night ferry")
    expect(stdout).not.toContain("Just a moment")
    expect(stderr).toContain(
      `! ${origin}/challenge: RequestFailed/blocked: ${origin}/challenge answered 403 with a bot check (Cloudflare) ` +
        `instead of its content; rendering may get past it: try --render auto`
    )
    expect(stderr).toContain(
      `! ${origin}/login: RequestFailed/blocked: ${origin}/login answered with a login or subscription wall ` +
        `instead of its content; the site refuses automated reading`
    )
    expect(stderr).toContain("2 of 3 failed")
    expect(stderr).not.toContain("providers.fetch.render")
  })

  it("Markdown shows the page type under the link; --json carries pageType and the blocked failures", async () => {
    const markdown = await fetch(["/article"], "--format", "markdown")
    expect(markdown.code).toBe(0)
    expect(markdown.stdout).toContain(`<${origin}/article>\n\n*page type: article*\n`)
    const json = await fetch(["/article", "/challenge"], "--json")
    expect(json.code).toBe(0)
    const out = JSON.parse(json.stdout) as {
      readonly ok: boolean
      readonly response: {
        readonly results: ReadonlyArray<{ readonly pageType?: string }>
        readonly failures: ReadonlyArray<{ readonly reason: string; readonly retryable: boolean }>
      }
    }
    expect(out.ok).toBe(true)
    expect(out.response.results.map((result) => result.pageType)).toEqual(["article"])
    expect(out.response.failures).toMatchObject([{ reason: "blocked", retryable: false }])
  })

  it("a wall alone is an error naming the wall; an empty JavaScript shell says to try --render auto, once", async () => {
    const wall = await fetch(["/login"])
    expect(wall.code).toBe(1)
    expect(wall.stderr).toContain("RequestFailed/blocked")
    expect(wall.stderr).toContain("the site refuses automated reading")
    const shell = await fetch(["/shell"])
    expect(shell.code).toBe(1)
    expect(shell.stderr).toContain(
      `ResponseInvalid/empty_content: ${origin}/shell has no readable text: the page is built by JavaScript and ` +
        `needs rendering: try --render auto`
    )
    expect(shell.stderr.match(/--render auto/g)).toHaveLength(1)
  })
})
