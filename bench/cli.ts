/**
 * CLI cold start: the time from spawning `websearch` to its exit, against `node -e 0` in the same run.
 *
 *   --help          the overview (answered before the command tree is loaded). Aim: at most 2.5x.
 *   fetch --help    one command's help, from the @effect/cli command tree (no aim; reported for the record).
 *   fetch loopback  a whole fetch of a small local page (127.0.0.1, allowlisted), printed as text (no aim).
 *
 * Each figure is the median of `runs` spawns, alternated with the baseline so a load change hits both sides.
 * The page is served from this process, so the spawns are asynchronous (a blocking spawn would starve it).
 *
 *   node --conditions=@websearch/source --import tsx bench/cli.ts [runs]     standalone, prints the figures
 *   npm run bench -- cli                                                      as a case of bench/run.ts
 *
 * `WEBSEARCH_BENCH_CLI_BIN` measures another build of the binary (e.g. the previous release's), for a before and
 * after in the same run.
 */
import { execFileSync, spawn } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"

const bin =
  process.env.WEBSEARCH_BENCH_CLI_BIN ?? fileURLToPath(new URL("../packages/cli/bin/websearch.js", import.meta.url))

const spawnTime = (args: ReadonlyArray<string>): Promise<number> =>
  new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "ignore"] })
    child.on("error", reject)
    child.on("close", (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`${args.join(" ")} exited ${code}`))
    )
  })

const median = (samples: ReadonlyArray<number>): number => [...samples].sort((a, b) => a - b)[samples.length >> 1]

/** The three figures, each with its baseline, in milliseconds. */
export const measure = async (runs = 15) => {
  if (process.env.WEBSEARCH_BENCH_CLI_BIN === undefined) {
    // The bin only loads the bundle: rebuild it first when sources are newer.
    execFileSync(process.execPath, [
      fileURLToPath(new URL("../packages/cli/scripts/bundle.mjs", import.meta.url)),
      "--if-stale"
    ])
  }
  const server = createServer((_, response) =>
    response
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(
        "<html><head><title>Bench</title></head><body><article><h1>Bench</h1><p>A short page for the cold start of a fetch, with one paragraph of text.</p></article></body></html>"
      )
  )
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const cases = {
    help: [bin, "--help"],
    commandHelp: [bin, "fetch", "--help"],
    fetch: [bin, "fetch", url, "--allow-host", "127.0.0.1"]
  }
  const samples = { help: [] as Array<number>, commandHelp: [] as Array<number>, fetch: [] as Array<number> }
  const baseline: Array<number> = []
  try {
    for (let i = 0; i < runs; i++) {
      baseline.push(await spawnTime(["-e", "0"]))
      for (const [name, args] of Object.entries(cases))
        samples[name as keyof typeof samples].push(await spawnTime(args))
    }
  } finally {
    server.close()
  }
  return {
    baseline: median(baseline),
    help: median(samples.help),
    commandHelp: median(samples.commandHelp),
    fetch: median(samples.fetch)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 15)
  const figures = await measure(runs)
  const row = (name: string, ms: number) =>
    `${name.padEnd(16)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / figures.baseline).toFixed(2)}x node -e 0`
  console.log(`node -e 0        ${figures.baseline.toFixed(0).padStart(5)} ms (median of ${runs})`)
  console.log(row("--help", figures.help))
  console.log(row("fetch --help", figures.commandHelp))
  console.log(row("fetch loopback", figures.fetch))
}
