/**
 * WCXB scored through the command line, the way the held-out test split is scored: every page is served from a
 * loopback server of its own on 127.0.0.1, at its original path and query (so what extraction reads off the URL is
 * the page's own), and read by `websearch fetch --json` (the built binary, under the loopback guard, with no
 * settings file or cache), 20 URLs a call; each result's markdown is scored with the benchmark's own metric
 * (test-support/wcxb.ts), overall and per page type, and the pages that failed are counted by reason. Any directory
 * of the corpus's layout (`html/NNNN.html.gz`, `ground-truth/NNNN.json`) can be scored: the development set by
 * default, the held-out test split with `--dir`.
 *
 *   nice node --conditions=@websearch/source --import tsx bench/wcxb-cli.ts [options]
 *     --dir DIR       the corpus directory (default ../shared/corpus/wcxb-dev, or WEBSEARCH_WCXB_CORPUS)
 *     --every N       one page in N
 *     --type T        only pages of this type (repeatable)
 *     --batch N       URLs per `websearch fetch` call (default 20, the most it takes)
 *     --out FILE      each page's scores, the page type it was read as and its failure, as JSON
 *   WEBSEARCH_BENCH_CLI_BIN=/path/to/bin/websearch.js scores another build (an installed package's bin); by default
 *   the workspace's bundle, rebuilt first when the sources are newer.
 */
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Wcxb from "../test-support/wcxb.js"

const args = process.argv.slice(2)
const values = (flag: string): Array<string> =>
  args.flatMap((a, i) => (a === flag && i + 1 < args.length ? [args[i + 1]] : []))
const value = (flag: string): string | undefined => values(flag)[0]

const bin =
  process.env.WEBSEARCH_BENCH_CLI_BIN ?? fileURLToPath(new URL("../packages/cli/bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../test-support/loopbackGuard.js", import.meta.url))

interface Result {
  readonly sourceInput: string
  readonly content: string
  readonly pageType?: string
}

interface Failure {
  readonly input: string
  readonly _tag: string
  readonly reason: string
}

interface Answer {
  readonly ok: boolean
  readonly response?: { readonly results: ReadonlyArray<Result>; readonly failures: ReadonlyArray<Failure> }
  readonly error?: { readonly _tag: string; readonly reason: string; readonly failures?: ReadonlyArray<Failure> }
}

/** A server on 127.0.0.1 that answers the page at its own path and query, and 404 anything else. */
const serve = (path: string, body: Uint8Array): Promise<{ readonly server: Server; readonly url: string }> =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      if (request.url === path) response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body)
      else response.writeHead(404, { "content-type": "text/plain" }).end("not here")
    })
    server.listen(0, "127.0.0.1", () => {
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}` })
    })
  })

/** `websearch fetch URLS --json`, with an empty home for settings and cache. */
const fetchJson = (urls: ReadonlyArray<string>, home: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        guard,
        bin,
        "fetch",
        ...urls,
        "--json",
        "--allow-host",
        "127.0.0.1",
        "--no-cache",
        "--timeout",
        "120"
      ],
      {
        env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: home, XDG_CACHE_HOME: home },
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.resume()
    child.on("error", reject)
    child.on("close", () => {
      try {
        resolve(JSON.parse(stdout) as Answer)
      } catch (error) {
        reject(new Error(`websearch fetch printed no JSON answer: ${String(error)}: ${stdout.slice(0, 200)}`))
      }
    })
  })

const pathOf = (url: string): string => {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

interface PageScore {
  readonly id: string
  readonly type: Wcxb.WcxbType
  readonly readAs: string | undefined
  readonly failure: string | undefined
  readonly f1: number
  readonly precision: number
  readonly recall: number
}

const main = async () => {
  const types = values("--type") as Array<Wcxb.WcxbType>
  const pages = Wcxb.load({
    dir: value("--dir"),
    every: Number(value("--every") ?? 1),
    types: types.length > 0 ? types : undefined
  })
  if (pages === undefined) {
    console.error("wcxb-cli: no corpus there (--dir DIR, ../shared/corpus/wcxb-dev or WEBSEARCH_WCXB_CORPUS)")
    process.exit(2)
  }
  if (process.env.WEBSEARCH_BENCH_CLI_BIN === undefined) {
    // The bin only loads the bundle: rebuild it first when sources are newer.
    execFileSync(process.execPath, [
      fileURLToPath(new URL("../packages/cli/scripts/bundle.mjs", import.meta.url)),
      "--if-stale"
    ])
  }
  const batch = Math.min(20, Math.max(1, Number(value("--batch") ?? 20)))
  const home = mkdtempSync(join(tmpdir(), "wcxb-cli-"))
  const started = performance.now()
  const scored: Array<Parameters<typeof Wcxb.summarize>[0][number]> = []
  const perPage: Array<PageScore> = []
  const reasons = new Map<string, number>()
  try {
    for (let start = 0; start < pages.length; start += batch) {
      const group = pages.slice(start, start + batch)
      const servers = await Promise.all(group.map((page) => serve(pathOf(page.url), page.bytes())))
      try {
        const answer = await fetchJson(
          servers.map((s) => s.url),
          home
        )
        const results = new Map((answer.response?.results ?? []).map((r) => [r.sourceInput, r]))
        const failures = new Map(
          (answer.response?.failures ?? answer.error?.failures ?? []).map((f) => [f.input, `${f._tag}/${f.reason}`])
        )
        group.forEach((page, i) => {
          const result = results.get(servers[i].url)
          const markdown = result?.content ?? ""
          const failure =
            result === undefined
              ? (failures.get(servers[i].url) ?? `${answer.error?._tag}/${answer.error?.reason}`)
              : undefined
          if (failure !== undefined) reasons.set(failure, (reasons.get(failure) ?? 0) + 1)
          const s = Wcxb.scoreMarkdown(page, markdown)
          scored.push({
            type: page.type,
            expected: page.expected,
            bag: s.bag,
            set: s.set,
            empty: markdown.trim() === ""
          })
          perPage.push({ id: page.id, type: page.type, readAs: result?.pageType, failure, ...s.bag })
        })
      } finally {
        await Promise.all(servers.map((s) => new Promise((resolve) => s.server.close(resolve))))
      }
      process.stderr.write(`\r${Math.min(start + batch, pages.length)} of ${pages.length} pages`)
    }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
  process.stderr.write("\n")
  const summary = Wcxb.summarize(scored)
  console.log(
    `through \`websearch fetch --json\` (${bin}), ${pages.length} pages of ${value("--dir") ?? Wcxb.corpusDir}`
  )
  for (const line of Wcxb.table(summary)) console.log(line)
  console.log(`failed pages by reason: ${[...reasons].map(([reason, n]) => `${reason} ${n}`).join(", ") || "none"}`)
  const kinds = [...new Set(perPage.map((p) => p.readAs ?? "-"))].sort()
  console.log(`\nlabel \\ read as | ${kinds.join(" | ")}`)
  for (const type of Wcxb.pageTypes) {
    const of = perPage.filter((p) => p.type === type)
    if (of.length > 0)
      console.log(`${type} | ${kinds.map((k) => of.filter((p) => (p.readAs ?? "-") === k).length).join(" | ")}`)
  }
  console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`)
  const out = value("--out")
  if (out !== undefined) writeFileSync(out, JSON.stringify(perPage))
}

await main()
