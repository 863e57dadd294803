/**
 * Benchmarks, each reported as a ratio against a baseline measured in the same run, with the peak RSS of the
 * process that ran it. Every case runs in its own child process so one case's memory does not hide another's.
 *
 *   npm run bench                 all cases
 *   npm run bench -- pipeline     one case by name
 *
 * Results are printed as a table and written to bench/results/latest.json.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Blacklist from "../packages/core/src/Blacklist.js"
import * as Compression from "../packages/core/src/Compression.js"
import * as ContentBudget from "../packages/core/src/ContentBudget.js"
import * as Preset from "../packages/core/src/Preset.js"
import * as ProviderRegistry from "../packages/core/src/ProviderRegistry.js"
import * as SearchKeywords from "../packages/core/src/SearchKeywords.js"
import * as Settings from "../packages/core/src/Settings.js"
import * as WebSearch from "../packages/core/src/WebSearch.js"
import type { WebSearchResult } from "../packages/core/src/WebSearchResponse.js"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"

interface Measured {
  readonly case: string
  readonly what: string
  readonly oursPerSecond: number
  readonly baselinePerSecond: number
  /** ours / baseline time: 1.0 means as fast as the baseline, 2.0 means twice as slow. */
  readonly timeRatio: number
  readonly peakRssMiB: number
}

/** Runs `fn` repeatedly for about `ms` milliseconds after a warm-up and returns operations per second. */
const rate = async (fn: () => unknown | Promise<unknown>, ms = 1500): Promise<number> => {
  const deadline = performance.now() + ms / 4
  while (performance.now() < deadline) await fn()
  let count = 0
  const start = performance.now()
  let now = start
  while (now - start < ms) {
    await fn()
    count++
    now = performance.now()
  }
  return (count * 1000) / (now - start)
}

const words = "effect schema layer fiber stream search fetch provider budget token chunk ranker query result".split(" ")
const text = (chars: number, seed: number): string => {
  let out = ""
  let i = seed
  while (out.length < chars) {
    out += words[(i * 7 + 3) % words.length] + (i % 13 === 0 ? ".\n\n" : " ")
    i++
  }
  return out.slice(0, chars)
}

const results = (count: number, chars: number): Array<WebSearchResult> =>
  Array.from({ length: count }, (_, i) => ({
    title: `Result ${i}`,
    content: text(chars, i),
    url: `https://site${i % 7}.example.com/page/${i}`,
    sourceInput: "q"
  }))

// A case that measures other processes reports their peak RSS itself (`peakRssMiB`).
const cases: Record<
  string,
  () => Promise<Omit<Measured, "case" | "peakRssMiB"> & { readonly peakRssMiB?: number | undefined }>
