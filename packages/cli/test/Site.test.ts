/**
 * `websearch map` and `websearch crawl` as a user runs them: the binary as a process, a crawling provider module
 * (`support/siteModule.ts`) reading a site this test serves on loopback. Pages print as they arrive, `--json` is
 * one JSON object per event then the summary, a bad flag is a usage error naming the flag, and Ctrl-C mid-crawl
 * keeps the pages already printed, closes with a summary saying it was interrupted, and exits 130.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as SiteRequest from "@websearch/core/SiteRequest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Cli from "../src/internal/cli.js"
import * as SiteArgs from "../src/internal/siteArgs.js"
import { bundleModule } from "./support/bundleModule.js"
import { websearch, websearchCommand } from "./support/process.js"

// The site: `/` links to three pages, a missing one and one that never answers (for Ctrl-C); titles carry an ESC.
const links: Record<string, ReadonlyArray<string>> = {
  "/": ["/p/1", "/p/2", "/gone", "/p/3"],
  "/slow-site/": ["/slow-site/a", "/slow-site/b", "/slow-site/never", "/slow-site/c"]
}
let server: Server
let origin = ""
let module = ""
const requested: Array<string> = []
let onNever: (() => void) | undefined

// A site of HTML pages with robots.txt and a sitemap, read by the binary's own local fetcher (no module).
let htmlServer: Server
let htmlOrigin = ""
let onSlowHtml: (() => void) | undefined
const htmlLinks: Record<string, ReadonlyArray<string>> = {
  "/": ["/docs/setup", "/docs/pricing", "/blog/1", "/slow"],
  "/docs/setup": ["/docs/pricing", "/docs/deep"],
  "/docs/pricing": ["/docs/setup"]
}
const words = (path: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Word ${i} of ${path} says something about the site`).join(" ")
const htmlPage = (path: string) =>
  `<html><head><title>Title of ${path}</title></head><body><article><h1>Title of ${path}</h1>` +
  `<p>${words(path, 60)}</p>${(htmlLinks[path] ?? []).map((link) => `<a href="${link}">${link}</a>`).join(" ")}` +
  "</article></body></html>"

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname
    requested.push(path)
    if (path === "/map.json") {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify(["/", "/p/1", "/docs/setup", "/docs/pricing", "/blog/1"]))
      return
    }
    if (path === "/slow-site/never") {
      onNever?.()
      return
    }
    if (path === "/gone") {
      response.writeHead(404)
      response.end()
      return
    }
    response.writeHead(200, { "content-type": "application/json" })
    response.end(
      JSON.stringify({
        title: `Page ${path} \u001b]0;owned\u0007`,
        content: `The text of ${path}. `.repeat(40),
        links: links[path] ?? []
      })
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  module = await bundleModule("siteModule")
  htmlServer = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname
    if (path === "/robots.txt") {
      response
        .writeHead(200, { "content-type": "text/plain" })
        .end(`User-agent: *\nSitemap: ${htmlOrigin}/sitemap.xml\n`)
      return
    }
    if (path === "/sitemap.xml") {
      const urls = ["/", "/docs/setup", "/docs/pricing", "/blog/1"]
      response
        .writeHead(200, { "content-type": "application/xml" })
        .end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
            .map((u) => `<url><loc>${htmlOrigin}${u}</loc><lastmod>2026-11-0${u.length % 9}</lastmod></url>`)
            .join("")}</urlset>`
        )
      return
    }
    // The slow page hangs only for the Ctrl-C test (it is the one waiting for it).
    if (path === "/slow" && onSlowHtml !== undefined) {
      onSlowHtml()
      return
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(htmlPage(path))
  })
  await new Promise<void>((resolve) => htmlServer.listen(0, "127.0.0.1", resolve))
  htmlOrigin = `http://127.0.0.1:${(htmlServer.address() as AddressInfo).port}`
})

afterAll(async () => {
  htmlServer.closeAllConnections()
  await Promise.all([
    new Promise<void>((resolve) => server.close(() => resolve())),
    new Promise<void>((resolve) => htmlServer.close(() => resolve()))
  ])
})

const env = () => ({ WEBSEARCH_PROVIDER_MODULES: module })
const site = ["--provider", "sitecrawler", "--allow-host", "127.0.0.1"]

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown> & { _tag: string })

describe("websearch crawl", () => {
  it("--json prints one object per event, then the summary line", { timeout: 60_000 }, async () => {
    const ran = await websearch(["crawl", `${origin}/`, "--json", "--delay", "0", "--max-depth", "1", ...site], env())
    expect(ran.code).toBe(0)
    const events = lines(ran.stdout)
    const pages = events.filter((e) => e._tag === "CrawlPage")
    expect(pages.map((p) => p.url).sort()).toEqual([`${origin}/`, `${origin}/p/1`, `${origin}/p/2`, `${origin}/p/3`])
    expect(events.filter((e) => e._tag === "CrawlFailure")).toEqual([
      expect.objectContaining({ url: `${origin}/gone`, failure: expect.objectContaining({ reason: "http_404" }) })
    ])
    const done = events[events.length - 1]
    expect(done).toMatchObject({ _tag: "CrawlDone", providerId: "sitecrawler", pages: 4, failed: 1, cuts: [] })
    // The page's ESC and BEL stay data: escaped in JSON, never raw on the terminal.
    expect(ran.stdout).not.toMatch(/[\u0007\u001b]/)
    expect((pages[0].result as { title: string }).title).toContain("\u001b]0;owned")
    expect(ran.stderr).toBe("")
  })

  it("prints each page with its title, URL and excerpt; failures, progress and the summary on stderr", async () => {
    const ran = await websearch(["crawl", `${origin}/`, "--max-pages", "3", "--delay", "0", ...site], env())
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain(`[1] Page / ␛]0;owned␇`)
    expect(ran.stdout).toContain(`    ${origin}/ (depth 0)`)
    expect(ran.stdout).toContain("The text of /. The text of /.")
    expect(ran.stdout).not.toMatch(/[\u0007\u001b]/)
    expect(ran.stdout.match(/^\[\d\] /gm)).toHaveLength(3)
    expect(ran.stderr).toContain("[1/3] ")
    expect(ran.stderr).toContain("crawled")
    expect(ran.stderr).toContain("3 pages read")
    // The cut names the flag, not the request's field.
    expect(ran.stderr).toMatch(/cut \(maxPages\): .*--max-pages/)
    expect(ran.stderr).not.toContain("(maxPages);")
  })

  it.each([
    [["--max-pages", "0"], "--max-pages takes a whole number from 1 to 10000"],
    [["--max-depth", "11"], "--max-depth takes a whole number from 0 to 10"],
    [["--include", "docs"], '--include takes a path pattern that starts with "/"'],
    [["--exclude", "/a b"], "--exclude takes a path pattern"],
    [["--concurrency", "17"], "--concurrency"],
    [["--limit", "5"], '--limit does not apply to "crawl"']
  ])("a bad flag %j is a usage error naming it", async (flags, message) => {
    const plain = await websearch(["crawl", "https://example.com/", ...flags], env())
    expect(plain.code).toBe(2)
    expect(plain.stderr).toContain(message)
    const json = await websearch(["crawl", "https://example.com/", "--json", ...flags], env())
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { _tag: "UsageError" } })
    expect(json.stdout).toContain(message.replaceAll('"', '\\"'))
  })

  it("a start URL the policy refuses fails before any page, exit 1", async () => {
    const ran = await websearch(["crawl", `${origin}/`, "--provider", "sitecrawler", "--json"], env())
    expect(ran.code).toBe(1)
    expect(JSON.parse(ran.stdout)).toMatchObject({ ok: false, error: { reason: "ssrf_rejected" } })
  })

  // Ctrl-C while a page hangs: the child is interrupted once the server sees the request that never answers.
  const interrupted = (args: ReadonlyArray<string>) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(websearchCommand[0], [...websearchCommand.slice(1), ...args], {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env() },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let stdout = ""
      let stderr = ""
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
      // Once the pages before it were printed (the crawl reads one page at a time here).
      onNever = () => setTimeout(() => child.kill("SIGINT"), 300)
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
      child.on("error", reject)
      child.on("close", (code) => {
        clearTimeout(timer)
        onNever = undefined
        resolve({ code, stdout, stderr })
      })
    })
  const slowCrawl = () => ["crawl", `${origin}/slow-site/`, "--concurrency", "1", "--delay", "0", ...site]

  it("Ctrl-C mid-crawl keeps the pages printed, says it was interrupted, exits 130", { timeout: 60_000 }, async () => {
    const ran = await interrupted(slowCrawl())
    expect(ran.code).toBe(130)
    expect(ran.stdout).toContain(`${origin}/slow-site/ (depth 0)`)
    expect(ran.stdout).toContain(`${origin}/slow-site/a (depth 1)`)
    expect(ran.stdout).toContain(`${origin}/slow-site/b (depth 1)`)
    expect(ran.stdout).not.toContain("/slow-site/c")
    expect(ran.stderr).toMatch(/interrupted: .*3 pages read, 0 failed before Ctrl-C; the pages printed are kept/)
  })

  it("Ctrl-C under --json closes with a CrawlDone line whose cut is interrupted", { timeout: 60_000 }, async () => {
    const ran = await interrupted([...slowCrawl(), "--json"])
    expect(ran.code).toBe(130)
    const events = lines(ran.stdout)
    expect(events.filter((e) => e._tag === "CrawlPage")).toHaveLength(3)
    expect(events[events.length - 1]).toMatchObject({
      _tag: "CrawlDone",
      providerId: "sitecrawler",
      pages: 3,
      failed: 0,
      cuts: [{ reason: "interrupted" }]
    })
  })
})

describe("websearch map", () => {
  it("--json prints the map as one object; --search ranks and --include filters", async () => {
    const ran = await websearch(
      ["map", `${origin}/`, "--json", "--search", "pricing", "--include", "/docs/", ...site],
      env()
    )
    expect(ran.code).toBe(0)
    const out = JSON.parse(ran.stdout) as { ok: boolean; response: { links: Array<{ url: string }> } }
    expect(out.ok).toBe(true)
    expect(out.response.links.map((l) => l.url)).toEqual([`${origin}/docs/pricing`, `${origin}/docs/setup`])
  })

  it("prints one URL a line, its summary on stderr, and --limit cuts with a cut naming the flag", async () => {
    const ran = await websearch(["map", `${origin}/`, "--limit", "2", ...site], env())
    expect(ran.code).toBe(0)
    expect(ran.stdout.trim().split("\n")).toEqual([`${origin}/  (sitemap)`, `${origin}/p/1  (sitemap)`])
    expect(ran.stderr).toContain("2 URLs")
    expect(ran.stderr).toContain("cut (limit)")
  })

  it("a bad --limit is a usage error naming it", async () => {
    const ran = await websearch(["map", "example.com", "--limit", "0"], env())
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain("--limit takes a whole number from 1 to 5000")
  })
})

// The README's command lines of "Whole sites", each run as written with the binary's own local fetcher against
// the HTML site: its URL becomes the site's (same path) and loopback is allowed; a redirection to a file is left out.
const readmeLines = (): Array<Array<string>> => {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
  const section = readme.slice(readme.indexOf("## Whole sites: map and crawl"))
  const block = section.slice(section.indexOf("```sh\n") + 6, section.indexOf("\n```", section.indexOf("```sh\n")))
  return block.split("\n").map((line) => line.split(" > ")[0].trim().split(/\s+/))
}

describe("the README's map and crawl lines", () => {
  it("are what the section shows, and each runs with the local fetcher and exits 0", { timeout: 120_000 }, async () => {
    const commands = readmeLines()
    expect(commands.map((words) => words.slice(0, 2).join(" "))).toEqual([
      "websearch map",
      "websearch map",
      "websearch crawl",
      "websearch crawl"
    ])
    for (const [, command, url, ...flags] of commands) {
      const path = new URL(url.includes("://") ? url : `https://${url}`).pathname
      const ran = await websearch([command, `${htmlOrigin}${path}`, ...flags, "--allow-host", "127.0.0.1"])
      expect([command, ...flags, ran.code, ran.stderr]).toEqual([command, ...flags, 0, expect.any(String)])
      expect(ran.stdout.length).toBeGreaterThan(0)
    }
  })
})

describe("map and crawl with the local fetcher", () => {
  it("map reads robots.txt and the sitemap: URLs with their lastmod, ranked by --search", async () => {
    const ran = await websearch(["map", htmlOrigin, "--search", "pricing", "--json", "--allow-host", "127.0.0.1"])
    expect(ran.code).toBe(0)
    const { response } = JSON.parse(ran.stdout) as {
      response: { providerId: string; links: Array<{ url: string; source: string; lastmod?: string }> }
    }
    expect(response.providerId).toBe("fetch")
    expect(response.links[0]).toMatchObject({ url: `${htmlOrigin}/docs/pricing`, source: "sitemap" })
    expect(response.links[0].lastmod).toMatch(/^2026-11-0/)
  })

  it(
    "crawl --json reads the HTML pages breadth-first within --include, then the summary",
    { timeout: 60_000 },
    async () => {
      const refused = await websearch(["crawl", `${htmlOrigin}/`, "--json"])
      // Loopback is refused by the URL policy unless allowed: the start fails before any page.
      expect(refused.code).toBe(1)
      expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { reason: "ssrf_rejected" } })
      const allowed = await websearch([
        "crawl",
        `${htmlOrigin}/`,
        "--include",
        "/docs/",
        "--max-depth",
        "1",
        "--delay",
        "0",
        "--json",
        "--allow-host",
        "127.0.0.1"
      ])
      expect(allowed.code).toBe(0)
      const events = lines(allowed.stdout)
      const pages = events.filter((e) => e._tag === "CrawlPage") as unknown as Array<{
        url: string
        result: { title: string }
      }>
      // The start page is read whatever the patterns say; its links outside /docs/ are not.
      expect(pages.map((p) => p.url).sort()).toEqual([
        `${htmlOrigin}/`,
        `${htmlOrigin}/docs/pricing`,
        `${htmlOrigin}/docs/setup`
      ])
      expect(pages.find((p) => p.url.endsWith("/docs/setup"))?.result.title).toBe("Title of /docs/setup")
      expect(events[events.length - 1]).toMatchObject({ _tag: "CrawlDone", providerId: "fetch", pages: 3, failed: 0 })
    }
  )

  it(
    "Ctrl-C while the local fetcher waits on a page keeps the pages printed and exits 130",
    { timeout: 60_000 },
    async () => {
      onSlowHtml = () => setTimeout(() => running?.kill("SIGINT"), 300)
      let running: ReturnType<typeof spawn> | undefined
      const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(
          websearchCommand[0],
          [
            ...websearchCommand.slice(1),
            "crawl",
            `${htmlOrigin}/`,
            "--max-depth",
            "1",
            "--concurrency",
            "1",
            "--delay",
            "0",
            "--allow-host",
            "127.0.0.1"
          ],
          { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }, stdio: ["ignore", "pipe", "pipe"] }
        )
        running = child
        let stdout = ""
        let stderr = ""
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
        const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
        child.on("error", reject)
        child.on("close", (code) => {
          clearTimeout(timer)
          resolve({ code, stdout, stderr })
        })
      })
      onSlowHtml = undefined
      expect(ran.code).toBe(130)
      expect(ran.stdout).toContain("Title of /")
      expect(ran.stderr).toContain("before Ctrl-C; the pages printed are kept")
    }
  )
})

describe("core's words about a site request, in flag words", () => {
  it.each([
    ["maxPages is an integer from 1 to 10000", "--max-pages is an integer from 1 to 10000"],
    [
      "invalid crawlSite request: includePaths[0]: a path pattern starts with",
      "invalid crawlSite request: --include[0]: a path pattern starts with"
    ],
    ["at most 20 excludePaths", "at most 20 --exclude"],
    ["delay is an integer from 0 to 60000", "--delay is an integer from 0 to 60000"],
    ["tavily cannot honour concurrency (politeness)", "tavily cannot honour --concurrency (politeness)"],
    ["the map reached its limit of 20 URLs (limit)", "the map reached its limit of 20 URLs (--limit)"],
    ["Tavily cannot honour delay: Tavily sets its own", "Tavily cannot honour --delay: Tavily sets its own"],
    [
      "Tavily cannot honour fromMap: Tavily crawls from the start URL only",
      "Tavily cannot honour --from-map: Tavily crawls from the start URL only"
    ],
    ["the crawl delay of robots.txt is kept", "the crawl delay of robots.txt is kept"]
  ])("%s", (message, expected) => {
    expect(SiteArgs.inFlagWords(message)).toBe(expected)
  })
})

// The command line refuses exactly what the request would: its checks are the request's, worded for flags.
describe("the flags' checks are the request's", () => {
  const accepts = Either.isRight
  const decodes = (fields: Record<string, unknown>) =>
    Either.isRight(Schema.decodeUnknownEither(SiteRequest.CrawlSiteRequest)({ url: "https://example.com/", ...fields }))
  // Patterns as typed (a token starting with "-" is an option of its own, whatever the flag before it).
  const pattern = FastCheck.oneof(
    FastCheck.string({ maxLength: 8 }).filter((raw) => !raw.startsWith("-")),
    FastCheck.string({ maxLength: 210 }).map((rest) => `/${rest}`),
    FastCheck.constantFrom("/docs/", "/a b", "/\u0007x", "docs", "/", "/blog/*.html$", `/${"x".repeat(199)}`)
  )

  it.prop("an --include pattern is accepted exactly when the request's includePaths accepts it", [pattern], ([raw]) => {
    // The parser trims a repeated option's value (a stray space around a pattern); a blank one is refused by name.
    const parsed = Cli.parse(["crawl", "https://example.com/", "--include", raw])
    const blank = raw.trim() === ""
    expect(accepts(parsed)).toBe(!blank && decodes({ includePaths: [raw.trim()] }))
    if (Either.isLeft(parsed)) {
      expect(parsed.left.message).toContain(
        blank ? "--include takes a value (PATTERN)" : "--include takes a path pattern"
      )
    }
  })

  // Values as typed (a token starting with "-" is an option of its own, whatever the flag before it).
  const whole = FastCheck.oneof(
    FastCheck.integer({ min: 0, max: 10_050 }).map(String),
    FastCheck.string({ maxLength: 5 }).filter((raw) => !raw.startsWith("-"))
  )
  it.prop(
    "--max-pages, --max-depth, --concurrency and --delay take exactly the request's numbers",
    [
      FastCheck.constantFrom(
        ["max-pages", "maxPages"],
        ["max-depth", "maxDepth"],
        ["concurrency", "concurrency"],
        ["delay", "delay"]
      ),
      whole
    ],
    ([[flag, field], raw]) => {
      const parsed = Cli.parse(["crawl", "https://example.com/", `--${flag}`, raw])
      expect(accepts(parsed)).toBe(/^\d+$/.test(raw) && decodes({ [field]: Number(raw) }))
      if (Either.isLeft(parsed)) expect(parsed.left.message).toContain(`--${flag} takes a whole number`)
    }
  )
})
