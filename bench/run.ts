/**
 * Benchmarks, each figure set against a baseline measured in the same run, with the peak RSS of the process that
 * ran it. Every case runs in its own child process so one case's memory does not hide another's.
 *
 *   npm run bench                 all cases
 *   npm run bench -- pipeline     one case by name
 *
 * Prints the machine it ran on and one GitHub markdown table (figure, ours, baseline, ratio, peak RSS), and writes
 * the same rows to bench/results/latest.json.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus, loadavg, totalmem } from "node:os"
import { fileURLToPath } from "node:url"
import * as Blacklist from "../packages/core/src/internal/blacklist.js"
import * as Compression from "../packages/core/src/Compression.js"
import * as ContentBudget from "../packages/core/src/ContentBudget.js"
import * as DuckDuckGo from "../packages/providers/src/DuckDuckGo.js"
import * as ProviderRegistry from "../packages/core/src/ProviderRegistry.js"
import * as SearchKeywords from "../packages/core/src/SearchKeywords.js"
import * as Settings from "../packages/core/src/Settings.js"
import * as WebSearch from "../packages/core/src/WebSearch.js"
import type { WebSearchResult } from "../packages/core/src/WebSearchResponse.js"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"

/** A measured value in its unit. */
interface Quantity {
  readonly value: number
  readonly unit: "ms" | "MiB" | "rps" | "F1" | "chars" | "count"
}

const ms = (value: number): Quantity => ({ value, unit: "ms" })
const mib = (value: number): Quantity => ({ value, unit: "MiB" })
const rps = (value: number): Quantity => ({ value, unit: "rps" })

/** One row of the table, as a case reports it. */
interface Figure {
  /** What is measured, short; the case's name is put in front. Aims go here too ("aim <= 1.2"). */
  readonly figure: string
  readonly ours?: Quantity | undefined
  readonly baseline?: Quantity | undefined
  /** ours / baseline by default; set when the row compares something else. */
  readonly ratio?: number | undefined
  /** The peak RSS this row stands for, when it is not the case's; null when no process's RSS would be honest. */
  readonly peakRssMiB?: number | null | undefined
}

/** What a case returns: its rows, and the peak RSS of the process it measured when that is not this one. */
interface Measured {
  readonly rows: ReadonlyArray<Figure>
  readonly peakRssMiB?: number | undefined
}

/** A row of the table, complete. */
interface Row {
  readonly case: string
  readonly figure: string
  readonly ours: Quantity | null
  readonly baseline: Quantity | null
  /** ours / baseline (for a time: above 1 is slower; for requests per second: below 1 is fewer). */
  readonly ratio: number | null
  readonly peakRssMiB: number | null
}