> = {
  // The whole searchKeywords pipeline (validation, resolution, fanout, merge, blacklist, dedupe, budget) against
  // the bare fanout of the same driver calls: what the pipeline costs on top of the providers.
  pipeline: async () => {
    const answers = results(10, 400).map(({ sourceInput: _, ...r }) => r)
    const driver = { preset: Preset.byId.get("duckduckgo")!, searchKeywords: () => Effect.succeed(answers) }
    const keywords = Array.from({ length: 20 }, (_, i) => `keyword ${i}`)
    const runtime = ManagedRuntime.make(
      ProviderRegistry.register(driver).pipe(
        Layer.provideMerge(WebSearch.layer),
        Layer.provide(Settings.layer({ blacklist: ["*://*.blocked.example/*"] }))
      )
    )
    const ours = await rate(() => runtime.runPromise(SearchKeywords.searchKeywords({ keywords })))
    const baseline = await rate(() =>
      Effect.runPromise(Effect.forEach(keywords, () => driver.searchKeywords(), { concurrency: 5 }))
    )
    await runtime.dispose()
    return {
      what: "searchKeywords, 20 keywords x 10 results, in-memory driver; baseline: bare Effect.forEach of the driver",
      oursPerSecond: ours,
      baselinePerSecond: baseline,
      timeRatio: baseline / ours
    }
  },
  // Compiled blacklist (200 host patterns, 5 regexes) against the obvious implementation: one RegExp per entry.
  blacklist: async () => {
    const entries = [
      ...Array.from({ length: 200 }, (_, i) => `*://*.blocked${i}.example.com/*`),
      ...Array.from({ length: 5 }, (_, i) => `/tracking${i}=/`)
    ]
    const matcher = Either.getOrThrow(Blacklist.compile(entries))
    const naive = entries.map((entry) =>
      entry.startsWith("/")
        ? new RegExp(entry.slice(1, -1), "i")
        : new RegExp(`^https?://([^/]*\\.)?${entry.slice(6, -2).replace(/\./g, "\\.")}/`, "i")
    )
    const urls = Array.from({ length: 1000 }, (_, i) => `https://www.site${i}.example.org/path/${i}?q=${i}`)
    const ours = await rate(() => urls.filter((u) => !matcher.test(u)))
    const baseline = await rate(() => urls.filter((u) => !naive.some((re) => re.test(u))))
    return {
      what: "1000 URLs against 205 entries; baseline: one RegExp per entry",
      oursPerSecond: ours,
      baselinePerSecond: baseline,
      timeRatio: baseline / ours
    }
  },
  // Token budget (binary search over code points with the estimator) against the least any token budget must
  // do: count the tokens of every content once.
  budget: async () => {
    const input = results(20, 20_000)
    const budget = { method: "cutoff", unit: "tokens", limit: 8000 } as const
    const counter = { count: ContentBudget.estimateTokens }
    const ours = await rate(() => ContentBudget.apply(input, budget, counter))
    const baseline = await rate(() => input.map((r) => counter.count(r.content)))
    return {
      what: "cutoff 8000 tokens over 20 x 20 KB results; baseline: counting each content's tokens once",
      oursPerSecond: ours,
      baselinePerSecond: baseline,
      timeRatio: baseline / ours
    }
  },
  // BM25 rank compression against chunking alone: the cost of scoring.
  rank: async () => {
    const input = results(20, 20_000)
    const compression = { method: "rank", chunkSize: 1000, topChunks: 3 } as const
    const ours = await rate(() => Effect.runPromise(Compression.compress(input, "fiber stream ranker", compression)))
    const baseline = await rate(() => input.map((r) => Compression.chunkContent(r.content, 1000)))
    return {
      what: "rank top 3 of 1000-char chunks over 20 x 20 KB; baseline: chunking only",
      oursPerSecond: ours,
      baselinePerSecond: baseline,
      timeRatio: baseline / ours
    }
  },
  // Main-content extraction over the Readability corpus against readability + linkedom + turndown (bench/extract.ts).
  extract: async () => {
    const ExtractBench = await import("./extract.js")
    const m = ExtractBench.measure()
    if (m === undefined) {
      const what = `skipped: no corpus at ${ExtractBench.corpusDir}`
      return { what, oursPerSecond: 0, baselinePerSecond: 0, timeRatio: 0 }
    }
    return {
      what:
        `pages/s over ${m.pages} pages; content F1 ${m.ours.f1.toFixed(4)} vs ${m.baseline.f1.toFixed(4)}; ` +
        `baseline: readability + linkedom + turndown`,
      oursPerSecond: m.ours.pagesPerSecond,
      baselinePerSecond: m.baseline.pagesPerSecond,
      timeRatio: m.baseline.pagesPerSecond / m.ours.pagesPerSecond
    }
  },
  // CLI cold start against starting Node itself.
  cli: async () => {
    const bin = fileURLToPath(new URL("../packages/cli/bin/websearch.js", import.meta.url))
    execFileSync(process.execPath, [bin, "--help"]) // builds the bundle if stale
    const time = (args: ReadonlyArray<string>) => {
      const samples: Array<number> = []
      for (let i = 0; i < 15; i++) {
        const start = performance.now()
        spawnSync(process.execPath, args)
        samples.push(performance.now() - start)
      }
      return samples.sort((a, b) => a - b)[7]
    }
    const ours = time([bin, "--help"])
    const baseline = time(["-e", "0"])
    return {
      what: `websearch --help, median of 15 (${ours.toFixed(0)} ms); baseline: node -e 0 (${baseline.toFixed(0)} ms)`,
      oursPerSecond: 1000 / ours,
      baselinePerSecond: 1000 / baseline,
      timeRatio: ours / baseline
    }
  },
  // Peak RSS of a process fetching an endless 1 GiB body through the safe transport (stops at the 5 MiB cap), in
  // its own process, against plain undici with the same cap; the idle figure is the same process before any fetch.
  "fetch-memory": async () => {
    const FetchMemory = await import("./fetch-memory.js")
    const { ours, baseline, idle } = await FetchMemory.measure()
    return {
      what:
        `endless 1 GiB body, ${ours.fetches} fetches stopped at the 5 MiB cap; peak RSS ours ${ours.peakRssMiB.toFixed(0)} MiB, ` +
        `plain undici ${baseline.peakRssMiB.toFixed(0)} MiB, idle ${idle.peakRssMiB.toFixed(0)} MiB (aim: ours < 150 MiB)`,
      oursPerSecond: ours.fetchesPerSecond,
      baselinePerSecond: baseline.fetchesPerSecond,
      timeRatio: baseline.fetchesPerSecond / ours.fetchesPerSecond,
      peakRssMiB: ours.peakRssMiB
    }
  },
  // The fetch provider rendering local pages in Chromium (render: "always") against reading the same pages plainly,
  // each in its own process; peak RSS is the rendering process plus Chromium's summed PSS (bench/render.ts).
  render: async () => {
    const Render = await import("./render.js")
    const { plain, rendered } = await Render.measure()
    return {
      what:
        `20 local pages with a script adding 5 paragraphs (${rendered.charsPerPage.toFixed(0)} vs ` +
        `${plain.charsPerPage.toFixed(0)} chars/page); rendered peak RSS ${rendered.peakRssMiB.toFixed(0)} MiB + ` +
        `Chromium PSS ${rendered.browserPeakPssMiB.toFixed(0)} MiB, plain ${plain.peakRssMiB.toFixed(0)} MiB; ` +
        `first round incl. Chromium start ${rendered.warmupMs.toFixed(0)} ms; baseline: render "never"`,
      oursPerSecond: rendered.pagesPerSecond,
      baselinePerSecond: plain.pagesPerSecond,
      timeRatio: plain.pagesPerSecond / rendered.pagesPerSecond,
      peakRssMiB: rendered.peakRssMiB + rendered.browserPeakPssMiB
    }
  },
  // POST /v1/search on the websearch server against a bare node:http handler calling the same local provider
  // mock (load from N concurrent loops over an undici Pool; servers in a child process; best of 3 rounds each).
  server: async () => {
    const Server = await import("./server.js")
    const { ours, bare, piped, ratio, serverRatio, platformRatio } = await Server.measure()
    return {
      what:
        `POST /v1/search, 32 concurrent, local mock; rps ratio ${ratio.toFixed(2)} (aim >= 0.7), p99 ours ` +
        `${ours.p99.toFixed(1)} ms vs ${bare.p99.toFixed(1)} ms; vs node:http around the same core pipeline ` +
        `${serverRatio.toFixed(2)} (${piped.requestsPerSecond.toFixed(0)} rps); a plain @effect/platform route ` +
        `doing the node:http handler's job: ${platformRatio.toFixed(2)}`,
      oursPerSecond: ours.requestsPerSecond,
      baselinePerSecond: bare.requestsPerSecond,
      timeRatio: bare.requestsPerSecond / ours.requestsPerSecond
    }
  }
}

