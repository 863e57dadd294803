/**
 * The crawl jobs' Lua scripts on a real redis-server: an entry settles once (a second settle of the same entry,
 * as after a take-over, changes nothing), a link found twice is queued once, and a job is completed exactly once
 * however many workers settle its last entries at the same time.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { Redis } from "ioredis"
import * as Scripts from "../src/internal/crawlJobsScripts.js"
import * as RedisServer from "../../../test-support/redisServer.js"

const serverScope = Effect.runSync(Scope.make())
const server = Effect.runPromise(Scope.extend(RedisServer.start(), serverScope))
afterAll(() => Effect.runPromise(Scope.close(serverScope, Exit.void)))

const origin = "https://site.example"

const connection = Effect.acquireRelease(
  Effect.map(
    Effect.promise(() => server),
    (s) => new Redis(s.options)
  ),
  (redis) => Effect.sync(() => redis.disconnect())
)

describe("the crawl scripts on Redis", () => {
  it.scopedLive("an entry settles once, a URL is queued once, and the job completes exactly once", () =>
    Effect.gen(function* () {
      const redis = yield* connection
      const base = `scripts${process.pid}x${Date.now()}:crawl`
      const id = "crawl_0123456789abcdef0123456789abcdef"
      const stream = `${base}:job:${id}:stream`
      const run = (source: string, args: ReadonlyArray<string | number>) =>
        Effect.promise(() => redis.eval(source, 0, ...args.map(String)))
      const started = yield* run(Scripts.start, [
        base,
        "acme",
        id,
        Date.now(),
        4,
        1000,
        100,
        10,
        "own",
        "{}",
        `${origin}/`,
        "sitecrawler",
        "start",
        3
      ])
      expect(started).toEqual(["ok", 0, 0])
      const read = (consumer: string) =>
        Effect.promise(
          () =>
            redis.call(
              "XREADGROUP",
              "GROUP",
              Scripts.group,
              consumer,
              "COUNT",
              "10",
              "STREAMS",
              stream,
              ">"
            ) as Promise<Array<[string, Array<[string, Array<string>]>]> | null>
        )
      const [[, [[startEntry]]]] = (yield* read("a"))!
      const page = (entry: string, key: string, links: ReadonlyArray<readonly [string, string]>) =>
        run(Scripts.settle, [
          base,
          id,
          entry,
          Date.now(),
          60_000,
          "page",
          key,
          `{"page":"${key}"}`,
          JSON.stringify([key]),
          0,
          "[]",
          JSON.stringify(links)
        ])
      const links = [1, 2, 3].map((i) => [`${origin}/p/${i}`, `p${i}`] as const)
      // The start page's links, one of them twice: queued once each.
      expect(yield* page(startEntry!, "start", [...links, links[0]!])).toBe(1)
      // Settling the same entry again (a replica that took it over) changes nothing.
      expect(yield* page(startEntry!, "start", [[`${origin}/p/9`, "p9"]])).toBe(0)
      const entries = (yield* read("b"))![0]![1]
      expect(entries.map(([, fields]) => fields[1])).toEqual(links.map(([url]) => url))
      // Three workers settle the last three at once: exactly one completes the job.
      const answers = yield* Effect.all(
        entries.map(([entry], i) =>
          Effect.acquireUseRelease(
            Effect.sync(() => redis.duplicate()),
            (other) =>
              Effect.promise(() =>
                other.eval(
                  Scripts.settle,
                  0,
                  base,
                  id,
                  entry,
                  String(Date.now()),
                  "60000",
                  "page",
                  `p${i + 1}`,
                  "{}",
                  JSON.stringify([`p${i + 1}`]),
                  "1",
                  "[]",
                  "[]"
                )
              ),
            (other) => Effect.sync(() => other.disconnect())
          )
        ),
        { concurrency: "unbounded" }
      )
      expect([...answers].sort()).toEqual([1, 1, 2])
      const record = yield* Effect.promise(() => redis.hgetall(`${base}:job:${id}`))
      expect([record.status, record.pages, record.outstanding]).toEqual(["completed", "4", "0"])
      expect(yield* Effect.promise(() => redis.llen(`${base}:job:${id}:order`))).toBe(4)
      // The frontier is gone; the record expires with the retention.
      expect(yield* Effect.promise(() => redis.exists(stream))).toBe(0)
      expect(yield* Effect.promise(() => redis.pttl(`${base}:job:${id}`))).toBeGreaterThan(0)
    })
  )
})
