/**
 * Crawl throughput and memory. A generated loopback site (10,000 pages, in the measuring process) is crawled by
 * child processes, one after the other, each measured by its own peak RSS:
 *
 *   ours       `CrawlSite.crawlSite` with the local fetcher (the whole stack: URL policy, safe transport, extraction,
 *              links, the frontier), politeness off (`delay: 0`), `concurrency` pages in flight
 *   baseline   a plain loop over the same pages' URLs: undici `request` + our extraction (`Extract.extractAsync`), at
 *              the same concurrency — what a crawler costs at least, with nothing of ours around it
 *   ours-4x    the same crawl, four times as many pages: peak RSS should stay flat in the number of pages
 *
 * Aims: pages per second ≥ 0.8× the baseline's; memory flat in the number of pages: the heap live at the last page
 * of 4,000 within 1.25× that of 1,000 (peak RSS is reported too; it also counts garbage V8 has not collected yet).
 * The children run one esbuild bundle of this file with plain node, as in production.
 *
 *   node --conditions=@websearch/source --import tsx bench/crawl.ts     standalone, prints the figures
 *   npm run bench -- crawl                                              as a case of bench/run.ts
 */
import * as CrawlSite from "../packages/core/src/CrawlSite.js"
import * as FetchUrls from "../packages/core/src/FetchUrls.js"
import * as Settings from "../packages/core/src/Settings.js"
import * as WebSearch from "../packages/core/src/WebSearch.js"
import * as Extract from "../packages/extract/src/Extract.js"
import * as Fetch from "../packages/node/src/Fetch.js"
import * as GeneratedSite from "../test-support/generatedSite.js"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { request } from "undici"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { bundleSelf, runChild } from "./support/child.js"

/** One child's figures. */
export interface ChildFigures {
  readonly mode: "ours" | "fetch" | "baseline"
  readonly pages: number
  readonly seconds: number
  readonly pagesPerSecond: number
  readonly peakRssMiB: number
  /** The heap live at the crawl's last page, after a full collection (ours only). */
  readonly liveHeapMiB?: number
}

/** The three runs. */
export interface Figures {
  readonly concurrency: number
  readonly ours: ChildFigures
  /** The same pages through `fetchUrls` (no frontier, no links): the share of the gap that is reading a page. */
  readonly fetched: ChildFigures
  readonly baseline: ChildFigures
  readonly oursLarge: ChildFigures
}

const concurrency = 8
let liveHeapMiB: number | undefined

// A full collection, then the heap in use: what the crawl holds, apart from garbage V8 has not collected yet (peak
// RSS counts that too, and V8 lets the heap grow with the work before it collects).
const liveHeap = (): number => {
  setFlagsFromString("--expose-gc")
  ;(runInNewContext("gc") as () => void)()
  return process.memoryUsage().heapUsed / 2 ** 20
}

// The application's layer, built before the clock starts: a server builds it once, not per crawl.
const application = ManagedRuntime.make(
  // Pages of this site are small: extracted inline, as production does below the worker threshold.
  WebSearch.layer(Fetch.layerWith({ workers: false })).pipe(
    Layer.provide(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] }, concurrency }))
  )
)

const oursCrawl = (origin: string, pages: number) =>
  CrawlSite.crawlSite({ url: `${origin}/p/0`, maxPages: pages, maxDepth: 10, concurrency, delay: 0 }).pipe(
    Stream.runFold(0, (read, event) => {
      if (event._tag !== "CrawlPage") return read
      // The heap live while the crawl still runs, at its last page.
      if (read + 1 === pages) liveHeapMiB = liveHeap()
      return read + 1
    }),
    // stdout carries the child's figures only.
    Logger.withMinimumLogLevel(LogLevel.Error)
  )

// The same pages read by `fetchUrls`, one URL a call, 8 calls at once: what the crawl costs beyond reading pages.
const fetchPages = (origin: string, pages: number) =>
  Effect.forEach(
    Array.from({ length: pages }, (_, i) => `${origin}/p/${i}`),
    (url) => Effect.map(FetchUrls.fetchUrls({ urls: [url] }), (response) => response.results.length),
    { concurrency }
  ).pipe(
    Effect.map((counts) => counts.reduce((a, b) => a + b, 0)),
    Logger.withMinimumLogLevel(LogLevel.Error)
  )

