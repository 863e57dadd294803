/**
 * CLI cold start: what one spawn of the installed `websearch` costs (process CPU, peak RSS, wall), each against a
 * baseline spawned in the same run, alternated with it so a change of load hits both sides.
 *
 *   fetch           `websearch fetch URL` of one small page from a loopback server, against a plain script doing
 *                   the same job (undici fetch + linkedom + Readability + turndown, bench/support/plainFetch.mjs).
 *                   Aims: CPU at most 1.3x, peak RSS at most 1.2x.
 *   fetch, first    the same with an empty compile cache (the first run after an install or a Node upgrade).
 *   --help          the overview, against `node -e 0`. Aim: wall at most 2.5x.
 *   fetch --help    one command's help, from the @effect/cli command tree (no aim; reported for the record).
 *   mcp             `websearch mcp` over stdio from its start to its answer to `tools/list` (after `initialize`),
 *                   against an MCP server written with the official SDK listing three tools
 *                   (bench/support/plainMcp.mjs); CPU and peak RSS are the whole process's, stdin closed after the
 *                   answer (no aim).
 *
 * The binary is the installed one: bin/websearch.js over the bundle that `prepack` builds (scripts/bundle.mjs), built
 * afresh here. Every process runs under GNU time (bench/support/processUsage.ts) with a HOME, XDG directories and
 * TMPDIR of its own (no settings file, no compile cache but the one the CLI itself keeps there), and without the
 * caller's WEBSEARCH_* variables. Each figure is the median of `runs` spawns, after one warm-up spawn of each.
 *
 *   node --conditions=@websearch/source --import tsx bench/cli.ts [runs]     standalone, prints the figures
 *   npm run bench -- cli                                                      as a case of bench/run.ts
 *
 * `WEBSEARCH_BENCH_CLI_BIN` measures another build of the binary (e.g. the previous release's), for a before and
 * after in the same run; `WEBSEARCH_BENCH_NODE` runs every process (both sides) on another Node binary.
 */
import { execFileSync, type ChildProcess } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as ProcessUsage from "./support/processUsage.js"

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const bin = process.env.WEBSEARCH_BENCH_CLI_BIN ?? here("../packages/cli/bin/websearch.js")
const node = process.env.WEBSEARCH_BENCH_NODE ?? process.execPath

// A small article page as sites serve them: navigation, the article, a footer (about 3 KB).
const paragraph = (i: number) =>
  `<p>Paragraph ${i} of a short article read for the cold start of a fetch. It has a few sentences of ordinary ` +
  `text, a <a href="/link/${i}">link</a> and some <em>emphasis</em>, as an article page has.</p>`
