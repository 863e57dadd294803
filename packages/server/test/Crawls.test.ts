/**
 * `POST /v1/map` and the crawl jobs (`POST /v1/crawls`, `GET /v1/crawls/{id}`, `DELETE /v1/crawls/{id}`) over real
 * HTTP on 127.0.0.1, with a scripted whole-site provider: a map answered directly, a crawl's lifecycle and its
 * pages read in pages, cancellation interrupting its fetches, jobs kept to their workspace, and the per-workspace
 * limits refused with their statuses.
 */
import { describe, expect, it } from "@effect/vitest"
import * as CrawlJobsRedis from "@websearch/node/CrawlJobsRedis"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ServerConfig from "../src/ServerConfig.js"
import type * as WebSearchServer from "../src/WebSearchServer.js"
import * as RedisServer from "../../../test-support/redisServer.js"
import * as Management from "./support/management.js"
import * as Support from "./support/server.js"
import * as Site from "./support/site.js"

const acme = Management.tokens.acmeMember
const beta = Management.tokens.betaAdmin

const serve = (size: number, options: WebSearchServer.Options = {}, gate?: Deferred.Deferred<void>) =>
  Effect.gen(function* () {
    const { driver, recorded } = Site.siteDriver(size, gate)
    const base = yield* Support.start(
      { tokens: Management.tokenOptions, ...options },
      Support.live([driver], { defaults: Site.defaults })
    )
    return { ...Management.client(base), recorded }
  })

interface Job {
  readonly id: string
  readonly status: string
  readonly pages: number
  readonly failed: number
  readonly total: number
  readonly offset: number
  readonly nextOffset?: number
  readonly cuts: ReadonlyArray<{ readonly reason: string }>
  readonly events: ReadonlyArray<{ readonly _tag: string; readonly url: string; readonly depth?: number }>
}

type Client = Effect.Effect.Success<ReturnType<typeof serve>>

const settled = (client: Client, id: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 500; i++) {
      const answer = yield* client.call("GET", `/v1/crawls/${id}?limit=1000`, acme)
      expect(answer.status).toBe(200)
      const job = answer.json as Job
      if (job.status !== "running") return job
      yield* Effect.sleep("10 millis")
    }
    throw new Error(`crawl ${id} still running`)
  })

