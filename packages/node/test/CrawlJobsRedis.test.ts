/**
 * The crawl jobs on a real redis-server (their scripts alone: CrawlJobsScripts.test.ts): the pages of one crawl
 * read by two replicas with each page fetched and stored once, `XAUTOCLAIM` taking over what a stopped replica had claimed, dedupe as
 * in memory, and status, cancel, workspaces and limits answered by any replica.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as CrawlJobs from "@websearch/core/CrawlJobs"
import * as Preset from "@websearch/core/Preset"
import type { ProviderDriver } from "@websearch/core/ProviderDriver"
import type * as Settings from "@websearch/core/Settings"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { Redis } from "ioredis"
import * as CrawlJobsRedis from "../src/CrawlJobsRedis.js"
import * as SharedStores from "../src/SharedStores.js"
import * as RedisServer from "../../../test-support/redisServer.js"
import { origin, type SitePage, services, siteDriver, tree } from "./support/crawlSite.js"

const serverScope = Effect.runSync(Scope.make())
let starting: Promise<RedisServer.RedisServer> | undefined
const server: Effect.Effect<RedisServer.RedisServer> = Effect.promise(
  () => (starting ??= Effect.runPromise(Scope.extend(RedisServer.start(), serverScope)))
)
afterAll(() => Effect.runPromise(Scope.close(serverScope, Exit.void)))

let prefixes = 0
const freshPrefix = () => `crawl${process.pid}x${++prefixes}x${Date.now()}`

/** One replica: its own provider and workers, the shared Redis and prefix; lives until `scope` closes. */
const replica = (
  prefix: string,
  driver: ProviderDriver,
  options: CrawlJobsRedis.Options = {},
  scope?: Scope.Scope,
  settings: Settings.SettingsInput = {}
) =>
  Effect.gen(function* () {
    const { options: redis } = yield* server
    const layer = CrawlJobsRedis.layer(redis, { prefix, claimIdle: "300 millis", ...options }).pipe(
      Layer.provide(services(driver, settings))
    )
    const context = yield* scope === undefined ? Layer.build(layer) : Layer.buildWithScope(layer, scope)
    return yield* Effect.provide(CrawlJobs.CrawlJobs, context)
  })

const settled = (jobs: CrawlJobs.CrawlJobs.Service, workspace: string, id: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1000; i++) {
      const job = yield* jobs.status(workspace, id, { limit: 1000 })
      if (job.status !== "running") return job
      yield* Effect.sleep("20 millis")
    }
    throw new Error(`crawl ${id} still running`)
  })

const connection = Effect.acquireRelease(
  Effect.map(server, (s) => new Redis(s.options)),
  (redis) => Effect.sync(() => redis.disconnect())
)

