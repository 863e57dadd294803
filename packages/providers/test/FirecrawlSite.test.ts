/**
 * Firecrawl's `mapSite` and `crawlSite` over real HTTP against a loopback server replaying the recorded-style
 * fixtures: the bodies sent, the links and pages read, the crawl job polled and paged by `next`, its per-page
 * failures, a failed job, the job cancelled when the stream stops early, and the key kept out of every error, log
 * line and span.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as Firecrawl from "../src/Firecrawl.js"
import * as Server from "./support/providerServer.js"
import * as Site from "./support/siteDriver.js"

type Json = Server.FixtureJson

const mapFixture = Server.fixture<Json>("firecrawl_map.json")
const crawlFixture = Server.fixture<Json>("firecrawl_crawl.json")
const jobId: string = crawlFixture.start.response.body.id
const jobPath = `/v2/crawl/${jobId}`

const rt = Site.runtime()
let server: Server.ProviderServer
let driver: ProviderDriver.AnyProviderDriver
beforeAll(async () => {
  server = await Server.start()
  driver = await rt.runPromise(Firecrawl.make)
})
afterAll(async () => {
  await rt.dispose()
  await server.close()
})

// The recorded answers name api.firecrawl.dev in `next`: served from here, they name this server.
const local = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body).replaceAll("https://api.firecrawl.dev", server.url))

const options = { crawlPollInterval: 5 }
const map = (input: Parameters<typeof Site.mapRequest>[0], keys?: ReadonlyArray<string>) =>
  Site.capture(rt, driver.mapSite!(Site.mapRequest(input), Site.ctxOf(server, driver, "mapSite", { keys, options })))
const crawl = (input: Parameters<typeof Site.crawlRequest>[0], keys?: ReadonlyArray<string>) =>
  driver.crawlSite!(Site.crawlRequest(input), Site.ctxOf(server, driver, "crawlSite", { keys, options }))

const isJob = (r: Server.Recorded) => r.method === "GET" && r.path === jobPath
const recordedJob = (): Server.Handler =>
  Server.route(
    [(r) => r.method === "POST" && r.path === "/v2/crawl", Server.json(crawlFixture.start.response.body)],
    [
      (r) => isJob(r) && r.query.get("skip") === "2",
      (q, res) => Server.json(local(crawlFixture.status_pages[1].response.body))(q, res)
    ],
    [isJob, (q, res) => Server.json(local(crawlFixture.status_pages[0].response.body))(q, res)],
    [(r) => r.method === "GET" && r.path === `${jobPath}/errors`, Server.json(crawlFixture.errors.response.body)],
    [(r) => r.method === "DELETE" && r.path === jobPath, Server.json(crawlFixture.cancel.response.body)]
  )

const summary = (items: ReadonlyArray<ProviderDriver.CrawlItem>) =>
  items.map((item) =>
    item._tag === "Page"
      ? ["Page", item.url, item.result.title, item.result.content]
      : ["Failed", item.url, item.error._tag, item.error.reason]
  )

describe("Firecrawl mapSite", () => {
  it("posts the map body to /v2/map with the Bearer key and keeps the links (titles included) it can use", async () => {
    server.handle = Server.json(mapFixture.response.body)
    server.requests.length = 0
    const run = await map({ url: "https://docs.example.com/", search: "pricing", limit: 20 })
    const output = Site.value(run)
    expect(server.requests).toHaveLength(1)
    const sent = server.requests[0]!
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual(["POST", "/v2/map", `Bearer ${Server.canary}`])
    expect(sent.body).toEqual({
      url: "https://docs.example.com/",
      limit: 20,
      includeSubdomains: false,
      sitemap: "include",
      search: "pricing"
    })
    expect(output.links).toEqual([
      { url: "https://docs.example.com/pricing", source: "provider", title: "Pricing | Example Docs" },
      { url: "https://docs.example.com/guide/start", source: "provider", title: "Getting started" },
      { url: "https://docs.example.com/blog/launch", source: "provider" },
      { url: "https://docs.example.com/api", source: "provider" }
    ])
    expect(output.cuts).toEqual([])
    // The mailto link is dropped, and said so.
    expect(run.logs.some((l) => l.includes("dropped 1 link"))).toBe(true)
  })

  it("asks for websearch's most links when path patterns will filter them, and reads v1's bare URL list", async () => {
    server.handle = Server.json(mapFixture.v1_variant.response)
    server.requests.length = 0
    const output = Site.value(
      await map({ url: "https://docs.example.com/", includeSubdomains: true, excludePaths: ["/blog"] })
    )
    expect(server.requests[0]!.body).toMatchObject({ limit: 5_000, includeSubdomains: true })
    expect(server.requests[0]!.body).not.toHaveProperty("search")
    expect(output.links.map((l) => l.url)).toEqual([
      "https://docs.example.com/pricing",
      "https://docs.example.com/guide/start"
    ])
  })

  it("keeps at most websearch's most links of a longer answer, and says so with a cut", async () => {
    const links = Array.from({ length: 5_003 }, (_, i) => ({ url: `https://docs.example.com/p/${i}` }))
    server.handle = Server.json({ success: true, links })
    const output = Site.value(await map({ url: "https://docs.example.com/" }))
    expect(output.links).toHaveLength(5_000)
    expect(output.links.at(-1)?.url).toBe("https://docs.example.com/p/4999")
    expect(output.cuts).toEqual([{ reason: "limit", message: expect.stringContaining("more than 5000 links") }])
  })

  it("maps the recorded 402 to a plan limit, success: false to http_status, and never shows the key", async () => {
    server.handle = Server.reply(402, mapFixture.error_examples[0].body)
    const payment = await map({ url: "https://docs.example.com/" })
    expect(Site.error(payment)).toMatchObject({
      _tag: "RequestFailed",
      reason: "rate_limited",
      providerId: "firecrawl",
      capability: "mapSite",
      input: "https://docs.example.com/"
    })
    server.handle = Server.json({ success: false, code: "BAD_REQUEST", error: `bad key ${Server.canary}` })
    const refused = await map({ url: "https://docs.example.com/" })
    expect(Site.error(refused)).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(Site.visible(refused)).not.toContain(Server.canary)
  })
})

describe("Firecrawl crawlSite", () => {
  it("starts the job with the request's limits and patterns as regular expressions", async () => {
    server.handle = recordedJob()
    server.requests.length = 0
    Site.value(
      await Site.capture(
        rt,
        Site.collect(
          crawl({
            url: "https://docs.example.com/",
            maxPages: 25,
            maxDepth: 3,
            includeSubdomains: true,
            includePaths: ["/docs/*.html$", "/guide"],
            excludePaths: ["/docs/old"],
            fromMap: true,
            concurrency: 4,
            delay: 1500
          })
        )
      )
    )
    const start = server.requests[0]!
    expect([start.method, start.path, start.headers.authorization]).toEqual([
      "POST",
      "/v2/crawl",
      `Bearer ${Server.canary}`
    ])
    expect(start.body).toEqual({
      url: "https://docs.example.com/",
      limit: 25,
      maxDiscoveryDepth: 3,
      crawlEntireDomain: true,
      allowSubdomains: true,
      allowExternalLinks: false,
      sitemap: "include",
      includePaths: ["^\\/docs\\/.*\\.html$", "^\\/guide"],
      excludePaths: ["^\\/docs\\/old"],
      maxConcurrency: 4,
      delay: 1.5,
      scrapeOptions: { formats: ["markdown"], onlyMainContent: true }
    })
    // The translated patterns mean what ours mean.
    const include = new RegExp((start.body!.includePaths as Array<string>)[0]!)
    expect(include.test("/docs/a/b.html")).toBe(true)
    expect(include.test("/docs/a.htm")).toBe(false)
    expect(include.test("/x/docs/a.html")).toBe(false)
  })

  it("sends the crawl's defaults: the sitemap skipped, no politeness of its own, delay 0 as none", async () => {
    server.handle = recordedJob()
    server.requests.length = 0
    Site.value(await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/", delay: 0 }))))
    expect(server.requests[0]!.body).toEqual({
      url: "https://docs.example.com/",
      limit: 10,
      maxDiscoveryDepth: 2,
      crawlEntireDomain: true,
      allowSubdomains: false,
      allowExternalLinks: false,
      sitemap: "skip",
      scrapeOptions: { formats: ["markdown"], onlyMainContent: true }
    })
  })

  it("polls the job, follows next, emits each page once, then the failed pages from the errors endpoint", async () => {
    server.handle = recordedJob()
    server.requests.length = 0
    const run = await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" })))
    const items = Site.value(run)
    expect(summary(items)).toEqual([
      ["Page", "https://docs.example.com/", "Example Docs", "# Example Docs\n\nWelcome to the docs."],
      ["Page", "https://docs.example.com/docs/intro", "Introduction", "# Introduction\n\nWhat Example does."],
      ["Page", "https://docs.example.com/docs/install", "Install", "# Install\n\nRun the installer."],
      ["Failed", "https://docs.example.com/docs/old", "RequestFailed", "http_404"],
      ["Failed", "https://docs.example.com/docs/slow", "RequestFailed", "http_status"],
      ["Failed", "https://docs.example.com/docs/private", "RequestFailed", "robots_disallowed"]
    ])
    const page = items[0]!
    expect(page._tag === "Page" && page.result.url).toBe("https://docs.example.com/")
    const slow = items[4]!
    expect(slow._tag === "Failed" && slow.error).toMatchObject({
      input: "https://docs.example.com/docs/slow",
      capability: "crawlSite"
    })
    expect(slow._tag === "Failed" && slow.error.message).toContain("Request timed out")
    expect(server.requests.map((r) => `${r.method} ${r.path}${r.query.size > 0 ? `?${r.query}` : ""}`)).toEqual([
      "POST /v2/crawl",
      `GET ${jobPath}`,
      `GET ${jobPath}?skip=2`,
      `GET ${jobPath}/errors`
    ])
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${Server.canary}`)).toBe(true)
    // The job ended by itself: nothing to cancel.
    expect(server.requests.some((r) => r.method === "DELETE")).toBe(false)
  })

  it("keeps polling while the job scrapes, emitting only the pages it has not emitted yet", async () => {
    const [first, second] = crawlFixture.status_pages[0].response.body.data
    const answers = [
      { status: "scraping", total: 2, completed: 0, data: [] },
      { status: "scraping", total: 2, completed: 1, data: [first] },
      { status: "scraping", total: 2, completed: 1, data: [first] },
      { status: "completed", total: 2, completed: 2, data: [first, second] }
    ]
    let polls = 0
    server.handle = Server.route(
      [(r) => r.method === "POST", Server.json(crawlFixture.start.response.body)],
      [isJob, (q, res) => Server.json(answers[Math.min(polls++, answers.length - 1)])(q, res)],
      [(r) => r.path.endsWith("/errors"), Server.json({ errors: [], robotsBlocked: [] })]
    )
    server.requests.length = 0
    const items = Site.value(await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" }))))
    expect(items.map((i) => i.url)).toEqual(["https://docs.example.com/", "https://docs.example.com/docs/intro"])
    expect(server.requests.filter(isJob)).toHaveLength(4)
  })

  it("never follows a next link off the API's origin (the key would go with it)", async () => {
    const body = {
      ...crawlFixture.status_pages[0].response.body,
      status: "completed",
      next: `http://evil.test${jobPath}?skip=2`
    }
    server.handle = Server.route(
      [(r) => r.method === "POST", Server.json(crawlFixture.start.response.body)],
      [isJob, Server.json(body)],
      [(r) => r.path.endsWith("/errors"), Server.json({ errors: [] })]
    )
    server.requests.length = 0
    const items = Site.value(await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" }))))
    expect(items).toHaveLength(2)
    expect(server.requests.filter((r) => r.query.has("skip"))).toEqual([])
  })

  it("fails a job that failed without a page, and keeps the pages of one that failed after some", async () => {
    server.handle = Server.route(
      [(r) => r.method === "POST", Server.json(crawlFixture.start.response.body)],
      [isJob, Server.json(crawlFixture.failed.response.body)],
      [(r) => r.path.endsWith("/errors"), Server.json({ errors: [] })]
    )
    const failed = await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" })))
    expect(Site.error(failed)).toMatchObject({
      _tag: "RequestFailed",
      reason: "http_status",
      providerId: "firecrawl",
      capability: "crawlSite"
    })
    expect(Site.error(failed).message).toContain("crawl job failed")
    const [first] = crawlFixture.status_pages[0].response.body.data
    server.handle = Server.route(
      [(r) => r.method === "POST", Server.json(crawlFixture.start.response.body)],
      [isJob, Server.json({ ...crawlFixture.failed.response.body, data: [first] })],
      [(r) => r.path.endsWith("/errors"), Server.json(crawlFixture.errors.response.body)]
    )
    const partial = Site.value(await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" }))))
    expect(partial.map((i) => i._tag)).toEqual(["Page", "Failed", "Failed"])
  })

  it("keeps the pages when the errors endpoint fails, and logs it; follows no next link of another job", async () => {
    const body = { ...crawlFixture.status_pages[0].response.body, next: `https://api.firecrawl.dev${jobPath}0?skip=2` }
    server.handle = Server.route(
      [(r) => r.method === "POST", Server.json(crawlFixture.start.response.body)],
      [isJob, (q, res) => Server.json(local({ ...body, status: "completed" }))(q, res)],
      [(r) => r.path.endsWith("/errors"), Server.reply(500, { success: false, error: "errors unavailable" })]
    )
    server.requests.length = 0
    const run = await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" })))
    expect(Site.value(run).map((i) => i._tag)).toEqual(["Page", "Page"])
    expect(run.logs.some((l) => l.includes("could not list the failed pages"))).toBe(true)
    expect(server.requests.map((r) => r.path)).toEqual(["/v2/crawl", jobPath, `${jobPath}/errors`])
  })

  it("cancels the job with DELETE when the stream is interrupted mid-crawl", async () => {
    server.handle = Server.route(
      [(r) => r.method === "POST", Server.json(crawlFixture.start.response.body)],
      [isJob, Server.json({ status: "scraping", total: 10, completed: 0, data: [] })],
      [(r) => r.method === "DELETE", Server.json(crawlFixture.cancel.response.body)]
    )
    server.requests.length = 0
    const fiber = rt.runFork(Site.collect(crawl({ url: "https://docs.example.com/" })))
    expect(await Site.eventually(() => server.requests.filter(isJob).length >= 2)).toBe(true)
    await rt.runPromise(Fiber.interrupt(fiber))
    const deletes = server.requests.filter((r) => r.method === "DELETE")
    expect(deletes.map((r) => [r.path, r.headers.authorization])).toEqual([[jobPath, `Bearer ${Server.canary}`]])
    // Interruption stops the polling too.
    const polls = server.requests.filter(isJob).length
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.requests.filter(isJob)).toHaveLength(polls)
  })

  it("cancels the job when the caller stops reading early, and at maxPages", async () => {
    const { data } = crawlFixture.status_pages[0].response.body
    server.handle = Server.route(
      [(r) => r.method === "POST", Server.json(crawlFixture.start.response.body)],
      [isJob, Server.json({ status: "scraping", total: 10, completed: 2, data })],
      [(r) => r.method === "DELETE", Server.json(crawlFixture.cancel.response.body)]
    )
    server.requests.length = 0
    const taken = Site.value(
      await Site.capture(
        rt,
        Site.collect(crawl({ url: "https://docs.example.com/", maxPages: 5 }).pipe(Stream.take(1)))
      )
    )
    expect(taken).toHaveLength(1)
    expect(server.requests.filter((r) => r.method === "DELETE")).toHaveLength(1)
    server.requests.length = 0
    const capped = Site.value(
      await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/", maxPages: 1 })))
    )
    expect(capped.map((i) => i.url)).toEqual(["https://docs.example.com/"])
    expect(server.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([jobPath])
  })

  it("refuses a job id it would not put in a path, and cancels nothing it cannot name", async () => {
    server.handle = Server.json({ success: true, id: "../../v1/account" })
    server.requests.length = 0
    const run = await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" })))
    expect(Site.error(run)).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(server.requests).toHaveLength(1)
  })

  it("fails before any request without a key, and maps a refused start to its typed error", async () => {
    server.requests.length = 0
    const keyless = await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" }, [])))
    expect(Site.error(keyless)).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(server.requests).toHaveLength(0)
    server.handle = Server.reply(429, crawlFixture.error_examples[1].body, { "retry-after": "7" })
    const limited = await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" })))
    expect(Site.error(limited)).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryAfter: 7 })
  })

  it("keeps the key out of errors, logs and spans when Firecrawl quotes it back, on a poll as on the start", async () => {
    const echo = { success: false, error: `Invalid token ${Server.canary}` }
    for (const handler of [
      Server.reply(401, echo),
      Server.route(
        [(r) => r.method === "POST", Server.json(crawlFixture.start.response.body)],
        [isJob, Server.reply(500, `internal error for ${Server.canary}`)],
        [(r) => r.method === "DELETE", Server.reply(401, echo)]
      )
    ]) {
      server.handle = handler
      server.requests.length = 0
      const run = await Site.capture(rt, Site.collect(crawl({ url: "https://docs.example.com/" })))
      expect(Site.error(run)._tag).not.toBe("Aborted")
      expect(run.clientSpans).toBeGreaterThan(0)
      expect(Site.visible(run)).not.toContain(Server.canary)
    }
    // The failed poll cancelled the job (whose refusal is logged without the key).
    expect(server.requests.filter((r) => r.method === "DELETE")).toHaveLength(1)
    server.handle = Server.reply(401, echo)
    const mapped = await map({ url: "https://docs.example.com/" })
    expect(Site.error(mapped)).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(mapped.clientSpans).toBeGreaterThan(0)
    expect(Site.visible(mapped)).not.toContain(Server.canary)
  })
})
