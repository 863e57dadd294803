/**
 * Fanout: one `searchKeywords` of 20 keywords through the public API with the real Tavily driver over undici,
 * against a local Tavily mock that answers after a fixed latency, in the same run as the least any client must do
 * for the same 20 calls: a plain undici `request` + `JSON.parse` per keyword, all at once, on an undici Agent with
 * the same (default) pool settings as `NodeHttpClient.layerUndici`.
 *
 *   wall      the 20-keyword call at concurrency 20 against the 50 ms mock, versus the ideal: one latency
 *             (all 20 calls in flight at once). Aim: at most 1.2x. The default concurrency is 5, which makes the
 *             wall 4 latencies by design; that figure is reported too, against its own ideal (4 x 50 ms).
 *   overhead  the same 20-keyword call versus the undici + JSON.parse baseline on the same mock, median wall
 *             time of each, run alternately. Aim: at most 1.3x. Also against a 0 ms mock, where the latency hides
 *             nothing and the ratio is the raw CPU cost of the pipeline (no aim), with CPU time per call.
 *
 * Three processes. The mock runs in a child of its own: its work (parsing the body, building the answer, the
 * timer) would otherwise share the measured event loop and be counted against both sides, blurring the ratio
 * that is the point of the figure. It answers like Tavily (the shape of the providers' `tavily.json` fixture, 10
 * results per query, URLs per query so nothing is deduplicated away, a Content-Length as a JSON API sends) and
 * refuses a call without a Bearer key. Ours and the baseline run in a second child: an esbuild bundle of this
 * file run by plain node, as in production (under the tsx loader our side took 1.5 to 2x the CPU time, which is
 * the loader's cost, not ours). Its peak RSS is the figure's.
 *
 *   node --conditions=@websearch/source --import tsx bench/fanout.ts [runs]     standalone, prints the figures
 *   fused     5 keywords fused over 3 providers (each the Tavily driver under an id of its own) against the 50 ms
 *             mock (bench/fanoutFused.ts), versus the ideal: one latency. Aim: at most 1.2x.
 *
 *   npm run bench -- fanout                     as a case of bench/run.ts
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Agent, request } from "undici"
import * as SearchKeywords from "../packages/core/src/SearchKeywords.js"
import * as Settings from "../packages/core/src/Settings.js"
import * as WebSearch from "../packages/core/src/WebSearch.js"
import * as Tavily from "../packages/providers/src/Tavily.js"
import * as TavilyWire from "../packages/providers/src/internal/tavilyWire.js"
import { fused as fusedOurs, fusedKeywordCount, fusedProviderIds } from "./fanoutFused.js"
import { bundleSelf, runChild } from "./support/child.js"

/** The mock's latency, and so the ideal wall time of a fully concurrent fanout. */
export const latencyMs = 50
const keywordCount = 20
const apiKey = "tvly-bench-0123456789abcdef"
const keywords = Array.from({ length: keywordCount }, (_, i) => `effect typescript fanout ${i + 1}`)

interface Ports {
  /** The mock answering after `latencyMs`. */
  readonly slow: number
  /** The mock answering at once. */
  readonly fast: number
}

// --- the mock child: a local Tavily ---------------------------------------------------------------------------

interface Fixture {
  readonly response: { readonly body: { readonly results: ReadonlyArray<Record<string, unknown>> } }
}

// Resolved here, in the unbundled parent: the bundled children live elsewhere and are given the path.
const fixturePath = fileURLToPath(new URL("../packages/providers/test/fixtures/tavily.json", import.meta.url))

