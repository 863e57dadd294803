import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as CrawlSite from "../src/CrawlSite.js"
import * as MapSite from "../src/MapSite.js"
import * as Preset from "../src/Preset.js"
import type { CrawledPage, CrawlItem, ProviderDriver } from "../src/ProviderDriver.js"
import type * as Settings from "../src/Settings.js"
import type { CrawlEvent } from "../src/SiteResponse.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"

const origin = "https://example.com"

/** A site in memory: each path's links (relative or absolute), canonical link, failure or latency. */
interface SitePage {
  readonly links?: ReadonlyArray<string>
  readonly canonical?: string
  readonly redirectTo?: string
  readonly error?: WebSearchError.WebSearchError
  readonly delay?: number
  readonly never?: boolean
}

interface Recorded {
  readonly calls: Array<string>
  readonly interrupted: Array<string>
  inFlight: number
  maxInFlight: number
  readonly starts: Array<number>
}

const siteDriver = (
  site: (path: string, attempt: number) => SitePage | undefined,
  extra: { readonly [K in keyof ProviderDriver]?: ProviderDriver[K] | undefined } = {}
): { driver: ProviderDriver; recorded: Recorded } => {
  const recorded: Recorded = { calls: [], interrupted: [], inFlight: 0, maxInFlight: 0, starts: [] }
  const crawlPage = (url: string): Effect.Effect<CrawledPage, WebSearchError.WebSearchError> =>
    Effect.suspend(() => {
      const path = new URL(url).pathname + new URL(url).search
      const attempt = recorded.calls.filter((c) => c === url).length
      recorded.calls.push(url)
      recorded.starts.push(Date.now())
      recorded.inFlight++
      recorded.maxInFlight = Math.max(recorded.maxInFlight, recorded.inFlight)
      const page = site(path, attempt)
      const body: Effect.Effect<CrawledPage, WebSearchError.WebSearchError> =
        page === undefined
          ? Effect.fail(WebSearchError.requestFailed("http_404", `${url} answered 404`))
          : page.never
            ? Effect.never
            : page.error !== undefined
              ? Effect.fail(page.error)
              : Effect.succeed({
                  result: {
                    title: `Page ${path}`,
                    content: `Content of ${path}`,
                    url: page.redirectTo === undefined ? url : new URL(page.redirectTo, url).href
                  },
                  links: (page.links ?? []).map((link) => new URL(link, url).href),
                  ...(page.canonical === undefined ? {} : { canonical: page.canonical })
                })
      return (page?.delay === undefined ? body : Effect.delay(body, page.delay)).pipe(
        Effect.onInterrupt(() => Effect.sync(() => recorded.interrupted.push(url))),
        Effect.ensuring(Effect.sync(() => recorded.inFlight--))
      )
    })
  // `crawlPage: undefined` in `extra` makes a hosted crawler: the key is left out, not set to undefined.
  const driver = Object.fromEntries(
    Object.entries({ crawlPage, ...extra }).filter(([, value]) => value !== undefined)
  ) as Omit<ProviderDriver, "preset">
  return {
    driver: {
      ...driver,
      preset: Preset.make({
        id: "sitecrawler",
        name: "Site crawler",
        type: "local",
        credentials: "none",
        capabilities: [{ feature: "mapSite" }, { feature: "crawlSite" }]
      })
    },
    recorded
  }
}

const live = (driver: ProviderDriver, settings: Settings.SettingsInput = {}) =>
  Drivers.layer([driver], { defaults: { mapSite: "sitecrawler", crawlSite: "sitecrawler" }, ...settings })

/** A tree: every page `/p/N` links to `/p/(N*fanout+1..)`, up to `size` pages. */
const tree =
  (size: number, fanout = 3) =>
  (path: string): SitePage | undefined => {
    if (path === "/") return { links: Array.from({ length: fanout }, (_, i) => `/p/${i + 1}`) }
    const n = Number(path.slice(3))
    if (!path.startsWith("/p/") || !(n >= 1 && n <= size)) return undefined
    return {
      links: Array.from({ length: fanout }, (_, i) => `/p/${n * fanout + i + 1}`).filter(
        (p) => Number(p.slice(3)) <= size
      )
    }
  }

const collect = (request: Parameters<typeof CrawlSite.crawlSite>[0]) =>
  Effect.map(Stream.runCollect(CrawlSite.crawlSite(request)), Chunk.toReadonlyArray)

const pagesOf = (events: ReadonlyArray<CrawlEvent>) =>
  events.flatMap((event) => (event._tag === "CrawlPage" ? [event] : []))
