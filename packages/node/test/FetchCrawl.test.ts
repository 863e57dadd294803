import { describe, expect, it } from "@effect/vitest"
import * as CrawlSite from "@websearch/core/CrawlSite"
import * as MapSite from "@websearch/core/MapSite"
import * as Settings from "@websearch/core/Settings"
import type { CrawlEvent } from "@websearch/core/SiteResponse"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Fetch from "../src/Fetch.js"
import * as GeneratedSite from "../../../test-support/generatedSite.js"

// The whole stack as an application composes it: the local fetcher is the default for map and crawl.
const live = (settings: Settings.SettingsInput = {}) =>
  WebSearch.layer(Fetch.layer).pipe(
    Layer.provide(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] }, ...settings }))
  )

const run = (request: Parameters<typeof CrawlSite.crawlSite>[0]) =>
  Effect.map(Stream.runCollect(CrawlSite.crawlSite(request)), Chunk.toReadonlyArray)

const pages = (events: ReadonlyArray<CrawlEvent>) => events.flatMap((e) => (e._tag === "CrawlPage" ? [e] : []))
const done = (events: ReadonlyArray<CrawlEvent>) => {
  const last = events[events.length - 1]
  if (last?._tag !== "CrawlDone") throw new Error("no CrawlDone")
  return last
}

describe("crawlSite with the local fetcher, end to end on loopback", () => {
  it.scopedLive("a 10,000-page site: maxPages holds, every page is read once whatever tracking copies link to it", () =>
    Effect.gen(function* () {
      const site = yield* GeneratedSite.start({ pages: 10_000, duplicates: true })
      const events = yield* run({ url: site.url("/p/0"), maxPages: 150, maxDepth: 10, concurrency: 8, delay: 0 }).pipe(
        Effect.provide(live())
      )
      const read = pages(events)
      expect(read).toHaveLength(150)
      expect(new Set(read.map((p) => p.url)).size).toBe(150)
      const summary = done(events)
      expect([summary.pages, summary.failed, summary.providerId]).toEqual([150, 0, "fetch"])
      expect(summary.cuts.map((c) => c.reason)).toEqual(["maxPages"])
      // Read once each (a page reached by its `?utm_source=x` copy first is read there, and never again), and
      // nothing past the limit.
      const byPage = new Map<string, number>()
      for (const [path, count] of site.requests()) {
        if (path.startsWith("/p/")) byPage.set(path.split("?")[0]!, (byPage.get(path.split("?")[0]!) ?? 0) + count)
      }
      expect(byPage.size).toBe(150)
      expect([...byPage.values()].every((count) => count === 1)).toBe(true)
      // The pages are read as fetchUrls reads them: extracted, titled, with their canonical URL.
      expect(read[0]?.result.title).toContain("Page 0")
      expect(read[0]?.result.content).toContain("paragraph 0 of a generated page")
      expect(read[0]?.depth).toBe(0)
    })
  )

  it.scopedLive("breadth-first by depth, maxDepth skips deeper links, and the depth of each page is its distance", () =>
    Effect.gen(function* () {
      const site = yield* GeneratedSite.start({ pages: 1_000, extraLinks: 0 })
      const events = yield* run({ url: site.url("/p/0"), maxPages: 1_000, maxDepth: 2, delay: 0 }).pipe(
        Effect.provide(live())
      )
      // A binary tree with parent links: depth 0 → /p/0, 1 → /p/1, /p/2, 2 → /p/3 … /p/6.
      const read = pages(events).map((p) => [p.url.slice(site.origin.length), p.depth] as const)
      // Levels in order; within a level, pages arrive as they are read.
      expect(read.map(([, depth]) => depth)).toEqual([0, 1, 1, 2, 2, 2, 2])
      expect([...read].sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0) || a[0].localeCompare(b[0]))).toEqual([
        ["/p/0", 0],
        ["/p/1", 1],
        ["/p/2", 1],
        ["/p/3", 2],
        ["/p/4", 2],
        ["/p/5", 2],
        ["/p/6", 2]
      ])
      expect(done(events).skipped.depth).toBe(8)
    })
  )

  it.scopedLive("politeness on a slow host: never more than `concurrency` requests in flight", () =>
    Effect.gen(function* () {
      const site = yield* GeneratedSite.start({ pages: 200, latency: 20 })
      const events = yield* run({ url: site.url("/p/0"), maxPages: 30, maxDepth: 10, concurrency: 2, delay: 5 }).pipe(
        Effect.provide(live({ concurrency: 10 }))
      )
      expect(pages(events)).toHaveLength(30)
      expect(site.maxInFlight()).toBeLessThanOrEqual(2)
    })
  )

  it.scopedLive("stopping the stream early closes every request in flight and starts no other", () =>
    Effect.gen(function* () {
      // The start page answers at once; every other page hangs for a minute.
      const site = yield* GeneratedSite.start({ pages: 100, latency: (path) => (path === "/p/0" ? 0 : 60_000) })
      const taken = yield* Stream.runCollect(
        CrawlSite.crawlSite({ url: site.url("/p/0"), concurrency: 4, delay: 0 }).pipe(Stream.take(1))
      ).pipe(Effect.provide(live()))
      expect(Chunk.toReadonlyArray(taken).map((e) => e._tag)).toEqual(["CrawlPage"])
      const started = site.total()
      // The hanging requests' sockets close as the fetches are interrupted (allow the close to reach the server).
      for (let i = 0; i < 200 && site.inFlight() > 0; i++) yield* Effect.sleep(10)
      expect(site.inFlight()).toBe(0)
      yield* Effect.sleep(50)
      expect(site.total()).toBe(started)
    })
  )

  it.scopedLive("mapSite reads the sitemap; fromMap crawls the map's pages at depth 1", () =>
    Effect.gen(function* () {
      const site = yield* GeneratedSite.start({ pages: 40, extraLinks: 0 })
      const map = yield* MapSite.mapSite({ url: site.url("/"), search: "page 7", limit: 5 }).pipe(
        Effect.provide(live())
      )
      expect(map.links).toHaveLength(5)
      expect(map.links.every((link) => link.url.startsWith(`${site.origin}/p/`))).toBe(true)
      expect(map.cuts.map((c) => c.reason)).toEqual(["limit"])
      const events = yield* run({ url: site.url("/"), fromMap: true, maxDepth: 1, maxPages: 50, delay: 0 }).pipe(
        Effect.provide(live())
      )
      // The start page links only /p/0; the sitemap brings every page in at depth 1.
      expect(pages(events)).toHaveLength(41)
      expect(pages(events).every((p) => (p.depth ?? 0) <= 1)).toBe(true)
    })
  )

  it.scopedLive("a start URL on a private address is refused before any request; a link to one is never fetched", () =>
    Effect.gen(function* () {
      const site = yield* GeneratedSite.start({ pages: 3 })
      const error = yield* Effect.flip(run({ url: "http://10.0.0.7/" }).pipe(Effect.provide(live())))
      expect([error._tag, error.reason]).toEqual(["RequestFailed", "ssrf_rejected"])
      expect(site.total()).toBe(0)
    })
  )
})
