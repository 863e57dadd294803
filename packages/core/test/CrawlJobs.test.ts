import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as CrawlJobs from "../src/CrawlJobs.js"
import * as Rules from "../src/internal/crawlJobRules.js"
import * as Preset from "../src/Preset.js"
import type { CrawledPage, ProviderDriver } from "../src/ProviderDriver.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"

const origin = "https://example.com"

interface Recorded {
  readonly calls: Array<string>
  readonly interrupted: Array<string>
}

/** A site of `size` pages `/p/N`, each linking to the next three; `/` links to `/p/1..3`; `/hang` never answers. */
const siteDriver = (size: number, gate?: Deferred.Deferred<void>) => {
  const recorded: Recorded = { calls: [], interrupted: [] }
  const crawlPage = (url: string): Effect.Effect<CrawledPage, WebSearchError.WebSearchError> =>
    Effect.suspend(() => {
      const path = new URL(url).pathname
      recorded.calls.push(url)
      const n = path === "/" ? 0 : Number(path.slice(3))
      const page: Effect.Effect<CrawledPage, WebSearchError.WebSearchError> =
        path === "/fails"
          ? Effect.fail(WebSearchError.requestFailed("http_5xx", `${url} answered 503`))
          : path === "/hang"
            ? Effect.never
            : !(path === "/" || (path.startsWith("/p/") && n >= 1 && n <= size))
              ? Effect.fail(WebSearchError.requestFailed("http_404", `${url} answered 404`))
              : Effect.succeed({
                  result: { title: `Page ${path}`, content: `Content of ${path}`, url },
                  links: [1, 2, 3]
                    .map((i) => `${origin}/p/${n * 3 + i}`)
                    .filter((p) => Number(p.split("/p/")[1]) <= size)
                })
      const gated = gate === undefined || path === "/" ? page : Effect.zipRight(Deferred.await(gate), page)
      return gated.pipe(Effect.onInterrupt(() => Effect.sync(() => recorded.interrupted.push(url))))
    })
  const driver: ProviderDriver = {
    crawlPage,
    preset: Preset.make({
      id: "sitecrawler",
      name: "Site crawler",
      type: "local",
      credentials: "none",
      capabilities: [{ feature: "crawlSite" }]
    })
  }
  return { driver, recorded }
}

const live = (driver: ProviderDriver, options: CrawlJobs.Options = {}) =>
  CrawlJobs.layerMemory(options).pipe(
    Layer.provideMerge(Drivers.layer([driver], { defaults: { crawlSite: "sitecrawler" } }))
  )

/** Reads the job until it is no longer running. */
const settled = (workspace: string, id: string) =>
  Effect.gen(function* () {
    const jobs = yield* CrawlJobs.CrawlJobs
    for (let i = 0; i < 500; i++) {
      const job = yield* jobs.status(workspace, id, { limit: 1000 })
      if (job.status !== "running") return job
      yield* Effect.sleep("10 millis")
    }
    throw new Error(`job ${id} still running`)
  })

const failureOf = <A, R>(effect: Effect.Effect<A, WebSearchError.WebSearchError, R>) =>
  Effect.flip(effect).pipe(Effect.map((error) => [error._tag, error.reason, error.message] as const))

