import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { monitorEventLoopDelay } from "node:perf_hooks"
import * as zlib from "node:zlib"
import * as Fetch from "../src/Fetch.js"
import * as LocalServer from "./support/localServer.js"

const live = (input: Settings.SettingsInput) =>
  WebSearch.layer(Fetch.layerWith()).pipe(Layer.provideMerge(Settings.layer(input)))

// Under the old inline threshold (64 KiB), so the old code extracted these on the calling thread.
const spaces = " ".repeat(60 * 1024)
// A 6 KiB page Readability needed minutes for (tables nested 600 deep); extraction now prices nesting first.
const nestedTables = `<html><body>${"<table><tr><td>".repeat(600)}x ${"word ".repeat(50)}</body></html>`

/** A valid one-page PDF whose content stream is `mib` MiB of zeros, FlateDecode: a few hundred KiB on the wire. */
const pdfBomb = async (mib: number): Promise<Uint8Array> => {
  const deflate = zlib.createDeflate({ level: 9 })
  const chunks: Array<Buffer> = []
  deflate.on("data", (chunk: Buffer) => chunks.push(chunk))
  const zeros = Buffer.alloc(1024 * 1024)
  for (let i = 0; i < mib; i++)
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once("drain", resolve))
  await new Promise((resolve) => deflate.end(resolve))
  const stream = Buffer.concat(chunks)
  const parts: Array<Buffer> = []
  const offsets: Array<number> = []
  let length = 0
  const add = (part: string | Buffer) => {
    const buffer = typeof part === "string" ? Buffer.from(part, "latin1") : part
    parts.push(buffer)
    length += buffer.length
  }
  add("%PDF-1.4\n")
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"
  ]
  objects.forEach((body, i) => {
    offsets.push(length)
    add(`${i + 1} 0 obj\n${body}\nendobj\n`)
  })
  offsets.push(length)
  add(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`)
  add(stream)
  add("\nendstream\nendobj\n")
  const xref = length
  add(`xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`)
  add(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`)
  return Buffer.concat(parts)
}

describe("hostile pages through the fetch provider", () => {
  it.scopedLive(
    "a PDF whose stream inflates far beyond the budget fails too_large before PDF.js inflates it",
    () =>
      Effect.gen(function* () {
        const bomb = yield* Effect.promise(() => pdfBomb(1024))
        // 1 GiB of zeros in about a megabyte: under the 5 MiB body cap.
        expect(bomb.length).toBeLessThan(2 * 1024 * 1024)
        const server = yield* LocalServer.start({
          "/bomb.pdf": { headers: { "content-type": "application/pdf" }, body: bomb }
        })
        const input = { urlPolicy: { allowHosts: ["127.0.0.1"] }, timeouts: { fetchUrls: 60_000 } }
        const before = process.memoryUsage().rss
        // The only input failed, so the call fails with its error.
        const error = yield* Effect.flip(
          FetchUrls.fetchUrls({ urls: [server.url("/bomb.pdf")] }).pipe(Effect.provide(live(input)))
        )
        expect(error).toMatchObject({ _tag: "RequestFailed", reason: "too_large" })
        // Inflated in bounded pieces: far below the gibibyte the stream holds.
        expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024)
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