/** Runs `fn` repeatedly for about `millis` milliseconds after a warm-up and returns operations per second. */
const rate = async (fn: () => unknown | Promise<unknown>, millis = 1500): Promise<number> => {
  const deadline = performance.now() + millis / 4
  while (performance.now() < deadline) await fn()
  let count = 0
  const start = performance.now()
  let now = start
  while (now - start < millis) {
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
const cases: Record<string, () => Promise<Measured>> = {
  // The whole searchKeywords pipeline (validation, resolution, fanout, merge, blacklist, dedupe, budget) against
  // the bare fanout of the same driver calls: what the pipeline costs on top of the providers.
  pipeline: async () => {
    const answers = results(10, 400).map(({ sourceInput: _, ...r }) => r)
    const driver = { preset: DuckDuckGo.preset, searchKeywords: () => Effect.succeed(answers) }
    const keywords = Array.from({ length: 20 }, (_, i) => `keyword ${i}`)
    const runtime = ManagedRuntime.make(
      WebSearch.layer(ProviderRegistry.register(driver)).pipe(
        Layer.provide(
          Settings.layer({ defaults: { searchKeywords: "duckduckgo" }, blacklist: ["*://*.blocked.example/*"] })
        )
      )
    )
    const ours = await rate(() => runtime.runPromise(SearchKeywords.searchKeywords({ keywords })))
    const baseline = await rate(() =>
      Effect.runPromise(Effect.forEach(keywords, () => driver.searchKeywords(), { concurrency: 5 }))
    )
    await runtime.dispose()
    return {
      rows: [
        {
          figure: "searchKeywords, 20 keywords × 10 results, in-memory driver (vs bare Effect.forEach of the driver)",
          ours: ms(1000 / ours),
          baseline: ms(1000 / baseline)
        }
      ]
    }
  },
  // The fanout of one 20-keyword searchKeywords through the real Tavily driver over undici against a local mock with
  // 50 ms latency (and 0 ms), against the ideal and against plain undici + JSON.parse (bench/fanout.ts).
  fanout: async () => {
    const Fanout = await import("./fanout.js")
    const f = await Fanout.measure()
    const latency = `${f.latencyMs} ms mock`
    const waves = f.defaultConcurrency.ideal / f.latencyMs
    return {
      peakRssMiB: f.peakRssMiB,
      rows: [
        {
          figure: `wall of 20 keywords at concurrency 20, ${latency} (vs ideal: one latency; aim ≤ 1.2)`,
          ours: ms(f.slow.ours.wall),
          baseline: ms(f.latencyMs)
        },
        {
          figure:
            `wall at the default concurrency ${f.defaultConcurrency.concurrency}: ${waves} waves by design ` +
            `(vs ideal ${waves} × ${f.latencyMs} ms)`,
          ours: ms(f.defaultConcurrency.wall),
          baseline: ms(f.defaultConcurrency.ideal)
        },
        {
          figure: `same 20 calls, ${latency} (vs undici request + JSON.parse, concurrent; aim ≤ 1.3)`,
          ours: ms(f.slow.ours.wall),
          baseline: ms(f.slow.baseline.wall)
        },
        {
          figure: "same 20 calls, 0 ms mock: the raw cost (vs undici request + JSON.parse; no aim)",
          ours: ms(f.fast.ours.wall),
          baseline: ms(f.fast.baseline.wall)
        },
        {
          figure: "CPU time of the same 20 calls, 0 ms mock (vs undici request + JSON.parse)",
          ours: ms(f.fast.ours.cpu),
          baseline: ms(f.fast.baseline.cpu)
        },
        {
          figure: `wall of ${f.fused.keywords} keywords fused over ${f.fused.providers} providers, ${latency} (vs ideal: one latency; aim ≤ 1.2)`,
          ours: ms(f.fused.wall),
          baseline: ms(f.latencyMs)
        },
        {
          figure: `wall of the same fused search (vs the ${f.fused.keywords} keywords on one of the providers alone)`,
          ours: ms(f.fused.wall),
          baseline: ms(f.fused.single)
        }
      ]
    }
  },
  // A workspace's instances as the server reads them from a SQLite store (bench/store.ts): the list of 100 at the
  // size bound against 100 bare ones, and the create cap's count against that list.
  store: async () => {
    const Store = await import("./store.js")
    const f = await Store.measure()
    return {
      rows: [
        {
          figure: "list of 100 instances at the 16 KiB bounds, SQLite (vs 100 bare instances)",
          ours: ms(f.listLargest),
          baseline: ms(f.listBare)
        },
        {
          figure: "the create cap's count of those 100 (vs listing them, as it did)",
          ours: ms(f.count),
          baseline: ms(f.listLargest)
        }
      ]
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
      rows: [
        {
          figure: "1000 URLs against 205 entries (vs one RegExp per entry)",
          ours: ms(1000 / ours),
          baseline: ms(1000 / baseline)
        }
      ]
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
      rows: [
        {
          figure: "cutoff at 8000 tokens over 20 × 20 KB results (vs counting each content's tokens once)",
          ours: ms(1000 / ours),
          baseline: ms(1000 / baseline)
        }
      ]
    }
  },
  // BM25 rank compression against chunking alone: the cost of scoring.
  rank: async () => {
    const input = results(20, 20_000)
    const compression = { method: "rank", chunkSize: 1000, topChunks: 3 } as const
    const ours = await rate(() => Effect.runPromise(Compression.compress(input, "fiber stream ranker", compression)))
    const baseline = await rate(() => input.map((r) => Compression.chunkContent(r.content, 1000)))
    return {
      rows: [
        {
          figure: "rank the top 3 of 1000-char chunks over 20 × 20 KB (vs chunking only)",
          ours: ms(1000 / ours),
          baseline: ms(1000 / baseline)
        }
      ]
    }
  },
  // Main-content extraction over the Readability corpus, the trafilatura evaluation corpus and the WCXB development
  // set against readability + linkedom + turndown, defuddle measured beside (bench/extract.ts, which also prints the
  // published figures and the per-type table).
  extract: async () => {
    const ExtractBench = await import("./extract.js")
    const m = await ExtractBench.measure()
    const vs = "vs readability + linkedom + turndown"
    const rows: Array<Figure> = []
    if (m.readability === undefined) rows.push({ figure: `skipped: no corpus at ${ExtractBench.corpusDir}` })
    else {
      const r = m.readability.figures
      rows.push(
        {
          figure: `time per page over the ${m.readability.pages} Readability pages (${vs}; aim ratio <= 0.83)`,
          ours: ms(r.ours.msPerPage),
          baseline: ms(r.readability.msPerPage)
        },
        {
          figure: `content F1 against the Readability corpus's expected text (${vs}; defuddle ${r.defuddle.f1.toFixed(3)}; aim >= baseline - 0.01)`,
          ours: { value: r.ours.f1, unit: "F1" },
          baseline: { value: r.readability.f1, unit: "F1" }
        }
      )
    }
    if (m.trafilatura === undefined) rows.push({ figure: "skipped: no trafilatura-eval corpus" })
    else {
      const t = m.trafilatura.figures
      rows.push(
        {
          figure: `time per page over the ${m.trafilatura.pages} trafilatura-eval pages (${vs}; aim ratio <= 0.83)`,
          ours: ms(t.ours.msPerPage),
          baseline: ms(t.readability.msPerPage)
        },
        {
          figure: `segment F1 on trafilatura-eval (${vs}; defuddle ${t.defuddle.f1.toFixed(3)}; published best: trafilatura 0.924; aim >= 0.93)`,
          ours: { value: t.ours.f1, unit: "F1" },
          baseline: { value: t.readability.f1, unit: "F1" }
        }
      )
    }
    if (m.wcxb === undefined) rows.push({ figure: "skipped: no wcxb-dev corpus" })
    else {
      const w = m.wcxb.figures
      rows.push(
        {
          figure: `time per page over the ${m.wcxb.pages} WCXB-dev pages (${vs}; aim ratio <= 0.83)`,
          ours: ms(w.ours.msPerPage),
          baseline: ms(w.readability.msPerPage)
        },
        {
          figure: `bag-of-words F1 on WCXB-dev, all types (${vs}; defuddle ${w.defuddle.summary.all.f1.toFixed(3)}; published best: rs-trafilatura 0.859; aim >= 0.87)`,
          ours: { value: w.ours.summary.all.f1, unit: "F1" },
          baseline: { value: w.readability.summary.all.f1, unit: "F1" }
        }
      )
    }
    return { rows }
  },
  // CLI cold start (bench/cli.ts): process CPU, peak RSS and wall of the installed binary, each against a baseline
  // process in the same run (a plain script doing the same fetch, node -e 0, an MCP SDK server); each row's RSS is
  // the CLI process's.
  cli: async () => {
    const Cli = await import("./cli.js")
    const f = await Cli.measure()
    const of = (pair: (typeof f)["fetch"], pick: "cpuMs" | "wallMs" | "peakRssMiB") => ({
      ours: pick === "peakRssMiB" ? mib(pair.ours[pick]) : ms(pair.ours[pick]),
      baseline: pick === "peakRssMiB" ? mib(pair.baseline[pick]) : ms(pair.baseline[pick]),
      peakRssMiB: pair.ours.peakRssMiB
    })
    const runs = `median of ${f.runs}, Node ${f.node}`
    return {
      rows: [
        {
          figure: `fetch of a small loopback page: process CPU, ${runs} (vs a plain undici + linkedom + Readability + turndown script; aim ≤ 1.3)`,
          ...of(f.fetch, "cpuMs")
        },
        { figure: "the same: peak RSS (vs the plain script; aim ≤ 1.2)", ...of(f.fetch, "peakRssMiB") },
        { figure: "the same: wall (vs the plain script)", ...of(f.fetch, "wallMs") },
        {
          figure: "the first fetch, compile cache empty: process CPU (vs the plain script)",
          ...of(f.fetchFirst, "cpuMs")
        },
        { figure: `websearch --help: wall, ${runs} (vs node -e 0; aim ≤ 2.5)`, ...of(f.help, "wallMs") },
        { figure: "websearch --help: process CPU (vs node -e 0)", ...of(f.help, "cpuMs") },
        { figure: "websearch fetch --help: wall (vs node -e 0)", ...of(f.commandHelp, "wallMs") },
        {
          figure: `websearch mcp over stdio, start to the tools/list answer: wall, ${runs} (vs an MCP SDK server listing three tools)`,
          ...of(f.mcp, "wallMs")
        },
        { figure: "the same session: process CPU (vs the MCP SDK server)", ...of(f.mcp, "cpuMs") },
        { figure: "the same session: peak RSS (vs the MCP SDK server)", ...of(f.mcp, "peakRssMiB") }
      ]
    }
  },
  // A 1,000-page loopback site crawled by `CrawlSite` with the local fetcher (politeness off, 8 in flight) against a
  // plain loop of undici fetches + our extraction at the same concurrency; then 4,000 pages for memory's flatness.
  crawl: async () => {
    const Crawl = await import("./crawl.js")
    const { ours, fetched, baseline, oursLarge } = await Crawl.measure()
    return {
      peakRssMiB: ours.peakRssMiB,
      rows: [
        {
          figure: "pages per second, 1,000 pages, 8 in flight (vs undici + our extraction; aim >= 0.8)",
          ours: rps(ours.pagesPerSecond),
          baseline: rps(baseline.pagesPerSecond),
          ratio: ours.pagesPerSecond / baseline.pagesPerSecond
        },
        {
          figure: "the same 1,000 pages through fetchUrls, 8 calls at once (vs undici + our extraction)",
          ours: rps(fetched.pagesPerSecond),
          baseline: rps(baseline.pagesPerSecond),
          peakRssMiB: fetched.peakRssMiB
        },
        {
          figure: "live heap at the last page, 4,000 pages (vs 1,000; aim <= 1.25)",
          ours: mib(oursLarge.liveHeapMiB ?? 0),
          baseline: mib(ours.liveHeapMiB ?? 0),
          peakRssMiB: oursLarge.peakRssMiB
        },
        {
          figure: "peak RSS, 4,000 pages (vs 1,000)",
          ours: mib(oursLarge.peakRssMiB),
          baseline: mib(ours.peakRssMiB),
          peakRssMiB: oursLarge.peakRssMiB
        }
      ]
    }
  },
  // Peak RSS of a process fetching an endless 1 GiB body through the safe transport (stops at the 5 MiB cap), in
  // its own process, against plain undici with the same cap; the idle figure is the same process before any fetch.
  "fetch-memory": async () => {
    const FetchMemory = await import("./fetch-memory.js")
    const { ours, baseline, idle } = await FetchMemory.measure()
    return {
      peakRssMiB: ours.peakRssMiB,
      rows: [
        {
          figure:
            `peak RSS, endless 1 GiB body fetched ${ours.fetches}×, each stopped at the 5 MiB cap ` +
            "(vs plain undici with the same cap; aim < 150 MiB)",
          ours: mib(ours.peakRssMiB),
          baseline: mib(baseline.peakRssMiB)
        },
        {
          figure: "the same process idle, before any fetch (imports loaded)",
          ours: mib(idle.peakRssMiB),
          peakRssMiB: idle.peakRssMiB
        },
        {
          figure: "time per fetch up to the cap (vs plain undici)",
          ours: ms(1000 / ours.fetchesPerSecond),
          baseline: ms(1000 / baseline.fetchesPerSecond)
        }
      ]
    }
  },
  // The fetch provider rendering local pages in Chromium (render: "always") against reading the same pages plainly,
  // each in its own process; peak RSS is the rendering process plus Chromium's summed PSS (bench/render.ts).
  render: async () => {
    const Render = await import("./render.js")
    const { plain, rendered } = await Render.measure()
    const rss = rendered.peakRssMiB + rendered.browserPeakPssMiB
    return {
      peakRssMiB: rss,
      rows: [
        {
          figure:
            `time per page, ${rendered.pages} local pages whose script adds 5 paragraphs, ` +
            `render "always" (vs "never")`,
          ours: ms(1000 / rendered.pagesPerSecond),
          baseline: ms(1000 / plain.pagesPerSecond)
        },
        {
          figure: `text per page: rendering sees the script's paragraphs (vs "never")`,
          ours: { value: rendered.charsPerPage, unit: "chars" },
          baseline: { value: plain.charsPerPage, unit: "chars" }
        },
        {
          figure:
            `peak RSS: ${rendered.peakRssMiB.toFixed(0)} MiB process + ` +
            `${rendered.browserPeakPssMiB.toFixed(0)} MiB Chromium PSS (vs "never")`,
          ours: mib(rss),
          baseline: mib(plain.peakRssMiB)
        },
        { figure: "first round, Chromium's start included", ours: ms(rendered.warmupMs) }
      ]
    }
  },
  // POST /v1/search on the websearch server against a plain @effect/platform route and a bare node:http handler
  // calling the same local provider mock (load from N concurrent loops over an undici Pool; servers in a child
  // process; best of 3 rounds each).
  // The servers' child does not report its RSS, and the load generator's would not be the server's: no RSS shown.
  server: async () => {
    const Server = await import("./server.js")
    const { ours, bare, piped, platform, cpu, ops } = await Server.measure()
    return {
      rows: [
        {
          figure:
            "POST /v1/search, 32 concurrent, local provider mock (vs a plain @effect/platform route doing the same job; aim ≥ 0.9)",
          ours: rps(ours.requestsPerSecond),
          baseline: rps(platform.requestsPerSecond),
          peakRssMiB: null
        },
        {
          figure: "p99 latency of the same (vs the plain @effect/platform route; aim ≤ 1.2)",
          ours: ms(ours.p99),
          baseline: ms(platform.p99),
          peakRssMiB: null
        },
        {
          // CPU time per request is the figure a shared machine disturbs least (the least of the rounds).
          figure: "CPU time per request of the servers' process, provider mock included (vs the plain route)",
          ours: ms(cpu.ours / 1000),
          baseline: ms(cpu.platform / 1000),
          peakRssMiB: null
        },
        {
          // Counted by a supervisor over sequential requests: a figure the machine's load does not move.
          figure: "Effect operations per request (vs the plain route)",
          ours: { value: ops.ours, unit: "count" },
          baseline: { value: ops.platform, unit: "count" },
          peakRssMiB: null
        },
        {
          figure: "for information: the same against a bare node:http handler",
          ours: rps(ours.requestsPerSecond),
          baseline: rps(bare.requestsPerSecond),
          peakRssMiB: null
        },
        {
          figure: "the server alone (vs node:http around the same core pipeline)",
          ours: rps(ours.requestsPerSecond),
          baseline: rps(piped.requestsPerSecond),
          peakRssMiB: null
        },
        {
          figure: "floor: the plain @effect/platform route (vs node:http)",
          ours: rps(platform.requestsPerSecond),
          baseline: rps(bare.requestsPerSecond),
          peakRssMiB: null
        }
      ]
    }
  },
  // 200 clients, each on its own connection, POST /v1/search for 60 s (real tavily driver over undici, provider mock
  // in its own process; bench/soak.ts): errors, throughput at the end against just after warm-up, and the server
  // process's RSS and live heap at the end against at the end of warm-up (the first 10 s).
  soak: async () => {
    const Soak = await import("./soak.js")
    const f = await Soak.measure(60, 200)
    const window = `${f.warmupSeconds.toFixed(0)} s`
    return {
      peakRssMiB: f.rss.maxMiB,
      rows: [
        {
          figure:
            `${f.clients} clients x ${f.seconds} s, POST /v1/search: errors ${f.errors.total} of ${f.requests} ` +
            `requests (aim 0); req/s in the last ${window} (vs the ${window} after warm-up; aim ≈ 1)`,
          ours: rps(f.requestsPerSecondLastWindow),
          baseline: rps(f.requestsPerSecondAfterWarmup)
        },
        { figure: `p99 latency after warm-up (p50 ${f.steadyP50.toFixed(0)} ms)`, ours: ms(f.steadyP99) },
        {
          figure: `server RSS, max in the last ${window} (vs at the end of warm-up; growth = ratio - 1, aim < 10 %)`,
          ours: mib(f.rss.lastWindowMaxMiB),
          baseline: mib(f.rss.warmupMiB)
        },
        {
          figure: "server heap after a forced full GC, load stopped (vs at the end of warm-up)",
          ours: mib(f.afterGc.endHeapMiB),
          baseline: mib(f.afterGc.warmupHeapMiB)
        }
      ]
    }
  },
  // The hostile page set (whitespace runs, deep nesting, a 3 MiB attribute, gzip/deflate/br bombs, a PDF bomb)
  // fetched through the real server (its own process; pages from another) while a prober calls /health every 50 ms
  // and 4 clients fetch a ~30 KB article in a loop, against a quiet phase of the same length without the hostile
  // pages (bench/hostile.ts). Fails when no hostile request reached the page server.
  hostile: async () => {
    const Hostile = await import("./hostile.js")
    const f = await Hostile.measure(12)
    const { quiet, hostile } = f
    const count = (value: number): Quantity => ({ value, unit: "count" })
    const outcomes = hostile.hostile.outcomes
    const known = ["too_large", "timeout", "ok"]
    const other = Object.entries(outcomes).filter(([key]) => !known.includes(key))
    const otherCount = other.reduce((sum, [, n]) => sum + n, 0)
    const errors = (phase: typeof quiet) =>
      Object.entries(phase.normal.errors)
        .map(([key, n]) => `${key} ${n}`)
        .join(", ") || "none"
    const phases = `${f.seconds} s each`
    return {
      peakRssMiB: hostile.server.maxRssMiB,
      rows: [
        {
          figure: `longest event-loop delay in the server, hostile vs quiet phase, ${phases} (aim ≤ 100 ms)`,
          ours: ms(hostile.server.loopMaxMs),
          baseline: ms(quiet.server.loopMaxMs)
        },
        {
          figure:
            `  of the stretches the loop ran no timer, the one whose main thread ran longest: CPU time, hostile vs ` +
            `quiet (that stretch ${hostile.server.longestOwn.ms.toFixed(0)} vs ` +
            `${quiet.server.longestOwn.ms.toFixed(0)} ms, of which waiting for a CPU ` +
            `${hostile.server.longestOwn.waitMs.toFixed(0)} vs ${quiet.server.longestOwn.waitMs.toFixed(0)} ms; ` +
            `load average ${hostile.server.loadAverage.toFixed(1)} vs ${quiet.server.loadAverage.toFixed(1)})`,
          ours: ms(hostile.server.longestOwn.runMs),
          baseline: ms(quiet.server.longestOwn.runMs)
        },
        {
          figure:
            `  the machine's floor, the prober alone for 6 s: /health p99 (${f.idle.health.count} probes, load ` +
            `average ${f.idle.server.loadAverage.toFixed(1)})`,
          ours: ms(f.idle.health.p99),
          peakRssMiB: null
        },
        {
          figure: `  the machine's floor, the prober alone: longest event-loop delay`,
          ours: ms(f.idle.server.loopMaxMs),
          peakRssMiB: null
        },
        {
          figure: `/health every 50 ms: p99, hostile vs quiet (${hostile.health.count} vs ${quiet.health.count} probes; aim ≤ 50 ms)`,
          ours: ms(hostile.health.p99),
          baseline: ms(quiet.health.p99)
        },
        {
          figure: `/health max, hostile vs quiet (probe errors ${hostile.health.errors} vs ${quiet.health.errors})`,
          ours: ms(hostile.health.max),
          baseline: ms(quiet.health.max)
        },
        {
          figure:
            `${f.normalClients} normal clients (~30 KB article) p99, hostile vs quiet: ${hostile.normal.ok} vs ` +
            `${quiet.normal.ok} ok, failed ${errors(hostile)} vs ${errors(quiet)} (aim ratio ≤ 1.5)`,
          ours: ms(hostile.normal.p99),
          baseline: ms(quiet.normal.p99)
        },
        {
          figure: `${f.normalClients} normal clients' slowest fetch, hostile vs quiet (a failed fetch counts at its time)`,
          ours: ms(hostile.normal.max),
          baseline: ms(quiet.normal.max)
        },
        {
          figure:
            `server peak RSS (kernel maxRSS) after the hostile phase vs after the quiet one ` +
            `(idle after start ${f.idleRssMiB.toFixed(0)} MiB; aim ≤ 400 MiB)`,
          ours: mib(hostile.server.maxRssMiB),
          baseline: mib(quiet.server.maxRssMiB),
          peakRssMiB: hostile.server.maxRssMiB
        },
        {
          figure:
            `  of which the main thread's V8 heap at the sampled peak, hostile vs quiet (its ArrayBuffers outside the ` +
            `heap ${hostile.server.atPeak.arrayBuffersMiB.toFixed(0)} vs ${quiet.server.atPeak.arrayBuffersMiB.toFixed(0)} ` +
            `MiB; the rest is the extraction workers' heaps, code and native memory)`,
          ours: mib(hostile.server.atPeak.heapMiB),
          baseline: mib(quiet.server.atPeak.heapMiB),
          peakRssMiB: null
        },
        {
          figure:
            `hostile fetches (${f.hostileClients} clients over ${Hostile.hostilePaths.length} pages; ` +
            `${hostile.hostileHits} reached the page server) by outcome: too_large ${outcomes.too_large ?? 0}, ` +
            `timeout ${outcomes.timeout ?? 0}, ok ${outcomes.ok ?? 0}, other ${otherCount}` +
            (other.length > 0 ? ` (${other.map(([key, n]) => `${key} ${n}`).join(", ")})` : ""),
          ours: count(hostile.hostile.total),
          peakRssMiB: null
        },
        ...Hostile.hostilePaths.map((path) => ({
          figure: `  ${path} (${hostile.hitsByPage[path] ?? 0} reached the page server): ${
            Object.entries(hostile.hostile.byPage[path] ?? {})
              .map(([key, n]) => `${key} ${n}`)
              .join(", ") || "not reached"
          }`,
          peakRssMiB: null
        }))
      ]
    }
  }
}

const formatQuantity = (q: Quantity | null): string => {
  if (q === null || !Number.isFinite(q.value)) return "—"
  switch (q.unit) {
    case "ms":
      return `${q.value.toFixed(q.value < 10 ? 2 : q.value < 100 ? 1 : 0)} ms`
    case "F1":
      return `F1 ${q.value.toFixed(4)}`
    case "count":
      return q.value.toFixed(0)
    default:
      return `${q.value.toFixed(0)} ${q.unit}`
  }
}

const formatRatio = (ratio: number | null): string =>
  ratio === null || !Number.isFinite(ratio) ? "—" : `${ratio.toFixed(ratio < 0.1 ? 3 : ratio < 10 ? 2 : 1)}×`

/** The rows as a GitHub markdown table, columns padded so it reads as a table in a terminal too. */
const table = (rows: ReadonlyArray<Row>): string => {
  const header = ["figure", "ours", "baseline", "ratio (ours ÷ baseline)", "peak RSS"]
  const cells = rows.map((row) => [
    // A pipe would end the cell early.
    `**${row.case}**: ${row.figure.replace(/\|/g, "\\|")}`,
    formatQuantity(row.ours),
    formatQuantity(row.baseline),
    formatRatio(row.ratio),
    row.peakRssMiB === null ? "—" : `${row.peakRssMiB.toFixed(0)} MiB`
  ])
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((c) => c[i].length)))
  // The first column reads left to right; the figures line up on their right.
  const pad = (text: string, i: number) => (i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]))
  const line = (values: ReadonlyArray<string>) => `| ${values.map(pad).join(" | ")} |`
  const rule = `|${widths.map((w, i) => (i === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`
  return [line(header), rule, ...cells.map(line)].join("\n")
}