const page =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cold start bench</title>` +
  `<meta name="description" content="A small page"></head><body>` +
  `<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>` +
  `<main><article><h1>Cold start bench</h1>${Array.from({ length: 12 }, (_, i) => paragraph(i)).join("")}` +
  `<h2>A section</h2><ul><li>one item</li><li>another item</li></ul></article></main>` +
  `<footer>Copyright the bench. <a href="/privacy">Privacy</a></footer></body></html>`

/** A directory per kind of process: HOME, XDG config and cache, TMPDIR (where the CLI's compile cache goes). */
const environment = (root: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith("WEBSEARCH_") || name.startsWith("NODE_") || name.endsWith("_PROXY") || name.endsWith("_proxy"))
      continue
    env[name] = value
  }
  for (const sub of ["home", "config", "cache", "tmp"]) mkdirSync(join(root, sub), { recursive: true })
  return {
    ...env,
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_CACHE_HOME: join(root, "cache"),
    TMPDIR: join(root, "tmp")
  }
}

const lines = (child: ChildProcess, until: (line: string) => boolean): Promise<void> =>
  new Promise((resolve, reject) => {
    let buffered = ""
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString("utf8")
      let end: number
      while ((end = buffered.indexOf("\n")) !== -1) {
        const line = buffered.slice(0, end)
        buffered = buffered.slice(end + 1)
        let done: boolean
        try {
          done = until(line)
        } catch (error) {
          return reject(error)
        }
        if (done) {
          child.stdout!.off("data", onData)
          child.stdout!.resume()
          return resolve()
        }
      }
    }
    child.stdout!.on("data", onData)
    child.once("close", () => reject(new Error("the MCP server exited before answering tools/list")))
  })

const frames = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } }
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" }
]

/** A process's usage, with `wallMs` the time from its start to its answer to `tools/list`. */
const mcpSession = async (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv): Promise<ProcessUsage.Usage> => {
  let answeredMs = 0
  const usage = await ProcessUsage.measure(node, args, {
    env,
    converse: async (child) => {
      const start = performance.now()
      const answered = lines(child, (line) => {
        const message = JSON.parse(line) as { id?: number; result?: { tools?: Array<{ name: string }> } }
        if (message.id !== 2) return false
        if (!message.result?.tools?.some((tool) => tool.name === "web_fetch")) {
          throw new Error(`tools/list answered without web_fetch: ${line.slice(0, 300)}`)
        }
        return true
      })
      child.stdin!.write(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(""))
      await answered
      answeredMs = performance.now() - start
    }
  })
  return { ...usage, wallMs: answeredMs }
}

/** One figure: the CLI's median usage and its baseline's. */
export interface Pair {
  readonly ours: ProcessUsage.Usage
  readonly baseline: ProcessUsage.Usage
}

/** Every figure of the cold start, and the Node version that ran them. */
export interface Figures {
  readonly node: string
  readonly runs: number
  readonly fetch: Pair
  readonly fetchFirst: Pair
  readonly help: Pair
  readonly commandHelp: Pair
  readonly mcp: Pair
}

export const measure = async (runs = 9): Promise<Figures> => {
  ProcessUsage.requireGnuTime()
  if (process.env.WEBSEARCH_BENCH_CLI_BIN === undefined) {
    // The bundle exactly as `prepack` builds it into the tarball.
    const { bundle } = (await import(here("../packages/cli/scripts/bundle.mjs"))) as { bundle: () => Promise<void> }
    await bundle()
  }
  const server = createServer((_, response) =>
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page)
  )
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`
  const root = mkdtempSync(join(tmpdir(), "websearch-bench-cli-"))
  const cliEnv = environment(join(root, "cli"))
  const plainEnv = environment(join(root, "plain"))
  const plainFetch = here("./support/plainFetch.mjs")
  const plainMcp = here("./support/plainMcp.mjs")
  const spawnOf = {
    fetch: () => ProcessUsage.measure(node, [bin, "fetch", url, "--allow-host", "127.0.0.1"], { env: cliEnv }),
    plainFetch: () => ProcessUsage.measure(node, [plainFetch, url], { env: plainEnv }),
    help: () => ProcessUsage.measure(node, [bin, "--help"], { env: cliEnv }),
    commandHelp: () => ProcessUsage.measure(node, [bin, "fetch", "--help"], { env: cliEnv }),
    nodeAlone: () => ProcessUsage.measure(node, ["-e", "0"], { env: plainEnv }),
    mcp: () => mcpSession([bin, "mcp"], cliEnv),
    plainMcp: () => mcpSession([plainMcp], plainEnv)
  }
  type Kind = keyof typeof spawnOf
  const samples = Object.fromEntries(Object.keys(spawnOf).map((kind) => [kind, []])) as unknown as Record<
    Kind,
    Array<ProcessUsage.Usage>
  >
  const first: Array<ProcessUsage.Usage> = []
  const firstBaseline: Array<ProcessUsage.Usage> = []
  try {
    // One warm-up of each (it fills the CLI's compile cache), then the measured rounds.
    for (const spawnOne of Object.values(spawnOf)) await spawnOne()
    for (let i = 0; i < runs; i++) {
      for (const [kind, spawnOne] of Object.entries(spawnOf)) samples[kind as Kind].push(await spawnOne())
    }
    // The first fetch after an install: a TMPDIR of its own each time, so the compile cache starts empty.
    for (let i = 0; i < Math.min(runs, 5); i++) {
      const fresh = environment(join(root, `first-${i}`))
      first.push(await ProcessUsage.measure(node, [bin, "fetch", url, "--allow-host", "127.0.0.1"], { env: fresh }))
      firstBaseline.push(await spawnOf.plainFetch())
    }
  } finally {
    server.close()
    rmSync(root, { recursive: true, force: true })
  }
  const pair = (ours: Kind, baseline: Kind): Pair => ({
    ours: ProcessUsage.median(samples[ours]),
    baseline: ProcessUsage.median(samples[baseline])
  })
  return {
    node: execFileSync(node, ["--version"], { encoding: "utf8" }).trim(),
    runs,
    fetch: pair("fetch", "plainFetch"),
    fetchFirst: { ours: ProcessUsage.median(first), baseline: ProcessUsage.median(firstBaseline) },
    help: pair("help", "nodeAlone"),
    commandHelp: pair("commandHelp", "nodeAlone"),
    mcp: pair("mcp", "plainMcp")
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 9)
  const f = await measure(runs)
  const cell = (value: number, unit: string) => `${value.toFixed(0).padStart(5)} ${unit}`
  const row = (name: string, pair: Pair, versus: string) => {
    const figure = (label: string, pick: (u: ProcessUsage.Usage) => number, unit: string) =>
      `${label} ${cell(pick(pair.ours), unit)} vs ${cell(pick(pair.baseline), unit)} = ` +
      `${(pick(pair.ours) / pick(pair.baseline)).toFixed(2)}x`
    const cpu = figure("cpu", (u) => u.cpuMs, "ms")
    const rss = figure("rss", (u) => u.peakRssMiB, "MiB")
    const wall = figure("wall", (u) => u.wallMs, "ms")
    process.stdout.write(`${name.padEnd(14)} ${cpu}   ${rss}   ${wall}   (vs ${versus})\n`)
  }
  process.stdout.write(`Node ${f.node}, median of ${f.runs} runs each\n`)
  row("fetch", f.fetch, "plain script; aims cpu <= 1.3, rss <= 1.2")
  row("fetch, first", f.fetchFirst, "plain script; compile cache empty")
  row("--help", f.help, "node -e 0; aim wall <= 2.5")
  row("fetch --help", f.commandHelp, "node -e 0")
  row("mcp", f.mcp, "MCP SDK server; wall is start to the tools/list answer")
}