describe("CrawlJobs in memory", () => {
  it.live("a job runs to completion; its events read in pages with total and nextOffset", () => {
    const { driver, recorded } = siteDriver(100)
    return Effect.gen(function* () {
      const jobs = yield* CrawlJobs.CrawlJobs
      const started = yield* jobs.start("acme", { url: `${origin}/`, maxPages: 12, maxDepth: 5, delay: 0 })
      expect(started.id).toMatch(/^crawl_[0-9a-f]{32}$/)
      expect([started.status, started.providerId, started.url, started.total]).toEqual([
        "running",
        "sitecrawler",
        `${origin}/`,
        0
      ])
      const done = yield* settled("acme", started.id)
      expect([done.status, done.pages, done.failed, done.total]).toEqual(["completed", 12, 0, 12])
      expect(done.cuts.map((cut) => cut.reason)).toEqual(["maxPages"])
      expect(recorded.calls).toHaveLength(12)
      const first = yield* jobs.status("acme", started.id, { offset: 0, limit: 5 })
      expect([first.offset, first.events.length, first.nextOffset, first.total]).toEqual([0, 5, 5, 12])
      const last = yield* jobs.status("acme", started.id, { offset: "10", limit: "5" })
      expect([last.offset, last.events.length, last.nextOffset]).toEqual([10, 2, undefined])
      const all = [...first.events, ...(yield* jobs.status("acme", started.id, { offset: 5, limit: 5 })).events]
      all.push(...last.events)
      expect(new Set(all.map((event) => event.url)).size).toBe(12)
      expect(all[0]?.url).toBe(`${origin}/`)
      expect(Date.parse(done.updatedAt)).toBeGreaterThanOrEqual(Date.parse(done.createdAt))
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("another workspace's job is not found, exactly as a job that does not exist", () => {
    const { driver } = siteDriver(3)
    return Effect.gen(function* () {
      const jobs = yield* CrawlJobs.CrawlJobs
      const job = yield* jobs.start("acme", { url: `${origin}/`, delay: 0 })
      const other = yield* failureOf(jobs.status("globex", job.id))
      const missing = yield* failureOf(jobs.status("globex", "crawl_00000000000000000000000000000000"))
      expect(other.slice(0, 2)).toEqual(["RequestFailed", "not_found"])
      expect(missing.slice(0, 2)).toEqual(other.slice(0, 2))
      expect(yield* failureOf(jobs.cancel("globex", job.id))).toEqual([
        "RequestFailed",
        "not_found",
        `no crawl ${job.id} in this workspace`
      ])
      expect((yield* settled("acme", job.id)).status).toBe("completed")
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("cancel interrupts the crawl's fetches and keeps what it read; a second cancel removes it", () => {
    return Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const { driver, recorded } = siteDriver(100, gate)
      yield* Effect.gen(function* () {
        const jobs = yield* CrawlJobs.CrawlJobs
        const job = yield* jobs.start("acme", { url: `${origin}/`, maxPages: 50, delay: 0 })
        // The start page is read; its links wait on the gate.
        while (recorded.calls.length < 2) yield* Effect.sleep("5 millis")
        yield* jobs.cancel("acme", job.id)
        const cancelled = yield* jobs.status("acme", job.id)
        expect([cancelled.status, cancelled.pages, cancelled.total]).toEqual(["cancelled", 1, 1])
        expect(recorded.interrupted.length).toBeGreaterThan(0)
        yield* jobs.cancel("acme", job.id)
        expect((yield* failureOf(jobs.status("acme", job.id)))[1]).toBe("not_found")
      }).pipe(Effect.provide(live(driver)))
    })
  })

  it.live("a start page that fails fails the job with its typed error", () => {
    const { driver } = siteDriver(3)
    return Effect.gen(function* () {
      const jobs = yield* CrawlJobs.CrawlJobs
      const job = yield* jobs.start("acme", { url: `${origin}/fails`, delay: 0 })
      const done = yield* settled("acme", job.id)
      expect(done.status).toBe("failed")
      expect([done.error?._tag, done.error?.reason, done.error?.input]).toEqual([
        "RequestFailed",
        "http_5xx",
        `${origin}/fails`
      ])
    }).pipe(Effect.provide(live(driver)))
  })

  it.live("a bad request or bad paging fails before anything runs, naming the field", () => {
    const { driver, recorded } = siteDriver(3)
    return Effect.gen(function* () {
      const jobs = yield* CrawlJobs.CrawlJobs
      const [, reason, message] = yield* failureOf(jobs.start("acme", { url: `${origin}/`, maxPages: 0 }))
      expect([reason, message]).toEqual(["invalid_input", expect.stringContaining("maxPages")])
      expect(recorded.calls).toEqual([])
      const job = yield* jobs.start("acme", { url: `${origin}/`, delay: 0 })
      for (const [page, field] of [
        [{ offset: -1 }, "offset"],
        [{ limit: 0 }, "limit"],
        [{ limit: "1001" }, "limit"],
        [{ offset: "1e3" }, "offset"]
      ] as const) {
        const [, pageReason, pageMessage] = yield* failureOf(jobs.status("acme", job.id, page))
        expect([pageReason, pageMessage]).toEqual(["invalid_input", expect.stringContaining(field)])
      }
    }).pipe(Effect.provide(live(driver)))
  })

  it.live(
    "per-workspace limits: running crawls (rate_limited) and pages held (conflict), other workspaces free",
    () => {
      return Effect.gen(function* () {
        const gate = yield* Deferred.make<void>()
        const { driver } = siteDriver(100, gate)
        yield* Effect.gen(function* () {
          const jobs = yield* CrawlJobs.CrawlJobs
          const first = yield* jobs.start("acme", { url: `${origin}/`, maxPages: 30, delay: 0 })
          yield* jobs.start("acme", { url: `${origin}/`, maxPages: 30, delay: 0 })
          const [tag, reason, message] = yield* failureOf(jobs.start("acme", { url: `${origin}/`, delay: 0 }))
          expect([tag, reason]).toEqual(["RequestFailed", "rate_limited"])
          expect(message).toContain("2 crawls")
          // Another workspace has its own limits.
          const theirs = yield* jobs.start("globex", { url: `${origin}/`, maxPages: 30, delay: 0 })
          yield* jobs.cancel("globex", theirs.id)
          // The running crawls reserve 60 of 70 pages: a crawl of 20 more is refused, one of 10 fits once a slot frees.
          yield* jobs.cancel("acme", first.id)
          const pages = yield* failureOf(jobs.start("acme", { url: `${origin}/`, maxPages: 50, delay: 0 }))
          expect(pages.slice(0, 2)).toEqual(["RequestFailed", "conflict"])
          expect(pages[2]).toContain("maxPages")
          const fits = yield* jobs.start("acme", { url: `${origin}/`, maxPages: 10, delay: 0 })
          expect(fits.status).toBe("running")
        }).pipe(Effect.provide(live(driver, { maxRunning: 2, maxPages: 70 })))
      })
    }
  )

  it.live("finished jobs past maxFinished are dropped, oldest first", () => {
    const { driver } = siteDriver(3)
    return Effect.gen(function* () {
      const jobs = yield* CrawlJobs.CrawlJobs
      const ids: Array<string> = []
      for (let i = 0; i < 3; i++) {
        const job = yield* jobs.start("acme", { url: `${origin}/`, delay: 0 })
        yield* settled("acme", job.id)
        ids.push(job.id)
      }
      expect((yield* failureOf(jobs.status("acme", ids[0]!)))[1]).toBe("not_found")
      expect((yield* jobs.status("acme", ids[1]!)).status).toBe("completed")
      expect((yield* jobs.status("acme", ids[2]!)).status).toBe("completed")
    }).pipe(Effect.provide(live(driver, { maxFinished: 2 })))
  })

  it.live("closing the layer stops every running crawl", () => {
    return Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const { driver, recorded } = siteDriver(100, gate)
      yield* Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(live(driver))
          const jobs = yield* Effect.provide(CrawlJobs.CrawlJobs, context)
          yield* jobs.start("acme", { url: `${origin}/`, maxPages: 20, delay: 0 })
          while (recorded.calls.length < 2) yield* Effect.sleep("5 millis")
        })
      )
      expect(recorded.interrupted.length).toBeGreaterThan(0)
    })
  })

  it.live("finished jobs are dropped after their retention", () => {
    const { driver } = siteDriver(3)
    return Effect.gen(function* () {
      const jobs = yield* CrawlJobs.CrawlJobs
      const job = yield* jobs.start("acme", { url: `${origin}/`, delay: 0 })
      expect((yield* settled("acme", job.id)).status).toBe("completed")
      yield* Effect.sleep("300 millis")
      expect((yield* failureOf(jobs.status("acme", job.id)))[1]).toBe("not_found")
    }).pipe(Effect.provide(live(driver, { retention: "200 millis" })))
  })
})

describe("the pages a job holds", () => {
  it.live("a page is held as a window of 20,000 characters unless the request names its maxLength", () => {
    const long = "word ".repeat(8_000)
    const driver: ProviderDriver = {
      crawlPage: (url) => Effect.succeed({ result: { title: "Long", content: long, url }, links: [] }),
      preset: Preset.make({
        id: "sitecrawler",
        name: "Site crawler",
        type: "local",
        credentials: "none",
        capabilities: [{ feature: "crawlSite" }]
      })
    }
    return Effect.gen(function* () {
      const jobs = yield* CrawlJobs.CrawlJobs
      const held = yield* settled("acme", (yield* jobs.start("acme", { url: `${origin}/` })).id)
      const page = held.events[0]
      if (page?._tag !== "CrawlPage") throw new Error("no page")
      expect(page.result.content.length).toBeLessThanOrEqual(Rules.jobPageLength)
      expect([page.result.totalLength, page.result.nextStartIndex !== undefined]).toEqual([long.length, true])
      const asked = yield* settled("acme", (yield* jobs.start("acme", { url: `${origin}/`, maxLength: 50_000 })).id)
      const whole = asked.events[0]
      if (whole?._tag !== "CrawlPage") throw new Error("no page")
      expect(whole.result.content).toBe(long)
    }).pipe(Effect.provide(live(driver)))
  })
})

describe("the paging of a job's events", () => {
  it.prop("a stored time read back as any number is a date, never a throw", [FastCheck.double()], ([millis]) => {
    expect(Number.isNaN(Date.parse(Rules.iso(millis)))).toBe(false)
  })

  it.prop(
    "offset and limit in range decode, as numbers or their digits; out of range fails naming the field",
    [FastCheck.integer({ min: -5, max: 100_000_005 }), FastCheck.integer({ min: -5, max: 1005 }), FastCheck.boolean()],
    ([offset, limit, digits]) => {
      const raw = digits ? { offset: String(offset), limit: String(limit) } : { offset, limit }
      const decoded = Effect.runSync(Effect.either(Rules.decodePage(raw)))
      const offsetOk = offset >= 0 && offset <= 100_000_000
      const limitOk = limit >= 1 && limit <= 1000
      if (offsetOk && limitOk) {
        expect(decoded._tag).toBe("Right")
        if (decoded._tag === "Right") expect(decoded.right).toEqual({ offset, limit })
      } else {
        expect(decoded._tag).toBe("Left")
        if (decoded._tag === "Left") {
          expect(decoded.left.reason).toBe("invalid_input")
          expect(decoded.left.message).toContain(offsetOk ? "limit" : "offset")
        }
      }
    }
  )

  it.effect("anything but a count fails: fractions, exponents, signs, blanks, other types", () =>
    Effect.gen(function* () {
      for (const bad of [1.5, "1.5", "1e3", "+1", " 1", "", "0x10", null, true, [], {}, Number.NaN]) {
        const error = yield* Effect.flip(Rules.decodePage({ offset: bad }))
        expect([error.reason, error.message]).toEqual(["invalid_input", expect.stringContaining("offset")])
      }
      expect(yield* Rules.decodePage(undefined)).toEqual({ offset: 0, limit: 100 })
    })
  )
})
