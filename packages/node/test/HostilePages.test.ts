import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { monitorEventLoopDelay } from "node:perf_hooks"
import * as Fetch from "../src/Fetch.js"
import * as LocalServer from "./support/localServer.js"
import * as PdfBudget from "../src/internal/pdfBudget.js"
import * as PdfBuilder from "./support/pdfBuilder.js"

const live = (input: Settings.SettingsInput) =>
  WebSearch.layer(Fetch.layerWith()).pipe(Layer.provideMerge(Settings.layer(input)))

// Under the old inline threshold (64 KiB), so the old code extracted these on the calling thread.
const spaces = " ".repeat(60 * 1024)
// A 6 KiB page Readability needed minutes for (tables nested 600 deep); extraction now prices nesting first.
const nestedTables = `<html><body>${"<table><tr><td>".repeat(600)}x ${"word ".repeat(50)}</body></html>`

describe("hostile pages through the fetch provider", () => {
  it.scopedLive(
    "PDFs whose streams decode far beyond the budget, through any filter or chain of them, fail too_large before PDF.js decodes them",
    () =>
      Effect.gen(function* () {
        const MiB = 1024 * 1024
        // 1 GiB of zeros in about a megabyte: under the 5 MiB body cap.
        const zeros = yield* Effect.promise(() => PdfBuilder.flateZeros(1024 * MiB))
        const pdf = (dict: string, data: Uint8Array) => ({
          headers: { "content-type": "application/pdf" },
          body: PdfBuilder.pdf({ dict, data })
        })
        const bombs = {
          "/flate.pdf": pdf("/Filter /FlateDecode", zeros),
          // 2 KB on the wire; the check before counted the outer stream only (about a megabyte).
          "/twice.pdf": pdf("/Filter [/FlateDecode /FlateDecode]", PdfBuilder.flate(zeros)),
          // LZW was not counted at all: PDF.js took 3 GB of memory for this one.
          "/lzw.pdf": pdf("/Filter /LZWDecode", PdfBuilder.lzwZeros(1024 * MiB)),
          "/fine.pdf": pdf(
            "/Filter [/ASCII85Decode /FlateDecode]",
            PdfBuilder.ascii85(PdfBuilder.flate(PdfBuilder.showText("fine")))
          )
        }
        const server = yield* LocalServer.start(bombs)
        const input = { urlPolicy: { allowHosts: ["127.0.0.1"] }, timeouts: { fetchUrls: 60_000 } }
        const before = process.memoryUsage().rss
        const response = yield* FetchUrls.fetchUrls({ urls: Object.keys(bombs).map((path) => server.url(path)) }).pipe(
          Effect.provide(live(input))
        )
        expect(response.results.map((result) => [result.url, result.content])).toEqual([
          [server.url("/fine.pdf"), "## Page 1\n\nfine"]
        ])
        expect(response.failures?.map((failure) => [failure.input, failure.reason, failure.message])).toEqual(
          ["/flate.pdf", "/twice.pdf", "/lzw.pdf"].map((path) => [
            server.url(path),
            "too_large",
            // The message names the origin only (a path or query may carry secrets).
            `the PDF at ${new URL(server.url(path)).origin} was not read: it decodes to more than ${128 * MiB} bytes`
          ])
        )
        // Counted, not decoded: far below the gibibyte each holds.
        expect(process.memoryUsage().rss - before).toBeLessThan(512 * MiB)
      }),
    150_000
  )

  it.scopedLive(
    "a PDF the count lets through cannot make PDF.js build a buffer over the budget: one stream joined 50 times",
    () =>
      Effect.gen(function* () {
        const MiB = 1024 * 1024
        // One content stream of 40 MiB (counted once: within the budget), listed 50 times in the page's contents,
        // which PDF.js joins into one buffer: 2 GB unbounded.
        const stream = yield* Effect.promise(() => PdfBuilder.flateZeros(40 * MiB))
        const body = PdfBuilder.pdf(
          { dict: "/Filter /FlateDecode", data: stream },
          [],
          undefined,
          `[${"4 0 R ".repeat(50)}]`
        )
        expect(PdfBudget.refusal(body)).toBeUndefined()
        const server = yield* LocalServer.start({
          "/joined.pdf": { headers: { "content-type": "application/pdf" }, body }
        })
        const input = { urlPolicy: { allowHosts: ["127.0.0.1"] }, timeouts: { fetchUrls: 60_000 } }
        const before = process.memoryUsage().rss
        const error = yield* Effect.flip(
          FetchUrls.fetchUrls({ urls: [server.url("/joined.pdf")] }).pipe(Effect.provide(live(input)))
        )
        // Compared as plain values: a failed deep match on an Effect error overflows the differ's stack.
        expect([error._tag, "reason" in error ? error.reason : undefined]).toEqual(["RequestFailed", "too_large"])
        expect(error.message).toMatch(/was not read: reading it needed a buffer of \d+ bytes/)
        expect(process.memoryUsage().rss - before).toBeLessThan(1024 * MiB)
      }),
    150_000
  )

  it.scopedLive(
    "a <pre> of spaces and a page of spaces never block the event loop; tables nested 600 deep come back well within the deadline",
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
        expect(response.results.map((r) => r.url)).toEqual([
          server.url("/pre"),
          server.url("/text"),
          server.url("/tables")
        ])
        expect(response.results[0].content).toBe("```\n" + spaces + "x\n```")
        expect(response.results[1].content).toBe(spaces + "y")
        // Readability is skipped (it was cubic in the nesting): the whole-page pass keeps the text.
        expect(response.results[2].content).toContain("x word word")
        expect(response.failures ?? []).toEqual([])
        // The old code blocked the loop for the whole extraction: its longest stall was about the whole call.
        expect(delay.max / 1e6).toBeLessThan(elapsed / 4)
      }),
    150_000
  )
})