const machine = () => {
  const cpu = cpus()
  return {
    cpu: cpu[0]?.model.trim() ?? "unknown",
    cores: cpu.length,
    totalMemoryGiB: Number((totalmem() / 1024 ** 3).toFixed(1)),
    platform: `${process.platform} ${process.arch}`,
    // A shared machine's load skews every timing: it is noted, not corrected for.
    loadAverage: loadavg().map((l) => Number(l.toFixed(2)))
  }
}

const main = async () => {
  const [mode, name] = process.argv.slice(2)
  if (mode === "--child") {
    const measured = await cases[name]()
    const peakRssMiB = measured.peakRssMiB ?? process.resourceUsage().maxRSS / 1024
    const rows: Array<Row> = measured.rows.map((figure) => ({
      case: name,
      figure: figure.figure,
      ours: figure.ours ?? null,
      baseline: figure.baseline ?? null,
      ratio:
        figure.ratio ??
        (figure.ours !== undefined && figure.baseline !== undefined ? figure.ours.value / figure.baseline.value : null),
      peakRssMiB: figure.peakRssMiB === undefined ? peakRssMiB : figure.peakRssMiB
    }))
    process.stdout.write(JSON.stringify(rows))
    return
  }
  const selected = mode === undefined ? Object.keys(cases) : [mode]
  for (const name of selected) {
    if (cases[name] === undefined) throw new Error(`unknown case ${name} (cases: ${Object.keys(cases).join(", ")})`)
  }
  const script = fileURLToPath(import.meta.url)
  const started = machine()
  const rows: Array<Row> = []
  for (const name of selected) {
    process.stderr.write(`bench: ${name}...\n`)
    try {
      const out = execFileSync(
        process.execPath,
        ["--conditions=@websearch/source", "--import", "tsx", script, "--child", name],
        { encoding: "utf8" }
      )
      rows.push(...(JSON.parse(out) as Array<Row>))
    } catch (error) {
      // One failing case (its stderr is above) must not cost the figures of the others: it gets a row saying so.
      const stderr = String((error as { stderr?: unknown }).stderr ?? error)
      // The last error line is the root cause: each process above it wraps the one below.
      const reason = [...stderr.matchAll(/^\s*\w*Error: .*$/gm)].at(-1)?.[0].trim() ?? "see the output above"
      const shown = reason.length > 160 ? `${reason.slice(0, 157)}...` : reason
      rows.push({ case: name, figure: `failed: ${shown}`, ours: null, baseline: null, ratio: null, peakRssMiB: null })
      process.exitCode = 1
    }
  }
  const date = new Date().toISOString()
  console.log(
    `Node ${process.version}, ${started.platform}, ${started.cpu} × ${started.cores} cores, ` +
      `${started.totalMemoryGiB} GiB RAM; load average ${started.loadAverage.join(" / ")} at the start; ${date}`
  )
  console.log("")
  console.log(table(rows))
  const dir = fileURLToPath(new URL("./results/", import.meta.url))
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    `${dir}latest.json`,
    `${JSON.stringify({ node: process.version, date, machine: started, rows }, null, 2)}\n`
  )
}

await main()
