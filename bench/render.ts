/**
 * Rendering against plain fetching of the same local pages, in the same run. A local server offers `pages` pages,
 * each with a server-rendered introduction and a script that fetches five more paragraphs from a JSON endpoint.
 * Two child processes, one after the other, fetch every page through the `fetch` provider, round after round:
 *
 *   plain     render: "never" (what the server sent)
 *   rendered  render: "always" (Chromium through the BrowserRenderer, default pool of 2 pages at once)
 *
 * Each reports pages per second (after one warm-up round, which for `rendered` includes starting Chromium), the
 * characters of content per page, its own peak RSS, and for `rendered` the peak memory of Chromium's processes
 * (the sum of their PSS, sampled every 100 ms: RSS would count the pages they share once per process).
 *
 * The server runs in the measuring process, never in a measured one. The children run one esbuild bundle of this
 * file with plain node (playwright-core stays a package, loaded from node_modules).
 *
 *   node --conditions=@websearch/source --import tsx bench/render.ts     standalone, prints the figures
 *   npm run bench -- render               as a case of bench/run.ts
 */
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as FetchUrls from "../packages/core/src/FetchUrls.js"
import * as Settings from "../packages/core/src/Settings.js"
import * as WebSearch from "../packages/core/src/WebSearch.js"
import * as BrowserRenderer from "../packages/node/src/BrowserRenderer.js"
import * as Fetch from "../packages/node/src/Fetch.js"
import { bundleSelf, runChild } from "./support/child.js"

/** One child's figures. */
export interface ChildFigures {
  readonly mode: "plain" | "rendered"
  readonly pages: number
  readonly pagesPerSecond: number
  readonly charsPerPage: number
  readonly warmupMs: number
  readonly peakRssMiB: number
  /** Peak of the summed PSS of Chromium's processes; 0 for `plain`. */
  readonly browserPeakPssMiB: number
}

/** Both measurements. */
export interface Figures {
  readonly plain: ChildFigures
  readonly rendered: ChildFigures
}

const paragraph = (page: number, i: number) =>
  `Paragraph ${i} of page ${page}: layers describe how services are built, fibers run them, and errors are values.`

const siteServer = (pages: number): Promise<{ server: Server; port: number }> =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      const page = /^\/page\/(\d+)$/.exec(request.url ?? "")
      const api = /^\/api\/(\d+)$/.exec(request.url ?? "")
      if (page !== null && Number(page[1]) < pages) {
        const n = Number(page[1])
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
        response.end(`<!doctype html><html><head><title>Page ${n}</title></head><body>
<nav><a href="/">Home</a></nav><article><h1>Page ${n}</h1><p>${paragraph(n, 0)}</p><div id="more"></div></article>
<script>fetch("/api/${n}").then((r) => r.json()).then((ps) => {
  document.getElementById("more").innerHTML = ps.map((p) => "<p>" + p + "</p>").join("")
})</script></body></html>`)
        return
      }
      if (api !== null) {
        const n = Number(api[1])
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify([1, 2, 3, 4, 5].map((i) => paragraph(n, i))))
        return
      }
      response.writeHead(404)
      response.end()
    })
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as AddressInfo).port }))
  })

/** Runs both children against one local site and returns their figures. */
export const measure = async (pages = 20): Promise<Figures> => {
  const root = fileURLToPath(new URL("../node_modules/.cache/", import.meta.url))
  mkdirSync(root, { recursive: true })
  const dir = mkdtempSync(join(root, "websearch-bench-render-"))
  const { port, server } = await siteServer(pages)
  try {
    const script = await bundleSelf(import.meta.url, dir, "render.mjs", ["playwright-core", "esbuild"])
    const plain = await runChild<ChildFigures>(script, ["--child", "plain", String(port), String(pages)], 180_000)
    const rendered = await runChild<ChildFigures>(script, ["--child", "rendered", String(port), String(pages)], 180_000)
    return { plain, rendered }
  } finally {
    server.closeAllConnections()
    server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

// --- the measured child --------------------------------------------------------------------------------------

const descendants = (root: number): Array<number> => {
  const children = new Map<number, Array<number>>()
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8")
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)])
    } catch {
      // gone already
    }
  }
  const out: Array<number> = []
  const queue = [root]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      out.push(child)
      queue.push(child)
    }
  }
  return out
}

const pssKiB = (pid: number): number => {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))
    return match === null ? 0 : Number(match[1])
  } catch {
    return 0
  }
}

const child = async (mode: ChildFigures["mode"], port: number, pages: number) => {
  const urls = Array.from({ length: pages }, (_, i) => `http://127.0.0.1:${port}/page/${i}`)
  const settings = Settings.layer({ urlPolicy: { allowHosts: [`127.0.0.1:${port}`] }, concurrency: 5 })
  const fetch =
    mode === "plain"
      ? Fetch.layerWith({ render: "never", workers: false })
      : Fetch.layerWith({ render: "always", workers: false }).pipe(Layer.provide(BrowserRenderer.layer()))
  const runtime = ManagedRuntime.make(WebSearch.layer(fetch).pipe(Layer.provideMerge(settings)))
  let browserPeakKiB = 0
  const sampler = setInterval(() => {
    const total = descendants(process.pid).reduce((sum, pid) => sum + pssKiB(pid), 0)
    browserPeakKiB = Math.max(browserPeakKiB, total)
  }, 100)
  const round = async () => {
    const response = await runtime.runPromise(FetchUrls.fetchUrls({ urls }))
    if (response.failures.length > 0) throw new Error(`failures: ${JSON.stringify(response.failures[0])}`)
    return response.results.reduce((sum, r) => sum + r.content.length, 0) / response.results.length
  }
  const warmStart = performance.now()
  await round()
  const warmupMs = performance.now() - warmStart
  let fetched = 0
  let chars = 0
  const start = performance.now()
  while (performance.now() - start < 6_000) {
    chars = await round()
    fetched += pages
  }
  const seconds = (performance.now() - start) / 1000
  clearInterval(sampler)
  await runtime.dispose()
  const figures: ChildFigures = {
    mode,
    pages: fetched,
    pagesPerSecond: fetched / seconds,
    charsPerPage: chars,
    warmupMs,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    browserPeakPssMiB: browserPeakKiB / 1024
  }
  process.stdout.write(JSON.stringify(figures))
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]
if (isMain) {
  const [flag, mode, port, pages] = process.argv.slice(2)
  if (flag === "--child") {
    await child(mode as ChildFigures["mode"], Number(port), Number(pages))
  } else {
    const figures = await measure()
    const row = (f: ChildFigures) =>
      `${f.mode.padEnd(9)} ${f.pagesPerSecond.toFixed(1).padStart(7)} pages/s  ${f.charsPerPage.toFixed(0).padStart(5)} chars/page  ` +
      `warm-up ${f.warmupMs.toFixed(0).padStart(5)} ms  peak RSS ${f.peakRssMiB.toFixed(0)} MiB` +
      (f.mode === "rendered" ? ` + Chromium peak PSS ${f.browserPeakPssMiB.toFixed(0)} MiB` : "")
    console.log(row(figures.plain))
    console.log(row(figures.rendered))
  }
}