const baselineCrawl = async (origin: string, pages: number): Promise<number> => {
  let next = 0
  let read = 0
  const worker = async () => {
    while (next < pages) {
      const url = `${origin}/p/${next++}`
      const response = await request(url)
      const body = new Uint8Array(await response.body.arrayBuffer())
      const document = await Extract.extractAsync({ body, contentType: String(response.headers["content-type"]), url })
      if (document._tag === "Right") read++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return read
}

const child = async (mode: ChildFigures["mode"], origin: string, pages: number) => {
  if (mode !== "baseline") await application.runPromise(Effect.void)
  const start = performance.now()
  const read =
    mode === "ours"
      ? await application.runPromise(oursCrawl(origin, pages))
      : mode === "fetch"
        ? await application.runPromise(fetchPages(origin, pages))
        : await baselineCrawl(origin, pages)
  const seconds = (performance.now() - start) / 1000
  if (read !== pages) throw new Error(`${mode} read ${read} pages of ${pages}`)
  const figures: ChildFigures = {
    mode,
    pages: read,
    seconds,
    pagesPerSecond: read / seconds,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    ...(liveHeapMiB === undefined ? {} : { liveHeapMiB })
  }
  process.stdout.write(JSON.stringify(figures))
  if (mode !== "baseline") await application.dispose()
}

/** Serves the site here and runs the children against it. */
export const measure = async (pages = 1_000): Promise<Figures> => {
  const dir = mkdtempSync(join(tmpdir(), "websearch-crawl-bench-"))
  const run = Effect.gen(function* () {
    const site = yield* GeneratedSite.start({ pages: 10_000 })
    const script = yield* Effect.promise(() => bundleSelf(import.meta.url, dir, "crawl.mjs"))
    const go = (mode: ChildFigures["mode"], n: number) =>
      Effect.promise(() => runChild<ChildFigures>(script, ["--child", mode, site.origin, String(n)]))
    // Baseline first, then ours: the server's state is the same for both (pages are generated per request).
    const baseline = yield* go("baseline", pages)
    const ours = yield* go("ours", pages)
    const fetched = yield* go("fetch", pages)
    const oursLarge = yield* go("ours", pages * 4)
    return { concurrency, ours, fetched, baseline, oursLarge }
  })
  try {
    return await Effect.runPromise(Effect.scoped(run))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]
if (isMain) {
  const [flag, mode, origin, pages] = process.argv.slice(2)
  if (flag === "--child") {
    await child(mode as ChildFigures["mode"], origin!, Number(pages))
  } else {
    const f = await measure()
    const row = (name: string, c: ChildFigures) =>
      `${name.padEnd(9)} ${String(c.pages).padStart(5)} pages in ${c.seconds.toFixed(1)} s: ` +
      `${c.pagesPerSecond.toFixed(1)} pages/s, peak RSS ${c.peakRssMiB.toFixed(1)} MiB` +
      (c.liveHeapMiB === undefined ? "" : `, live heap ${c.liveHeapMiB.toFixed(1)} MiB`)
    console.log(row("ours", f.ours))
    console.log(row("fetchUrls", f.fetched))
    console.log(row("baseline", f.baseline))
    console.log(row("ours-4x", f.oursLarge))
    console.log(
      `throughput ratio ${(f.ours.pagesPerSecond / f.baseline.pagesPerSecond).toFixed(2)} (aim >= 0.8); ` +
        `live heap 4x/1x ${((f.oursLarge.liveHeapMiB ?? 0) / (f.ours.liveHeapMiB ?? 1)).toFixed(2)} (aim <= 1.25), ` +
        `peak RSS 4x/1x ${(f.oursLarge.peakRssMiB / f.ours.peakRssMiB).toFixed(2)}; concurrency ${f.concurrency}`
    )
  }
}