const serveMock = async (path: string) => {
  const body = (JSON.parse(readFileSync(path, "utf8")) as Fixture).response.body
  const template = body.results[0]
  const answer = (query: string, count: number): string =>
    JSON.stringify({
      ...body,
      query,
      // The driver asks for no answer, as Tavily then sends.
      answer: null,
      results: Array.from({ length: count }, (_, i) => ({
        ...template,
        title: `${String(template.title)} (${i + 1})`,
        url: `https://site${i}.example.com/${encodeURIComponent(query)}/${i + 1}`,
        score: Number((0.9 - i * 0.05).toFixed(8))
      }))
    })
  const handler = (latency: number) => (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const send = (status: number, text: string) => {
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
        res.end(text)
      }
      if (req.method !== "POST" || req.url !== "/search") return send(404, JSON.stringify({ detail: "not found" }))
      if (!(req.headers.authorization ?? "").startsWith("Bearer ")) {
        return send(401, JSON.stringify({ detail: { error: "Unauthorized: missing or invalid API key." } }))
      }
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { query: string; max_results?: number }
      const text = answer(request.query, Math.min(10, request.max_results ?? 10))
      if (latency === 0) send(200, text)
      else setTimeout(() => send(200, text), latency)
    })
  }
  const listen = (latency: number) =>
    new Promise<number>((resolve) => {
      const server = createServer(handler(latency))
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port))
    })
  const ports: Ports = { slow: await listen(latencyMs), fast: await listen(0) }
  process.stdout.write(`${JSON.stringify(ports)}\n`)
  process.stdin.resume()
  process.stdin.on("end", () => process.exit(0))
}

// --- the measuring child: ours and the baseline -----------------------------------------------------------------

/** The whole of websearch with the Tavily driver over undici, pointed at the mock. */
const ours = (port: number, concurrency: number) => {
  const origin = `http://127.0.0.1:${port}`
  const runtime = ManagedRuntime.make(
    WebSearch.layer(Tavily.layer).pipe(
      Layer.provide(NodeHttpClient.layerUndici),
      Layer.provideMerge(
        Settings.layer({
          defaults: { searchKeywords: "tavily" },
          concurrency,
          providers: {
            tavily: {
              apiKeys: [apiKey],
              capabilities: { searchKeywords: { apiHost: origin } },
              // Tavily's published 100 calls a minute would throttle the bench after five runs.
              rateLimit: { limit: 1_000_000, window: "1 second" }
            }
          },
          urlPolicy: { allowHosts: [`127.0.0.1:${port}`] }
        })
      )
    )
  )
  return {
    run: async () => {
      const response = await runtime.runPromise(SearchKeywords.searchKeywords({ keywords }))
      // A misconfigured bench would time the error path: every keyword must come back with its 10 results.
      if (response.failures.length > 0 || response.results.length !== keywordCount * 10) {
        throw new Error(
          `fanout: expected ${keywordCount * 10} results and no failures, got ${response.results.length} results, ` +
            `failures ${JSON.stringify(response.failures)}`
        )
      }
    },
    dispose: () => runtime.dispose()
  }
}

/**
 * The baseline: what a hand-written client does for the same 20 calls — the same request Tavily's driver sends,
 * undici's `request` on an Agent of its own (what `layerUndici` builds), the body read as text and JSON.parse'd.
 */
const baseline = (port: number) => {
  const agent = new Agent()
  const url = `http://127.0.0.1:${port}/search`
  const headers = {
    authorization: `Bearer ${apiKey}`,
    accept: "application/json",
    "content-type": "application/json"
  }
  const one = async (keyword: string) => {
    const { statusCode, body } = await request(url, {
      dispatcher: agent,
      method: "POST",
      headers,
      body: JSON.stringify(TavilyWire.searchBody(keyword, 10))
    })
    const json = JSON.parse(await body.text()) as { results: ReadonlyArray<unknown> }
    if (statusCode !== 200 || json.results.length !== 10) throw new Error(`baseline: the mock answered ${statusCode}`)
    return json.results
  }
  return {
    run: async () => {
      await Promise.all(keywords.map(one))
    },
    dispose: () => agent.close()
  }
}

interface Sample {
  readonly wall: number
  readonly cpu: number
}