const doneOf = (events: ReadonlyArray<CrawlEvent>) => {
  const last = events[events.length - 1]
  if (last?._tag !== "CrawlDone") throw new Error("the crawl did not end with CrawlDone")
  return last
}

describe("crawlSite with websearch's own frontier", () => {
  it.live("reads breadth-first, stops queueing at maxPages with a cut, and ends with the summary", () => {
    const { driver, recorded } = siteDriver(tree(1_000))
    return Effect.gen(function* () {
      const events = yield* collect({ url: `${origin}/`, maxPages: 10, maxDepth: 5, delay: 0 })
      const pages = pagesOf(events)
      expect(pages).toHaveLength(10)
      // Breadth-first: every depth-1 page before any depth-2 one.
      const depths = pages.map((p) => p.depth)
      expect(depths).toEqual([...depths].sort((a, b) => (a ?? 0) - (b ?? 0)))
      expect(pages[0]?.url).toBe(`${origin}/`)
      expect(recorded.calls).toHaveLength(10)
      const done = doneOf(events)
      expect([done.pages, done.failed, done.providerId]).toEqual([10, 0, "sitecrawler"])
      expect(done.cuts.map((c) => c.reason)).toEqual(["maxPages"])
      expect(pages[3]?.result.sourceInput).toBe(pages[3]?.url)
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("maxDepth skips deeper links (counted once each); maxDepth 0 reads the start page only", () => {
    const { driver } = siteDriver(tree(1_000))
    return Effect.gen(function* () {
      const one = yield* collect({ url: `${origin}/`, maxPages: 100, maxDepth: 1, delay: 0 })
      expect(pagesOf(one).map((p) => p.url)).toEqual([`${origin}/`, `${origin}/p/1`, `${origin}/p/2`, `${origin}/p/3`])
      expect(doneOf(one).skipped.depth).toBe(9)
      expect(doneOf(one).cuts).toEqual([])
      const zero = yield* collect({ url: `${origin}/`, maxPages: 100, maxDepth: 0, delay: 0 })
      expect(pagesOf(zero)).toHaveLength(1)
      expect(doneOf(zero).skipped.depth).toBe(3)
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("off-site links, excluded paths, duplicates by normalised URL, redirect target and canonical link", () => {
    const site: Record<string, SitePage> = {
      "/": {
        links: [
          "https://other.example.org/x",
          "/blog/1",
          "/blog/1#top",
          "/blog/1?utm_source=feed",
          "https://www.example.com/blog/2",
          "/private/a",
          "/old",
          "/copy",
          "mailto:someone@example.com"
        ]
      },
      "/blog/1": {},
      "/blog/2": {},
      // Redirects to a page already read: not emitted twice.
      "/old": { redirectTo: "/blog/1" },
      // Names a page already read as its canonical: a duplicate too.
      "/copy": { canonical: `${origin}/blog/2` },
      "/private/a": {}
    }
    const { driver, recorded } = siteDriver((path) => site[path])
    return Effect.gen(function* () {
      const events = yield* collect({
        url: `${origin}/`,
        maxDepth: 3,
        excludePaths: ["/private/"],
        concurrency: 1,
        delay: 0
      })
      expect(pagesOf(events).map((p) => p.url)).toEqual([
        `${origin}/`,
        `${origin}/blog/1`,
        "https://www.example.com/blog/2"
      ])
      expect(recorded.calls).not.toContain("https://other.example.org/x")
      expect(recorded.calls).not.toContain(`${origin}/private/a`)
      const { skipped } = doneOf(events)
      expect([skipped.offSite, skipped.excluded, skipped.duplicate]).toEqual([2, 1, 2])
    }).pipe(Effect.provide(live(driver)))
  })

  it.live(
    "a page's failure is listed with its typed error; robots refusals are skips; the start failing fails all",
    () => {
      const site: Record<string, SitePage> = {
        "/": { links: ["/gone", "/robots-no", "/ok"] },
        "/ok": {},
        "/robots-no": { error: WebSearchError.requestFailed("robots_disallowed", "robots.txt disallows it") }
      }
      const { driver } = siteDriver((path) => site[path])
      return Effect.gen(function* () {
        const events = yield* collect({ url: `${origin}/`, delay: 0 })
        const failures = events.flatMap((e) => (e._tag === "CrawlFailure" ? [e] : []))
        expect(failures.map((f) => [f.url, f.failure._tag, f.failure.reason, f.depth])).toEqual([
          [`${origin}/gone`, "RequestFailed", "http_404", 1]
        ])
        const done = doneOf(events)
        expect([done.pages, done.failed, done.skipped.robots]).toEqual([2, 1, 1])
        const error = yield* Effect.flip(collect({ url: `${origin}/missing`, delay: 0 }))
        expect([error._tag, error.reason, error.capability, error.input]).toEqual([
          "RequestFailed",
          "http_404",
          "crawlSite",
          `${origin}/missing`
        ])
      }).pipe(Effect.provide(live(driver)))
    }
  )

  it.live("refuses a bad request naming the field, and a start URL the URL policy refuses, before any call", () => {
    const { driver, recorded } = siteDriver(tree(10))
    return Effect.gen(function* () {
      const bad = yield* Effect.flip(collect({ url: `${origin}/`, maxPages: 0 }))
      expect([bad._tag, bad.reason]).toEqual(["RequestFailed", "invalid_input"])
      expect(bad.message).toContain("maxPages")
      const pattern = yield* Effect.flip(collect({ url: `${origin}/`, includePaths: ["blog"] }))
      expect(pattern.message).toContain("path pattern")
      const privateStart = yield* Effect.flip(collect({ url: "http://10.0.0.1/" }))
      expect([privateStart._tag, privateStart.reason]).toEqual(["RequestFailed", "ssrf_rejected"])
      expect(recorded.calls).toEqual([])
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("politeness: at most `concurrency` pages in flight per host, `delay` apart", () => {
    const slow = (path: string) => {
      const page = tree(30, 10)(path)
      return page === undefined ? undefined : { ...page, delay: 15 }
    }
    const first = siteDriver(slow)
    const second = siteDriver(slow)
    return Effect.gen(function* () {
      yield* collect({ url: `${origin}/`, maxPages: 12, concurrency: 1, delay: 0 }).pipe(
        Effect.provide(live(first.driver))
      )
      expect(first.recorded.maxInFlight).toBe(1)
      yield* collect({ url: `${origin}/`, maxPages: 12, concurrency: 3, delay: 30 }).pipe(
        Effect.provide(live(second.driver, { concurrency: 10 }))
      )
      expect(second.recorded.maxInFlight).toBeLessThanOrEqual(3)
      const gaps = second.recorded.starts.slice(1).map((start, i) => start - second.recorded.starts[i]!)
      // Starts are the delay apart; the driver's clock (Date.now) and Effect's can disagree by a few milliseconds.
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(25)
    })
  })

  it.live("a 429 with a short Retry-After pauses the host and reads the page again once", () => {
    const site = (path: string, attempt: number): SitePage | undefined =>
      path === "/"
        ? { links: ["/busy"] }
        : path === "/busy" && attempt === 0
          ? { error: WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 0 }) }
          : path === "/busy"
            ? {}
            : undefined
    const { driver, recorded } = siteDriver(site)
    return Effect.gen(function* () {
      const events = yield* collect({ url: `${origin}/`, delay: 0 })
      expect(pagesOf(events).map((p) => p.url)).toEqual([`${origin}/`, `${origin}/busy`])
      expect(recorded.calls.filter((c) => c.endsWith("/busy"))).toHaveLength(2)
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("stopping the stream early interrupts every fetch in flight and starts no other", () => {
    const site = (path: string): SitePage | undefined =>
      path === "/" ? { links: ["/fast", "/a", "/b", "/c"] } : path === "/fast" ? {} : { never: true }
    const { driver, recorded } = siteDriver(site)
    return Effect.gen(function* () {
      const taken = yield* Stream.runCollect(
        CrawlSite.crawlSite({ url: `${origin}/`, concurrency: 4, delay: 0 }).pipe(Stream.take(2))
      )
      expect(Chunk.toReadonlyArray(taken).map((e) => e._tag)).toEqual(["CrawlPage", "CrawlPage"])
      const calls = recorded.calls.length
      yield* Effect.sleep(50)
      expect(recorded.calls.length).toBe(calls)
      expect(recorded.inFlight).toBe(0)
      expect(recorded.interrupted.length).toBe(calls - 2)
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("the crawl's timeout is a cut: the pages read are kept and the summary closes the stream", () => {
    const site = (path: string): SitePage | undefined =>
      path === "/" ? { links: ["/a", "/slow"] } : path === "/a" ? {} : { never: true }
    const { driver } = siteDriver(site)
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(collect({ url: `${origin}/`, delay: 0 }))
      const events = yield* Fiber.join(fiber)
      expect(pagesOf(events)).toHaveLength(2)
      expect(doneOf(events).cuts.map((c) => c.reason)).toEqual(["timeout"])
    }).pipe(Effect.provide(live(driver, { timeouts: { crawlSite: 300 } })))
  })

  it.live("fromMap reads the map's URLs at depth 1 with the start page's links", () => {
    const site: Record<string, SitePage> = { "/": { links: ["/linked"] }, "/linked": {}, "/mapped": {} }
    const { driver } = siteDriver((path) => site[path], {
      mapSite: () =>
        Effect.succeed({
          links: [
            { url: `${origin}/mapped`, source: "sitemap" as const },
            { url: "https://elsewhere.example.net/", source: "sitemap" as const }
          ],
          cuts: []
        })
    })
    return Effect.gen(function* () {
      const events = yield* collect({ url: `${origin}/`, fromMap: true, delay: 0, concurrency: 1 })
      expect(pagesOf(events).map((p) => [p.url, p.depth])).toEqual([
        [`${origin}/`, 0],
        [`${origin}/mapped`, 1],
        [`${origin}/linked`, 1]
      ])
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("collect gathers pages, failures and the summary", () => {
    const { driver } = siteDriver(tree(5))
    return Effect.gen(function* () {
      const response = yield* CrawlSite.collect({ url: `${origin}/`, maxPages: 4, delay: 0 })
      expect(response.pages).toHaveLength(4)
      expect(response.done.pages).toBe(4)
    }).pipe(Effect.provide(live(driver)))
  })
})

describe("crawlSite on a hosted crawler", () => {
  const items = (list: ReadonlyArray<CrawlItem>) => Stream.fromIterable(list)
  const page = (url: string): CrawlItem => ({ _tag: "Page", url, result: { title: url, content: "text", url } })

  it.live("its pages pass the same admission, dedupe and maxPages; its errors are scrubbed", () => {
    const { driver } = siteDriver(() => undefined, {
      crawlPage: undefined,
      crawlSite: () =>
        items([
          page(`${origin}/`),
          page("https://elsewhere.example.net/"),
          page(`${origin}/a#x`),
          page(`${origin}/a`),
          page("http://127.0.0.1/admin"),
          { _tag: "Failed", url: `${origin}/b`, error: WebSearchError.requestFailed("http_5xx", "boom") },
          page(`${origin}/c`),
          page(`${origin}/d`)
        ])
    })
    return Effect.gen(function* () {
      const events = yield* collect({ url: `${origin}/`, maxPages: 4 })
      expect(events.map((e) => [e._tag, "url" in e ? e.url : ""])).toEqual([
        ["CrawlPage", `${origin}/`],
        ["CrawlPage", `${origin}/a`],
        ["CrawlFailure", `${origin}/b`],
        ["CrawlPage", `${origin}/c`],
        ["CrawlDone", `${origin}/`]
      ])
      const done = doneOf(events)
      expect([done.skipped.offSite, done.skipped.duplicate, done.cuts.map((c) => c.reason)]).toEqual([
        2,
        1,
        ["maxPages"]
      ])
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("a hosted crawl that fails before any page fails the stream; after pages it is a cut", () => {
    const failing = (after: ReadonlyArray<CrawlItem>) =>
      siteDriver(() => undefined, {
        crawlPage: undefined,
        crawlSite: () =>
          Stream.concat(items(after), Stream.fail(WebSearchError.requestFailed("http_5xx", "the job failed")))
      }).driver
    return Effect.gen(function* () {
      const exit = yield* Effect.exit(collect({ url: `${origin}/` }).pipe(Effect.provide(live(failing([])))))
      expect(Exit.isFailure(exit)).toBe(true)
      const events = yield* collect({ url: `${origin}/` }).pipe(Effect.provide(live(failing([page(`${origin}/`)]))))
      expect(doneOf(events).cuts.map((c) => c.reason)).toEqual(["interrupted"])
    })
  })
})

describe("crawlSite on foreign drivers' mistakes", () => {
  it.live("a page outside the result contract is that page's typed failure; the crawl goes on", () => {
    const site: Record<string, SitePage> = { "/": { links: ["/bad", "/good"] }, "/good": {}, "/bad": {} }
    const { driver } = siteDriver((path) => site[path])
    const crawlPage = driver.crawlPage!
    const lying: ProviderDriver = {
      ...driver,
      crawlPage: (url, scope, ctx) =>
        url.endsWith("/bad")
          ? Effect.succeed({ result: { title: "Bad", content: "x", url, publishedAt: 42 as never }, links: [] })
          : crawlPage(url, scope, ctx)
    }
    return Effect.gen(function* () {
      const events = yield* collect({ url: `${origin}/`, delay: 0 })
      expect(pagesOf(events).map((p) => p.url)).toEqual([`${origin}/`, `${origin}/good`])
      const failures = events.flatMap((e) => (e._tag === "CrawlFailure" ? [e] : []))
      expect(failures.map((f) => [f.url, f.failure.reason])).toEqual([[`${origin}/bad`, "decode_failed"]])
    }).pipe(Effect.provide(live(lying)))
  })

  it.live("a hosted crawler's defect fails the stream typed, named and logged, never as a defect", () => {
    const { driver } = siteDriver(() => undefined, {
      crawlPage: undefined,
      crawlSite: () => Stream.die(new Error("the driver broke"))
    })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(collect({ url: `${origin}/` }))
      expect([error._tag, error.reason, error.providerId, error.capability]).toEqual([
        "ResponseInvalid",
        "parse_failed",
        "sitecrawler",
        "crawlSite"
      ])
      expect(error.message).toContain("the driver broke")
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("redirects and canonical links do not use up maxPages; overlong links are not followed", () => {
    const site = (path: string): SitePage | undefined => {
      if (path === "/") return { links: ["/a", `/${"x".repeat(9_000)}`] }
      // It ends at a URL of its own that is nowhere linked: that key is seen, and must not take a queue slot.
      if (path === "/a") return { redirectTo: "/a/final", links: ["/b", "/c", "/d"] }
      return ["/b", "/c", "/d"].includes(path) ? {} : undefined
    }
    const { driver, recorded } = siteDriver(site)
    return Effect.gen(function* () {
      const events = yield* collect({ url: `${origin}/`, maxPages: 4, delay: 0 })
      expect(pagesOf(events).map((p) => p.url.slice(origin.length))).toEqual(["/", "/a", "/b", "/c"])
      expect(doneOf(events).cuts.map((c) => c.reason)).toEqual(["maxPages"])
      expect(doneOf(events).skipped.offSite).toBe(1)
      expect(recorded.calls.every((c) => c.length < 200)).toBe(true)
    }).pipe(Effect.provide(live(driver)))
  })
})

describe("mapSite", () => {
  it.effect("keeps the site's URLs, deduplicated, ranked by search and cut to limit with a cut", () => {
    const { driver } = siteDriver(() => undefined, {
      mapSite: () =>
        Effect.succeed({
          links: [
            { url: `${origin}/blog/hello`, source: "sitemap" as const, lastmod: "2026-01-01" },
            { url: `${origin}/pricing`, source: "sitemap" as const },
            { url: `${origin}/pricing/#plans`, source: "page" as const, title: "Plans" },
            { url: "https://elsewhere.example.net/pricing", source: "page" as const },
            { url: `${origin}/docs/pricing-api`, source: "feed" as const },
            { url: "http://10.0.0.1/pricing", source: "page" as const },
            { url: `${origin}/about`, source: "page" as const }
          ],
          cuts: [],
          failures: [[`${origin}/sitemap-2.xml`, WebSearchError.requestFailed("http_404", "no such sitemap")]]
        })
    })
    return Effect.gen(function* () {
      const all = yield* MapSite.mapSite({ url: `${origin}/` })
      expect(all.links.map((l) => l.url)).toEqual([
        `${origin}/blog/hello`,
        `${origin}/pricing`,
        `${origin}/docs/pricing-api`,
        `${origin}/about`
      ])
      // The later sighting filled in the title the first did not know.
      expect(all.links[1]?.title).toBe("Plans")
      expect(all.failures.map((f) => [f.input, f.reason])).toEqual([[`${origin}/sitemap-2.xml`, "http_404"]])
      const ranked = yield* MapSite.mapSite({ url: `${origin}/`, search: "pricing", limit: 2 })
      expect(ranked.links.map((l) => l.url)).toEqual([`${origin}/pricing`, `${origin}/docs/pricing-api`])
      expect(ranked.cuts.map((c) => c.reason)).toEqual(["limit"])
      const bad = yield* Effect.flip(MapSite.mapSite({ url: "ftp://example.com/" }))
      expect([bad._tag, bad.reason]).toEqual(["RequestFailed", "invalid_input"])
    }).pipe(Effect.provide(live(driver)))
  })
})
