import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { monitorEventLoopDelay } from "node:perf_hooks"
import * as Fetch from "../src/Fetch.js"
import * as LocalServer from "./support/localServer.js"

const live = (input: Settings.SettingsInput) =>
  Fetch.layerWith().pipe(Layer.provideMerge(WebSearch.layer), Layer.provideMerge(Settings.layer(input)))

// Under the old inline threshold (64 KiB), so the old code extracted these on the calling thread.
const spaces = " ".repeat(60 * 1024)
// A 6 KiB page Readability needs far longer than any deadline for (tables nested 600 deep).
const nestedTables = `<html><body>${"<table><tr><td>".repeat(600)}x ${"word ".repeat(50)}</body></html>`

describe("hostile pages through the fetch provider", () => {
  it.scopedLive(
    "a <pre> of spaces and a page of spaces never block the event loop; a page that would take minutes fails timeout at its deadline",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({
          "/pre": LocalServer.html(`<html><body><pre>${spaces}x</pre></body></html>`),
          "/text": { headers: { "content-type": "text/plain" }, body: `${spaces}y` },
          "/tables": LocalServer.html(nestedTables)
        })
        // Long enough for workers to start from sources (tsx) on a busy machine; far shorter than the tables take.
        const input = { urlPolicy: { allowHosts: ["127.0.0.1"] }, timeouts: { fetchUrls: 30_000 } }
        const delay = monitorEventLoopDelay({ resolution: 10 })
        delay.enable()
        const started = performance.now()
        const response = yield* FetchUrls.fetchUrls({
          urls: [server.url("/pre"), server.url("/text"), server.url("/tables")]
        }).pipe(Effect.provide(live(input)))
        const elapsed = performance.now() - started
        delay.disable()
        expect(response.results.map((r) => r.url)).toEqual([server.url("/pre"), server.url("/text")])
        expect(response.results[0].content).toBe("```\n" + spaces + "x\n```")
        expect(response.results[1].content).toBe(spaces + "y")
        expect(response.failures).toMatchObject([
          { input: server.url("/tables"), _tag: "RequestFailed", reason: "timeout" }
        ])
        // The old code blocked the loop for the whole extraction: its longest stall was about the whole call.
        expect(delay.max / 1e6).toBeLessThan(elapsed / 4)
      }),
    150_000
  )
})