const sample = async (run: () => Promise<void>): Promise<Sample> => {
  const cpu = process.cpuUsage()
  const start = performance.now()
  await run()
  const wall = performance.now() - start
  const used = process.cpuUsage(cpu)
  return { wall, cpu: (used.user + used.system) / 1000 }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Median wall and CPU milliseconds of one 20-keyword call, each side. */
export interface Pair {
  readonly ours: Sample
  readonly baseline: Sample
  readonly runs: number
}

/**
 * Runs ours and the baseline alternately (who goes first alternates too, so a GC pause left by one side does not
 * always land on the other) after a warm-up, and returns the median of each.
 */
const compare = async (a: () => Promise<void>, b: () => Promise<void>, runs: number, warmup: number): Promise<Pair> => {
  for (let i = 0; i < warmup; i++) {
    await a()
    await b()
  }
  const as: Array<Sample> = []
  const bs: Array<Sample> = []
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      as.push(await sample(a))
      bs.push(await sample(b))
    } else {
      bs.push(await sample(b))
      as.push(await sample(a))
    }
  }
  const mid = (list: ReadonlyArray<Sample>): Sample => ({
    wall: median(list.map((s) => s.wall)),
    cpu: median(list.map((s) => s.cpu))
  })
  return { ours: mid(as), baseline: mid(bs), runs }
}

/** The figures: medians of one 20-keyword call. */
export interface Figures {
  readonly keywords: number
  readonly latencyMs: number
  /** Concurrency 20 against the `latencyMs` mock: ours and the undici baseline. */
  readonly slow: Pair
  /** Ours at the default concurrency (5), against the same mock; its ideal is `ceil(20 / 5) x latencyMs`. */
  readonly defaultConcurrency: { readonly concurrency: number; readonly wall: number; readonly ideal: number }
  /** Concurrency 20 against the 0 ms mock. */
  readonly fast: Pair
  /** A fused search against the `latencyMs` mock: its median wall, whose ideal is one latency. */
  readonly fused: {
    readonly keywords: number
    readonly providers: number
    readonly wall: number
    /** The same keywords on one of the providers alone. */
    readonly single: number
    readonly runs: number
  }
  /** The measuring process's peak RSS (ours and the baseline; the mock is elsewhere). */
  readonly peakRssMiB: number
}

// The measuring child: ours and the baseline against the mock's two ports.
const measureIn = async (ports: Ports, runs: number): Promise<Figures> => {
  const sides: Array<{ dispose: () => Promise<void> }> = []
  const track = <A extends { dispose: () => Promise<void> }>(side: A): A => {
    sides.push(side)
    return side
  }
  try {
    const slowOurs = track(ours(ports.slow, keywordCount))
    const slowBaseline = track(baseline(ports.slow))
    const slow = await compare(slowOurs.run, slowBaseline.run, runs, 20)

    const concurrency = Settings.defaults.concurrency
    const defaultOurs = track(ours(ports.slow, concurrency))
    for (let i = 0; i < 5; i++) await defaultOurs.run()
    const walls: Array<number> = []
    for (let i = 0; i < Math.max(5, Math.round(runs / 4)); i++) walls.push((await sample(defaultOurs.run)).wall)

    const fastOurs = track(ours(ports.fast, keywordCount))
    const fastBaseline = track(baseline(ports.fast))
    const fast = await compare(fastOurs.run, fastBaseline.run, runs * 3, 100)

    const fusedSide = track(fusedOurs(ports.slow, apiKey))
    const fusedPair = await compare(fusedSide.run, fusedSide.single, runs, 20)
    return {
      keywords: keywordCount,
      latencyMs,
      slow,
      defaultConcurrency: {
        concurrency,
        wall: median(walls),
        ideal: Math.ceil(keywordCount / concurrency) * latencyMs
      },
      fast,
      fused: {
        keywords: fusedKeywordCount,
        providers: fusedProviderIds.length,
        wall: fusedPair.ours.wall,
        single: fusedPair.baseline.wall,
        runs: fusedPair.runs
      },
      peakRssMiB: process.resourceUsage().maxRSS / 1024
    }
  } finally {
    for (const side of sides) await side.dispose()
  }
}

// --- the parent: bundles, starts both children ----------------------------------------------------------------

const startMock = async (script: string) => {
  const child = spawn(process.execPath, [script, "--mock", fixturePath], { stdio: ["pipe", "pipe", "inherit"] })
  const ports = await new Promise<Ports>((resolve, reject) => {
    let out = ""
    child.stdout.on("data", (data: Buffer) => {
      out += data.toString("utf8")
      const newline = out.indexOf("\n")
      if (newline >= 0) resolve(JSON.parse(out.slice(0, newline)) as Ports)
    })
    child.once("exit", (code) => reject(new Error(`the fanout mock exited with ${code}`)))
  })
  return {
    ports,
    stop: () => {
      child.stdin.end()
      child.kill()
    }
  }
}

