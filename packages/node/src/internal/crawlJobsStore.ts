/**
 * The crawl jobs' Redis commands, each bounded and typed: a failed or slow command is `Unavailable/
 * store_unavailable` (503 on the HTTP API) with its message scrubbed of the Redis password; and the job record
 * read back into the `CrawlJob` view with its events decoded by their schemas.
 */
import * as CrawlJobs from "@websearch/core/CrawlJobs"
import * as Rules from "@websearch/core/internal/crawlJobRules"
import type { CrawlDone } from "@websearch/core/SiteResponse"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { Redis } from "ioredis"
import * as Scripts from "./crawlJobsScripts.js"

/** The keys of one deployment (its prefix). */
export interface Keys {
  readonly base: string
  readonly active: string
  readonly job: (id: string) => string
}

/** The keys under `prefix`. */
export const keys = (prefix: string): Keys => {
  const base = `${prefix}:crawl`
  return { base, active: `${base}:active`, job: (id) => `${base}:job:${id}` }
}

/** Runs a Redis command as an Effect: its failure is the store's, scrubbed. */
export const command =
  (scrub: (cause: unknown) => string) =>
  <A>(what: string, run: () => Promise<A>): Effect.Effect<A, WebSearchError.Unavailable> =>
    Effect.tryPromise({
      try: run,
      catch: (cause) =>
        WebSearchError.unavailable("store_unavailable", `the crawl jobs' store failed (${what}): ${scrub(cause)}`)
    })

/** Runs a script. */
export const script = (redis: Redis, source: string, args: ReadonlyArray<string | number>): Promise<unknown> =>
  redis.eval(source, 0, ...args.map(String))

/** One event a job keeps (a page, or a page that failed), as `CrawlJob` lists them. */
export type JobEvent = CrawlJobs.CrawlJob["events"][number]
const JobEvent = CrawlJobs.CrawlJob.fields.events.value

const encodeEvent = Schema.encodeSync(JobEvent)
const decodeEvent = Schema.decodeUnknownEither(Schema.parseJson(JobEvent))
const decodeFailure = Schema.decodeUnknownEither(Schema.parseJson(WebSearchError.InputFailure))
const encodeFailure = Schema.encodeSync(WebSearchError.InputFailure)

/** An event as stored. */
export const eventJson = (event: JobEvent): string => JSON.stringify(encodeEvent(event))

/** A failure as stored. */
export const failureJson = (failure: WebSearchError.InputFailure): string => JSON.stringify(encodeFailure(failure))

const skipReasons: ReadonlyArray<keyof CrawlDone["skipped"]> = [
  "offSite",
  "excluded",
  "duplicate",
  "depth",
  "policy",
  "robots"
]
const cutOrder = ["limit", "sitemaps", "bytes", "depth", "maxPages", "timeout", "interrupted"] as const

const count = (value: string | undefined): number => {
  const n = Number(value ?? "0")
  return Number.isSafeInteger(n) && n >= 0 ? n : 0
}

/** Reads a job of `workspace` with its events from `page`; another workspace's job is not found. */
export const read = (
  redis: Redis,
  run: ReturnType<typeof command>,
  jobKey: string,
  id: string,
  workspace: string,
  page: Rules.Page
): Effect.Effect<CrawlJobs.CrawlJob, WebSearchError.Unavailable | WebSearchError.RequestFailed> =>
  Effect.gen(function* () {
    const record = yield* run("read", () => redis.hgetall(jobKey))
    if (record.workspace !== workspace || record.status === undefined) return yield* Effect.fail(Rules.notFound(id))
    const total = yield* run("read", () => redis.llen(`${jobKey}:order`))
    const slice =
      page.limit === 0 || page.offset >= total
        ? []
        : yield* run("read", () => redis.lrange(`${jobKey}:order`, page.offset, page.offset + page.limit - 1))
    const stored = slice.length === 0 ? [] : yield* run("read", () => redis.hmget(`${jobKey}:results`, ...slice))
    const events: Array<JobEvent> = []
    for (const json of stored) {
      if (json === null) continue
      const decoded = decodeEvent(json)
      if (decoded._tag === "Left") {
        return yield* Effect.fail(
          WebSearchError.unavailable("store_unavailable", `a stored crawl event of ${id} does not decode`)
        )
      }
      events.push(decoded.right)
    }
    const status = CrawlJobs.CrawlJob.fields.status.literals.find((literal) => literal === record.status) ?? "failed"
    const error = record.error === undefined ? undefined : decodeFailure(record.error)
    const next = page.offset + events.length
    return {
      id,
      status,
      url: record.url ?? "",
      providerId: record.providerId ?? "",
      pages: count(record.pages),
      failed: count(record.failed),
      skipped: Object.fromEntries(
        skipReasons.map((reason) => [reason, count(record[`sk:${reason}`])])
      ) as CrawlDone["skipped"],
      cuts: cutOrder.flatMap((reason) => {
        const message = record[`cut:${reason}`]
        return message === undefined ? [] : [{ reason, message }]
      }),
      ...(error !== undefined && error._tag === "Right" ? { error: error.right } : {}),
      createdAt: Rules.iso(count(record.createdAt)),
      updatedAt: Rules.iso(count(record.updatedAt)),
      offset: page.offset,
      total,
      ...(next < total ? { nextOffset: next } : {}),
      events
    }
  })

/** The scripts, re-exported for the engine. */
export { Scripts }