describe("CrawlJobsRedis", () => {
  it.scopedLive("a claimIdle that is not a duration or workers out of range fail the start, naming the option", () =>
    Effect.gen(function* () {
      const { driver } = siteDriver(tree(3))
      for (const [options, named] of [
        [{ claimIdle: "soon" as never }, "claimIdle"],
        [{ workers: 1_000_000 }, "workers"],
        [{ retention: "later" as never }, "retention"]
      ] as const) {
        const error = yield* Effect.flip(replica(freshPrefix(), driver, options))
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toContain(named)
      }
    })
  )

  it.scopedLive("two replicas read one crawl: each page fetched and stored once, status from either", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const a = siteDriver(tree(200), { delay: 15 })
      const b = siteDriver(tree(200), { delay: 15 })
      const jobsA = yield* replica(prefix, a.driver, { workers: 3 })
      const jobsB = yield* replica(prefix, b.driver, { workers: 3 })
      const job = yield* jobsA.start("acme", { url: `${origin}/`, maxPages: 60, maxDepth: 5, delay: 0, concurrency: 4 })
      const done = yield* settled(jobsB, "acme", job.id)
      expect([done.status, done.pages, done.failed, done.total]).toEqual(["completed", 60, 0, 60])
      expect(done.cuts.map((cut) => cut.reason)).toEqual(["maxPages"])
      const fetched = [...a.fetched, ...b.fetched]
      expect(fetched).toHaveLength(60)
      expect(new Set(fetched).size).toBe(60)
      // Both replicas did part of the work.
      expect(a.fetched.length).toBeGreaterThan(5)
      expect(b.fetched.length).toBeGreaterThan(5)
      expect(new Set(done.events.map((event) => event.url)).size).toBe(60)
      const fromA = yield* jobsA.status("acme", job.id, { offset: 50, limit: 20 })
      expect([fromA.offset, fromA.events.length, fromA.nextOffset]).toEqual([50, 10, undefined])
      // Breadth-first within politeness: the start page first.
      expect(done.events[0]?.url).toBe(`${origin}/`)
    })
  )

  it.scopedLive("a replica stopped mid-page: its claimed URLs are taken over after claimIdle, the job completes", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      // The first replica hangs on every page below the start, holding them claimed, then stops.
      const a = siteDriver(tree(12), { hang: (path) => path !== "/" })
      const b = siteDriver(tree(12))
      const scopeA = yield* Scope.make()
      const jobsA = yield* replica(prefix, a.driver, { workers: 2 }, scopeA)
      const job = yield* jobsA.start("acme", { url: `${origin}/`, maxPages: 50, delay: 0, concurrency: 4 })
      while (a.fetched.length < 3) yield* Effect.sleep("10 millis")
      yield* Scope.close(scopeA, Exit.void)
      const claimed = a.fetched.filter((path) => path !== "/")
      const jobsB = yield* replica(prefix, b.driver, { workers: 2 })
      const done = yield* settled(jobsB, "acme", job.id)
      expect([done.status, done.pages, done.total]).toEqual(["completed", 13, 13])
      // What the stopped replica had claimed was read again by the other; nothing else was read twice.
      expect(b.fetched.filter((path) => claimed.includes(path)).sort()).toEqual([...claimed].sort())
      expect(new Set(b.fetched).size).toBe(b.fetched.length)
      expect(b.fetched).not.toContain("/")
    })
  )

  it.scopedLive(
    "dedupe as in memory: a redirect to a page read and a canonical duplicate are skipped, stored once",
    () =>
      Effect.gen(function* () {
        const site: Record<string, SitePage> = {
          "/": { links: ["/a", "/a#top", "/old", "/copy", "https://other.example/x", "/b"] },
          "/a": { links: ["/"] },
          "/b": {},
          "/old": { redirectTo: "/a" },
          "/copy": { canonical: "/b" }
        }
        const request = { url: `${origin}/`, maxDepth: 3, delay: 0, concurrency: 1 }
        const memory = siteDriver((path) => site[path])
        const inMemory = yield* Effect.gen(function* () {
          const jobs = yield* CrawlJobs.CrawlJobs
          const job = yield* jobs.start("acme", request)
          return yield* settled(jobs, "acme", job.id)
        }).pipe(Effect.provide(CrawlJobs.layerMemory().pipe(Layer.provide(services(memory.driver)))))
        const redis = siteDriver((path) => site[path])
        const jobs = yield* replica(freshPrefix(), redis.driver, { workers: 1 })
        const onRedis = yield* settled(jobs, "acme", (yield* jobs.start("acme", request)).id)
        for (const job of [inMemory, onRedis]) {
          expect(job.status).toBe("completed")
          expect(new Set(job.events.map((event) => event.url))).toEqual(
            // `/copy` comes before `/b` and names it canonical: the first to answer for a key wins.
            new Set([`${origin}/`, `${origin}/a`, `${origin}/copy`])
          )
          expect([job.skipped.offSite, job.skipped.duplicate]).toEqual([1, 2])
        }
        expect([...redis.fetched].sort()).toEqual([...memory.fetched].sort())
      })
  )

  it.scopedLive("cancel from another replica, workspaces kept apart, and the workspace limits on Redis", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const a = siteDriver(tree(100), { hang: (path) => path !== "/" })
      const jobsA = yield* replica(prefix, a.driver, { workers: 2, maxRunning: 1, maxPages: 40 })
      const jobsB = yield* replica(prefix, siteDriver(tree(100)).driver, { workers: 0, maxRunning: 1, maxPages: 40 })
      const job = yield* jobsA.start("acme", { url: `${origin}/`, maxPages: 30, delay: 0 })
      const busy = yield* Effect.flip(jobsB.start("acme", { url: `${origin}/`, maxPages: 5 }))
      expect([busy._tag, busy.reason]).toEqual(["RequestFailed", "rate_limited"])
      expect((yield* Effect.flip(jobsB.status("globex", job.id))).reason).toBe("not_found")
      expect((yield* Effect.flip(jobsB.cancel("globex", job.id))).reason).toBe("not_found")
      while (a.fetched.length < 2) yield* Effect.sleep("10 millis")
      yield* jobsB.cancel("acme", job.id)
      const cancelled = yield* jobsA.status("acme", job.id)
      expect([cancelled.status, cancelled.pages]).toEqual(["cancelled", 1])
      // The pages in flight on the other replica are interrupted within the status check's half second.
      const inFlight = a.fetched.filter((path) => path !== "/")
      while (a.interrupted.length < inFlight.length) yield* Effect.sleep("20 millis")
      expect([...a.interrupted].sort()).toEqual([...inFlight].sort())
      // The cancelled job holds its one page: 1 + 40 is past the workspace's 40; 1 + 39 is not.
      const full = yield* Effect.flip(jobsB.start("acme", { url: `${origin}/`, maxPages: 40 }))
      expect([full.reason, full.message]).toEqual(["conflict", expect.stringContaining("maxPages")])
      const fits = yield* jobsB.start("acme", { url: `${origin}/`, maxPages: 39 })
      yield* jobsA.cancel("acme", fits.id)
      // A second cancel deletes the finished job.
      yield* jobsA.cancel("acme", job.id)
      expect((yield* Effect.flip(jobsB.status("acme", job.id))).reason).toBe("not_found")
    })
  )

  it.scopedLive("a hosted crawl runs on the replica that started it, its pages stored in Redis for every replica", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      let streamed = 0
      const hostedDriver: ProviderDriver = {
        preset: Preset.make({
          id: "sitecrawler",
          name: "Hosted crawler",
          type: "api",
          credentials: "none",
          capabilities: [{ feature: "crawlSite", apiHost: "https://crawler.example" }]
        }),
        crawlSite: () =>
          Stream.fromIterable([
            {
              _tag: "Page" as const,
              url: `${origin}/`,
              depth: 0,
              result: { title: "Home", content: "home", url: `${origin}/` }
            },
            {
              _tag: "Page" as const,
              url: `${origin}/a`,
              depth: 1,
              result: { title: "A", content: "a", url: `${origin}/a` }
            },
            // Off the site, then the same page again: skipped, not stored.
            {
              _tag: "Page" as const,
              url: "https://elsewhere.example/",
              result: { title: "X", content: "x", url: "https://elsewhere.example/" }
            },
            {
              _tag: "Page" as const,
              url: `${origin}/a#again`,
              result: { title: "A", content: "a", url: `${origin}/a` }
            },
            {
              _tag: "Failed" as const,
              url: `${origin}/gone`,
              depth: 1,
              error: WebSearchError.requestFailed("http_404", "gone")
            }
          ]).pipe(Stream.tap(() => Effect.sync(() => streamed++)))
      }
      const jobsA = yield* replica(prefix, hostedDriver, { workers: 1 })
      const jobsB = yield* replica(prefix, siteDriver(tree(3)).driver, { workers: 1 })
      const job = yield* jobsA.start("acme", { url: `${origin}/`, maxPages: 10 })
      const done = yield* settled(jobsB, "acme", job.id)
      expect([done.status, done.pages, done.failed, done.total]).toEqual(["completed", 2, 1, 3])
      expect([done.skipped.offSite, done.skipped.duplicate]).toEqual([1, 1])
      expect(done.events.map((event) => event._tag)).toEqual(["CrawlPage", "CrawlPage", "CrawlFailure"])
      expect(streamed).toBe(5)
    })
  )

  it.scopedLive("a hosted crawl whose replica stopped reads as failed once its lease lapses", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const hanging: ProviderDriver = {
        preset: Preset.make({
          id: "sitecrawler",
          name: "Hosted crawler",
          type: "api",
          credentials: "none",
          capabilities: [{ feature: "crawlSite", apiHost: "https://crawler.example" }]
        }),
        crawlSite: () => Stream.never
      }
      const scopeA = yield* Scope.make()
      const jobsA = yield* replica(prefix, hanging, { workers: 0 }, scopeA)
      const jobsB = yield* replica(prefix, siteDriver(tree(3)).driver, { workers: 0 })
      const job = yield* jobsA.start("acme", { url: `${origin}/` })
      expect((yield* jobsB.status("acme", job.id)).status).toBe("running")
      yield* Scope.close(scopeA, Exit.void)
      // The lease is renewed every 5 s for 15 s; gone, the job is failed by the next read.
      const redis = yield* connection
      yield* Effect.promise(() => redis.del(`${prefix}:crawl:job:${job.id}:owner`))
      const failed = yield* jobsB.status("acme", job.id)
      expect([failed.status, failed.error?.reason]).toEqual(["failed", "stream_incomplete"])
    })
  )

  it.scopedLive(
    "SharedStores.layerCrawlJobs: Redis with REDIS_URL (another replica sees the job), memory without",
    () =>
      Effect.gen(function* () {
        const { url } = yield* server
        const prefix = freshPrefix()
        const withRedis = (driver: ProviderDriver) =>
          SharedStores.layerCrawlJobs({ workers: 1 }).pipe(
            Layer.provide(services(driver)),
            Layer.provide(
              Layer.setConfigProvider(
                ConfigProvider.fromMap(
                  new Map([
                    ["REDIS_URL", Redacted.value(url)],
                    ["WEBSEARCH_REDIS_PREFIX", prefix]
                  ])
                )
              )
            )
          )
        const a = yield* Effect.provide(CrawlJobs.CrawlJobs, yield* Layer.build(withRedis(siteDriver(tree(5)).driver)))
        const b = yield* Effect.provide(CrawlJobs.CrawlJobs, yield* Layer.build(withRedis(siteDriver(tree(5)).driver)))
        const job = yield* a.start("acme", { url: `${origin}/`, delay: 0 })
        expect((yield* settled(b, "acme", job.id)).pages).toBe(6)
        const memory = SharedStores.layerCrawlJobs().pipe(
          Layer.provide(services(siteDriver(tree(5)).driver)),
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))
        )
        const c = yield* Effect.provide(CrawlJobs.CrawlJobs, yield* Layer.build(memory))
        const local = yield* c.start("acme", { url: `${origin}/`, delay: 0 })
        expect((yield* settled(c, "acme", local.id)).pages).toBe(6)
        // Not on Redis: the other replicas do not know it.
        expect((yield* Effect.flip(b.status("acme", local.id))).reason).toBe("not_found")
      })
  )

  it.scopedLive("politeness per host holds across replicas: one start per delay, whichever replica reads", () =>
    Effect.gen(function* () {
      const prefix = freshPrefix()
      const a = siteDriver(tree(40))
      const b = siteDriver(tree(40))
      const jobsA = yield* replica(prefix, a.driver, { workers: 3 })
      const jobsB = yield* replica(prefix, b.driver, { workers: 3 })
      const job = yield* jobsA.start("acme", {
        url: `${origin}/`,
        maxPages: 12,
        maxDepth: 5,
        delay: 80,
        concurrency: 2
      })
      expect((yield* settled(jobsB, "acme", job.id)).pages).toBe(12)
      const starts = [...a.starts, ...b.starts].sort((x, y) => x - y)
      expect(starts).toHaveLength(12)
      expect(a.starts.length * b.starts.length).toBeGreaterThan(0)
      // Redis' clock decides; a few milliseconds of difference between it and this process's are allowed.
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(70)
    })
  )

  it.scopedLive("the crawl's timeout is a cut: pages past it are not read, the job completes with what it has", () =>
    Effect.gen(function* () {
      const slow = siteDriver(tree(100), { delay: 60 })
      const jobs = yield* replica(freshPrefix(), slow.driver, { workers: 2 }, undefined, {
        timeouts: { crawlSite: 250 }
      })
      const job = yield* jobs.start("acme", { url: `${origin}/`, maxPages: 100, maxDepth: 5, delay: 0 })
      const done = yield* settled(jobs, "acme", job.id)
      expect(done.status).toBe("completed")
      expect(done.cuts.map((cut) => cut.reason)).toEqual(["timeout"])
      expect(done.pages).toBeGreaterThan(0)
      expect(done.pages).toBeLessThan(30)
      expect(slow.fetched).toHaveLength(done.pages)
    })
  )
})