describe("the map and crawl routes", () => {
  it.scoped("POST /v1/map answers the site's URLs directly, cut to limit", () =>
    Effect.gen(function* () {
      const client = yield* serve(40)
      const answer = yield* client.call("POST", "/v1/map", acme, { url: `${Site.origin}/`, limit: 10 })
      expect(answer.status).toBe(200)
      const map = answer.json as { providerId: string; links: Array<{ url: string }>; cuts: Array<{ reason: string }> }
      expect(map.providerId).toBe("sitecrawler")
      expect(map.links.map((link) => link.url)).toEqual([
        `${Site.origin}/`,
        ...Array.from({ length: 9 }, (_, i) => `${Site.origin}/p/${i + 1}`)
      ])
      expect(map.cuts.map((cut) => cut.reason)).toEqual(["limit"])
      const bad = yield* client.call("POST", "/v1/map", acme, { url: `${Site.origin}/`, limit: 0 })
      expect(bad.status).toBe(400)
      expect(bad.text).toContain("limit")
    })
  )

  it.scopedLive("a crawl is a job: 201 with its id, then its status and pages read in pages until it completes", () =>
    Effect.gen(function* () {
      const client = yield* serve(100)
      const started = yield* client.call("POST", "/v1/crawls", acme, {
        url: `${Site.origin}/`,
        maxPages: 25,
        maxDepth: 4,
        delay: 0
      })
      expect(started.status).toBe(201)
      const job = started.json as Job
      expect(job.id).toMatch(/^crawl_[0-9a-f]{32}$/)
      expect([job.status, job.total]).toEqual(["running", 0])
      const done = yield* settled(client, job.id)
      expect([done.status, done.pages, done.failed, done.total]).toEqual(["completed", 25, 0, 25])
      expect(done.cuts.map((cut) => cut.reason)).toEqual(["maxPages"])
      expect(client.recorded.pages).toHaveLength(25)
      // Paged: 10, 10, then the last 5.
      const urls: Array<string> = []
      let offset: number | undefined = 0
      let reads = 0
      while (offset !== undefined) {
        const page = (yield* client.call("GET", `/v1/crawls/${job.id}?offset=${offset}&limit=10`, acme)).json as Job
        expect(page.offset).toBe(offset)
        urls.push(...page.events.map((event) => event.url))
        offset = page.nextOffset
        reads++
      }
      expect(reads).toBe(3)
      expect(new Set(urls).size).toBe(25)
      expect(urls[0]).toBe(`${Site.origin}/`)
      for (const [query, field] of [
        ["offset=abc", "offset"],
        ["limit=0", "limit"],
        ["limit=1001", "limit"],
        ["offset=-1", "offset"]
      ] as const) {
        const bad = yield* client.call("GET", `/v1/crawls/${job.id}?${query}`, acme)
        expect(bad.status, query).toBe(400)
        expect(bad.json).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
        expect(bad.text).toContain(field)
      }
    })
  )

  it.scoped("a bad crawl request is 400 naming the field, and starts nothing", () =>
    Effect.gen(function* () {
      const client = yield* serve(10)
      const bad = yield* client.call("POST", "/v1/crawls", acme, { url: `${Site.origin}/`, maxDepth: 99 })
      expect(bad.status).toBe(400)
      expect(bad.text).toContain("maxDepth")
      const private_ = yield* client.call("POST", "/v1/crawls", acme, { url: "http://127.0.0.1/" })
      expect([private_.status, (private_.json as { reason: string }).reason]).toEqual([502, "ssrf_rejected"])
      expect(client.recorded.pages).toEqual([])
    })
  )

  it.scopedLive("another workspace's crawl answers 404, exactly as one that does not exist", () =>
    Effect.gen(function* () {
      const client = yield* serve(5)
      const job = (yield* client.call("POST", "/v1/crawls", acme, { url: `${Site.origin}/`, delay: 0 })).json as Job
      const theirs = yield* client.call("GET", `/v1/crawls/${job.id}`, beta)
      const none = yield* client.call("GET", "/v1/crawls/crawl_00000000000000000000000000000000", beta)
      expect([theirs.status, none.status]).toEqual([404, 404])
      expect((theirs.json as { reason: string }).reason).toBe("not_found")
      expect((yield* client.call("DELETE", `/v1/crawls/${job.id}`, beta)).status).toBe(404)
      expect((yield* settled(client, job.id)).status).toBe("completed")
    })
  )

  it.scopedLive("DELETE cancels a running crawl (its fetches interrupted, its pages kept), then deletes it", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const client = yield* serve(100, {}, gate)
      const job = (yield* client.call("POST", "/v1/crawls", acme, { url: `${Site.origin}/`, delay: 0 })).json as Job
      while (client.recorded.pages.length < 2) yield* Effect.sleep("5 millis")
      const cancelled = yield* client.call("DELETE", `/v1/crawls/${job.id}`, acme)
      expect([cancelled.status, cancelled.text]).toEqual([204, ""])
      const read = (yield* client.call("GET", `/v1/crawls/${job.id}`, acme)).json as Job
      expect([read.status, read.pages]).toEqual(["cancelled", 1])
      expect(client.recorded.interrupted.length).toBeGreaterThan(0)
      expect((yield* client.call("DELETE", `/v1/crawls/${job.id}`, acme)).status).toBe(204)
      expect((yield* client.call("GET", `/v1/crawls/${job.id}`, acme)).status).toBe(404)
    })
  )

  it.scopedLive("per-workspace limits: running crawls answer 429 with Retry-After, pages held 409", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const client = yield* serve(100, { maxCrawlJobs: 1, maxCrawlPages: 30 }, gate)
      const first = yield* client.call("POST", "/v1/crawls", acme, { url: `${Site.origin}/`, maxPages: 20 })
      expect(first.status).toBe(201)
      const busy = yield* client.call("POST", "/v1/crawls", acme, { url: `${Site.origin}/`, maxPages: 5 })
      expect(busy.status).toBe(429)
      expect(busy.json).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited" })
      expect(Number(busy.headers.match(/retry-after: (\d+)/)?.[1])).toBeGreaterThan(0)
      // Another workspace is not limited by this one's crawls.
      expect((yield* client.call("POST", "/v1/crawls", beta, { url: `${Site.origin}/`, maxPages: 20 })).status).toBe(
        201
      )
      // Cancelled, the first holds the page it read: 1 + 30 is past the 30 pages; 1 + 29 is not.
      expect((yield* client.call("DELETE", `/v1/crawls/${(first.json as Job).id}`, acme)).status).toBe(204)
      const full = yield* client.call("POST", "/v1/crawls", acme, { url: `${Site.origin}/`, maxPages: 30 })
      expect(full.status).toBe(409)
      expect(full.json).toMatchObject({ _tag: "RequestFailed", reason: "conflict" })
      expect(full.text).toContain("maxPages")
      expect((yield* client.call("POST", "/v1/crawls", acme, { url: `${Site.origin}/`, maxPages: 29 })).status).toBe(
        201
      )
    })
  )

  it.effect("the crawl limits come from the environment; a bad one fails the start naming it", () =>
    Effect.gen(function* () {
      const read = yield* ServerConfig.fromConfig().pipe(
        Effect.withConfigProvider(
          ConfigProvider.fromMap(
            new Map([
              ["WEBSEARCH_SERVER_MAX_CRAWL_JOBS", "2"],
              ["WEBSEARCH_SERVER_MAX_CRAWL_PAGES", "500"]
            ])
          )
        )
      )
      expect([read.maxCrawlJobs, read.maxCrawlPages]).toEqual([2, 500])
      const defaults = yield* ServerConfig.make({ insecureNoAuth: true })
      expect([defaults.maxCrawlJobs, defaults.maxCrawlPages]).toEqual([4, 20_000])
      for (const [field, bad] of [
        ["maxCrawlJobs", 0],
        ["maxCrawlJobs", 1.5],
        ["maxCrawlPages", -1]
      ] as const) {
        const error = yield* Effect.flip(ServerConfig.make({ insecureNoAuth: true, [field]: bad }))
        expect([error.reason, error.message]).toEqual(["invalid_config", expect.stringContaining(`${field} must be`)])
      }
    })
  )

  it.scopedLive("with crawl jobs on Redis in context, two servers share them: started on one, read on the other", () =>
    Effect.gen(function* () {
      const redis = yield* RedisServer.start()
      const prefix = `crawls${process.pid}x${Date.now()}`
      const server = Effect.fnUntraced(function* () {
        const { driver } = Site.siteDriver(30)
        const services = Support.live([driver], { defaults: Site.defaults })
        const base = yield* Support.start(
          { tokens: Management.tokenOptions },
          CrawlJobsRedis.layer(redis.options, { prefix, workers: 2 }).pipe(Layer.provideMerge(services))
        )
        return Management.client(base)
      })
      const one = yield* server()
      const two = yield* server()
      const started = yield* one.call("POST", "/v1/crawls", acme, {
        url: `${Site.origin}/`,
        maxPages: 20,
        maxDepth: 5,
        delay: 0
      })
      expect(started.status).toBe(201)
      const id = (started.json as Job).id
      let job = (yield* two.call("GET", `/v1/crawls/${id}?limit=1000`, acme)).json as Job
      while (job.status === "running") {
        yield* Effect.sleep("20 millis")
        job = (yield* two.call("GET", `/v1/crawls/${id}?limit=1000`, acme)).json as Job
      }
      expect([job.status, job.pages, job.total]).toEqual(["completed", 20, 20])
      expect((yield* two.call("GET", `/v1/crawls/${id}`, beta)).status).toBe(404)
      expect((yield* one.call("DELETE", `/v1/crawls/${id}`, acme)).status).toBe(204)
      expect((yield* two.call("GET", `/v1/crawls/${id}`, acme)).status).toBe(404)
    })
  )
})
