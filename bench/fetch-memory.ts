/**
 * Peak memory of fetching an endless body. A local server offers 1 GiB (chunked, no Content-Length, so nothing can
 * stop early on a header) and three child processes, one after the other, are measured by their peak RSS:
 *
 *   ours      the safe transport (default 5 MiB cap) fetches it `fetches` times; each stops at the cap
 *   baseline  plain undici `request` with the same cap, destroying the body at the cap
 *   idle      the same loader and imports, no fetch: what the process costs before any byte arrives
 *
 * The server runs in the measuring process, never in a measured one. The children run one esbuild bundle of this
 * file with plain node (no TypeScript loader in the measured process, as in production). Aim: ours below 150 MiB.
 *
 *   node --conditions=@websearch/source --import tsx bench/fetch-memory.ts     standalone, prints the three figures
 *   npm run bench -- fetch-memory               as a case of bench/run.ts
 */
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { request } from "undici"
import * as UrlPolicy from "../packages/core/src/UrlPolicy.js"
import * as SafeTransport from "../packages/node/src/SafeTransport.js"
import { bundleSelf, runChild } from "./support/child.js"

const GiB = 1024 * 1024 * 1024
const cap = SafeTransport.defaultMaxBodyBytes

/** One child's figures. */
export interface ChildFigures {
  readonly mode: "ours" | "baseline" | "idle"
  readonly peakRssMiB: number
  readonly fetches: number
  readonly bytesPerFetch: number
  readonly fetchesPerSecond: number
}

/** The three measurements and what the server actually sent. */
export interface Figures {
  readonly ours: ChildFigures
  readonly baseline: ChildFigures
  readonly idle: ChildFigures
  readonly offeredBytes: number
  readonly sentBytes: number
}

const endlessServer = (): Promise<{ server: Server; port: number; sent: () => number }> =>
  new Promise((resolve) => {
    let sent = 0
    const chunk = Buffer.alloc(64 * 1024, 120)
    const server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "application/octet-stream" })
      let offered = 0
      const pump = () => {
        while (offered < GiB && !response.destroyed) {
          offered += chunk.length
          sent += chunk.length
          if (!response.write(chunk)) {
            response.once("drain", pump)
            return
          }
        }
        response.end()
      }
      pump()
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, port: (server.address() as AddressInfo).port, sent: () => sent })
    )
  })

/** Runs the three children against one endless server and returns their figures. */
export const measure = async (fetches = 20): Promise<Figures> => {
  const dir = mkdtempSync(join(tmpdir(), "websearch-fetch-memory-"))
  const { server, port, sent } = await endlessServer()
  try {
    const script = await bundleSelf(import.meta.url, dir, "fetch-memory.mjs")
    const idle = await runChild<ChildFigures>(script, ["--child", "idle", String(port), String(fetches)])
    const baseline = await runChild<ChildFigures>(script, ["--child", "baseline", String(port), String(fetches)])
    const ours = await runChild<ChildFigures>(script, ["--child", "ours", String(port), String(fetches)])
    return { ours, baseline, idle, offeredBytes: GiB, sentBytes: sent() }
  } finally {
    server.closeAllConnections()
    server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const oursFetch = (url: string, port: number, fetches: number) =>
  Effect.gen(function* () {
    const transport = yield* SafeTransport.make({
      policy: UrlPolicy.make({ allowHosts: [`127.0.0.1:${port}`] })
    })
    for (let i = 0; i < fetches; i++) {
      const error = yield* Effect.flip(transport.request({ url }))
      if (error.reason !== "too_large") throw new Error(`expected too_large, got ${error.reason}: ${error.message}`)
    }
  }).pipe(Effect.scoped)

const baselineFetch = async (url: string, fetches: number) => {
  for (let i = 0; i < fetches; i++) {
    const response = await request(url)
    const chunks: Array<Buffer> = []
    let total = 0
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      total += chunk.length
      if (total > cap) {
        response.body.destroy()
        break
      }
      chunks.push(chunk)
    }
    if (total <= cap) throw new Error("the baseline read the whole endless body?")
  }
}

const child = async (mode: ChildFigures["mode"], port: number, fetches: number) => {
  const url = `http://127.0.0.1:${port}/endless`
  const start = performance.now()
  if (mode === "ours") await Effect.runPromise(oursFetch(url, port, fetches))
  if (mode === "baseline") await baselineFetch(url, fetches)
  const seconds = (performance.now() - start) / 1000
  const figures: ChildFigures = {
    mode,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    fetches: mode === "idle" ? 0 : fetches,
    bytesPerFetch: mode === "idle" ? 0 : cap,
    fetchesPerSecond: mode === "idle" ? 0 : fetches / seconds
  }
  process.stdout.write(JSON.stringify(figures))
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]
if (isMain) {
  const [flag, mode, port, fetches] = process.argv.slice(2)
  if (flag === "--child") {
    await child(mode as ChildFigures["mode"], Number(port), Number(fetches))
  } else {
    const figures = await measure()
    const row = (f: ChildFigures) =>
      `${f.mode.padEnd(9)} peak RSS ${f.peakRssMiB.toFixed(1).padStart(6)} MiB` +
      (f.fetches === 0 ? "" : `  ${f.fetches} fetches stopped at ${cap} bytes, ${f.fetchesPerSecond.toFixed(1)}/s`)
    console.log(row(figures.ours))
    console.log(row(figures.baseline))
    console.log(row(figures.idle))
    console.log(
      `server offered ${figures.offeredBytes} bytes per fetch, sent ${figures.sentBytes} in total; aim: ours < 150 MiB`
    )
  }
}
