/**
 * `web_fetch` over MCP (the official SDK client over stdio) with the real local fetcher on pages served from
 * 127.0.0.1: a read page carries the kind of page it was read as, in the structured content and in the text; a wall
 * is a failed item `RequestFailed/blocked` whose next step tells the model not to retry it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Fetch from "@websearch/node/Fetch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as WallPages from "../../../test-support/wallPages.js"
import { connectStdio } from "./support/stdioClient.js"

const pages: Record<string, { readonly status: number; readonly html: string }> = {
  "/article": { status: 200, html: WallPages.articleWithBanner.html },
  "/wall": { status: 403, html: WallPages.perimeterX.html }
}

const origin = Effect.acquireRelease(
  Effect.async<{ readonly server: Server; readonly url: (path: string) => string }>((resume) => {
    const server = createServer((request, response) => {
      const page = pages[request.url ?? ""]
      if (page === undefined) response.writeHead(404).end()
      else response.writeHead(page.status, { "content-type": "text/html; charset=utf-8" }).end(page.html)
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({ server, url: (path: string) => `http://127.0.0.1:${port}${path}` }))
    })
  }),
  ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
)

const live = WebSearch.layer(Fetch.layerWith({ workers: false })).pipe(
  Layer.provideMerge(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] } }))
)

interface Called {
  readonly isError?: boolean
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
  readonly structuredContent?: { readonly items: ReadonlyArray<Record<string, unknown>> }
}

describe("web_fetch over MCP: page types and walls", () => {
  it.scopedLive("a read page says its page type; a wall is a blocked item the model is told not to retry", () =>
    Effect.gen(function* () {
      const site = yield* origin
      const client = yield* connectStdio(live)
      const called = (yield* Effect.promise(() =>
        client.callTool({
          name: "web_fetch",
          arguments: { items: [{ url: site.url("/article") }, { url: site.url("/wall") }] }
        })
      )) as unknown as Called
      expect(called.isError).toBe(false)
      const [read, wall] = called.structuredContent!.items
      expect(read).toMatchObject({ status: "success", pageType: "article" })
      expect(wall).toMatchObject({
        status: "failed",
        failure: { _tag: "RequestFailed", reason: "blocked", retryable: false }
      })
      const failure = wall.failure as { readonly message: string; readonly nextStep: string }
      expect(failure.message).toContain("a bot check (PerimeterX)")
      expect(failure.message).toContain(`set providers.fetch.render to "auto"`)
      expect(failure.nextStep).toContain("do not retry it")
      const text = called.content[0].text!
      expect(text).toContain(`URL: ${site.url("/article")}\nPage type: article\n`)
      expect(text).toContain("RequestFailed/blocked")
    })
  )
})