const main = async () => {
  const [mode, name] = process.argv.slice(2)
  if (mode === "--child") {
    const measured = await cases[name]()
    const peakRssMiB = measured.peakRssMiB ?? process.resourceUsage().maxRSS / 1024
    process.stdout.write(JSON.stringify({ case: name, ...measured, peakRssMiB }))
    return
  }
  const selected = mode === undefined ? Object.keys(cases) : [mode]
  const script = fileURLToPath(import.meta.url)
  const rows: Array<Measured> = []
  for (const name of selected) {
    if (cases[name] === undefined) throw new Error(`unknown case ${name} (cases: ${Object.keys(cases).join(", ")})`)
    const out = execFileSync(process.execPath, ["--import", "tsx", script, "--child", name], { encoding: "utf8" })
    const row = JSON.parse(out) as Measured
    rows.push(row)
    console.log(
      `${row.case.padEnd(10)} ${row.timeRatio.toFixed(2).padStart(6)}x baseline time  ` +
        `${(1000 / row.oursPerSecond).toFixed(3).padStart(8)} ms/op  ` +
        `${row.oursPerSecond.toFixed(1).padStart(10)} ops/s vs ${row.baselinePerSecond.toFixed(1).padStart(10)}  ` +
        `peak RSS ${row.peakRssMiB.toFixed(0)} MiB  (${row.what})`
    )
  }
  const dir = fileURLToPath(new URL("./results/", import.meta.url))
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    `${dir}latest.json`,
    JSON.stringify({ node: process.version, date: new Date().toISOString(), rows }, null, 2)
  )
}

await main()