/**
 * Bundles this file, starts the mock child and runs the measuring child against it. `runs` is the number of
 * timed calls per side against the 50 ms mock (three times as many against the 0 ms one).
 */
export const measure = async (runs = 100): Promise<Figures> => {
  // Under node_modules so the bundle's one external (esbuild, imported by the bundling helper) resolves.
  const root = fileURLToPath(new URL("../node_modules/.cache/", import.meta.url))
  mkdirSync(root, { recursive: true })
  const dir = mkdtempSync(join(root, "websearch-bench-fanout-"))
  try {
    const script = await bundleSelf(import.meta.url, dir, "fanout.mjs", ["esbuild"])
    const mock = await startMock(script)
    try {
      return await runChild<Figures>(script, [
        "--measure",
        String(mock.ports.slow),
        String(mock.ports.fast),
        String(runs)
      ])
    } finally {
      mock.stop()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const main = async () => {
  const runs = Number(process.argv[2] ?? 100)
  const f = await measure(runs)
  const ms = (n: number) => `${n.toFixed(2)} ms`
  console.log(`fanout: ${f.keywords} keywords, Tavily driver over undici, local mock; medians of ${f.slow.runs} runs`)
  console.log(
    `wall, concurrency ${f.keywords}, ${f.latencyMs} ms mock  ${ms(f.slow.ours.wall)} vs ideal ${ms(f.latencyMs)}: ` +
      `${(f.slow.ours.wall / f.latencyMs).toFixed(3)}x (aim <= 1.2)`
  )
  console.log(
    `wall, default concurrency ${f.defaultConcurrency.concurrency}       ${ms(f.defaultConcurrency.wall)} vs ideal ` +
      `${ms(f.defaultConcurrency.ideal)}: ${(f.defaultConcurrency.wall / f.defaultConcurrency.ideal).toFixed(3)}x ` +
      `(${(f.defaultConcurrency.wall / f.latencyMs).toFixed(2)}x one latency, by design)`
  )
  console.log(
    `overhead, ${f.latencyMs} ms mock             ${ms(f.slow.ours.wall)} vs undici + JSON.parse ` +
      `${ms(f.slow.baseline.wall)}: ${(f.slow.ours.wall / f.slow.baseline.wall).toFixed(3)}x (aim <= 1.3)`
  )
  console.log(
    `overhead, 0 ms mock               ${ms(f.fast.ours.wall)} vs undici + JSON.parse ${ms(f.fast.baseline.wall)}: ` +
      `${(f.fast.ours.wall / f.fast.baseline.wall).toFixed(3)}x (no aim; ${f.fast.runs} runs)`
  )
  console.log(
    `CPU per call, 0 ms mock           ${ms(f.fast.ours.cpu)} vs ${ms(f.fast.baseline.cpu)}: ` +
      `${(f.fast.ours.cpu / f.fast.baseline.cpu).toFixed(3)}x; ` +
      `${(((f.fast.ours.cpu - f.fast.baseline.cpu) / f.keywords) * 1000).toFixed(0)} µs more per keyword`
  )
  console.log(
    `wall, fused ${f.fused.keywords} keywords x ${f.fused.providers} providers ${ms(f.fused.wall)} vs ideal ` +
      `${ms(f.latencyMs)}: ${(f.fused.wall / f.latencyMs).toFixed(3)}x (aim <= 1.2; ${f.fused.runs} runs)`
  )
  console.log(
    `wall, fused vs one provider alone   ${ms(f.fused.wall)} vs ${ms(f.fused.single)}: ` +
      `${(f.fused.wall / f.fused.single).toFixed(3)}x (the same ${f.fused.keywords} keywords)`
  )
  console.log(`peak RSS ${f.peakRssMiB.toFixed(0)} MiB (ours and the baseline, one process; the mock is another)`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, ...args] = process.argv.slice(2)
  if (mode === "--mock") await serveMock(args[0])
  else if (mode === "--measure") {
    const figures = await measureIn({ slow: Number(args[0]), fast: Number(args[1]) }, Number(args[2]))
    process.stdout.write(JSON.stringify(figures))
  } else await main()
}
