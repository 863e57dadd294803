/**
 * Crawls as jobs: a crawl started now and read later, in pages, by its id — how the HTTP API serves `crawlSite`
 * (`POST /v1/crawls`, `GET /v1/crawls/{id}`, `DELETE /v1/crawls/{id}`). Jobs belong to a workspace: another
 * workspace's job is `RequestFailed/not_found`, exactly as one that does not exist. Each workspace has limits —
 * crawls running at once (`rate_limited`, 429: retry when one finishes) and pages held by its crawls (a running
 * crawl reserves its `maxPages`, a finished one holds what it read; `conflict`, 409: delete finished crawls).
 *
 * `layerMemory` runs each job's crawl in a fiber of this process (the same frontier as `crawlSite`); with shared
 * stores, `@websearch/node`'s `CrawlJobsRedis` runs them on Redis across replicas behind the same service.
 *
 * @since 0.2.0
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as CrawlEngine from "./internal/crawlEngine.js"
import * as Rules from "./internal/crawlJobRules.js"
import type { FetchUrls } from "./FetchUrls.js"
import { ProviderId } from "./ProviderId.js"
import type { WorkspaceId } from "./ProviderInstance.js"
import type { ProviderRegistry } from "./ProviderRegistry.js"
import type { Settings } from "./Settings.js"
import type * as SiteRequest from "./SiteRequest.js"
import { CrawlDone, CrawlFailure, type CrawlEvent, CrawlPage, SiteCut } from "./SiteResponse.js"
import * as WebSearchError from "./WebSearchError.js"

// Where a crawl job is: `running`, `completed` (its `CrawlDone` arrived), `failed` (its start failed: `error`
// says why) or `cancelled`.
const JobStatus = Schema.Literal("running", "completed", "failed", "cancelled").annotations({
  identifier: "CrawlJobStatus"
})
type JobStatus = typeof JobStatus.Type

// One event a job keeps: a page read or a page that failed, in the order they arrived.
const JobEvent = Schema.Union(CrawlPage, CrawlFailure)
type JobEvent = typeof JobEvent.Type

/**
 * A crawl job as its workspace sees it: where it is (`running`, `completed`, `failed` with its `error`,
 * `cancelled`), its counts (the skips and cuts are final once it finished;
 * an engine that counts as it goes shows them earlier), its error when it failed, and its events from `offset`
 * (at most the asked `limit`) out of `total`, with `nextOffset` while more are kept.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CrawlJob = Schema.Struct({
  id: Schema.String,
  status: JobStatus,
  url: Schema.String,
  providerId: ProviderId,
  pages: Schema.NonNegativeInt,
  failed: Schema.NonNegativeInt,
  skipped: CrawlDone.fields.skipped,
  cuts: Schema.Array(SiteCut),
  error: Schema.optional(WebSearchError.InputFailure),
  createdAt: Schema.String.annotations({ description: "ISO 8601" }),
  updatedAt: Schema.String.annotations({ description: "ISO 8601" }),
  offset: Schema.NonNegativeInt,
  total: Schema.NonNegativeInt,
  nextOffset: Schema.optional(Schema.NonNegativeInt),
  events: Schema.Array(JobEvent)
}).annotations({ identifier: "CrawlJob" })

/**
 * @since 0.2.0
 * @category models
 */
export type CrawlJob = typeof CrawlJob.Type

/**
 * The crawl-job service.
 *
 * @since 0.2.0
 * @category services
 */
export class CrawlJobs extends Context.Tag("@websearch/core/CrawlJobs")<CrawlJobs, CrawlJobs.Service>() {}

/**
 * @since 0.2.0
 * @category models
 */
export declare namespace CrawlJobs {
  /**
   * @since 0.2.0
   * @category models
   */
  export interface Service {
    /**
     * Validates the request (a bad field fails naming it), resolves its provider and checks its start URL, checks
     * the workspace's limits, then starts the crawl and answers the job (running, no events yet).
     */
    readonly start: (
      workspace: WorkspaceId,
      request: typeof SiteRequest.CrawlSiteRequest.Encoded
    ) => Effect.Effect<CrawlJob, WebSearchError.WebSearchError>
    /**
     * The job with its events from `offset` (default 0), at most `limit` (default 100, at most 1000); numbers or
     * their digits, a bad one fails `invalid_input` naming it.
     */
    readonly status: (
      workspace: WorkspaceId,
      id: string,
      page?: { readonly offset?: unknown; readonly limit?: unknown }
    ) => Effect.Effect<CrawlJob, WebSearchError.RequestFailed | WebSearchError.Unavailable>
    /**
     * Cancels a running job (it stays readable, `cancelled`, with what it read), or removes a finished one with
     * its events, giving back the pages it held.
     */
    readonly cancel: (
      workspace: WorkspaceId,
      id: string
    ) => Effect.Effect<void, WebSearchError.RequestFailed | WebSearchError.Unavailable>
  }
}

/**
 * The per-workspace limits; each optional (defaults: 4 crawls at once, 20,000 pages held, finished crawls kept an
 * hour and at most 100 of them).
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  readonly maxRunning?: number | undefined
  readonly maxPages?: number | undefined
  readonly retention?: Duration.DurationInput | undefined
  readonly maxFinished?: number | undefined
}

interface Job {
  readonly id: string
  readonly workspace: WorkspaceId
  readonly url: string
  readonly providerId: ProviderId
  readonly maxPages: number
  readonly createdAt: number
  status: JobStatus
  updatedAt: number
  readonly events: Array<JobEvent>
  pages: number
  failed: number
  skipped: CrawlDone["skipped"]
  cuts: ReadonlyArray<SiteCut>
  error: WebSearchError.InputFailure | undefined
  fiber: Fiber.RuntimeFiber<void> | undefined
}

const viewOf = (job: Job, page: Rules.Page): CrawlJob => {
  const events = job.events.slice(page.offset, page.offset + page.limit)
  const next = page.offset + events.length
  return {
    id: job.id,
    status: job.status,
    url: job.url,
    providerId: job.providerId,
    pages: job.pages,
    failed: job.failed,
    skipped: job.skipped,
    cuts: job.cuts,
    ...(job.error === undefined ? {} : { error: job.error }),
    createdAt: Rules.iso(job.createdAt),
    updatedAt: Rules.iso(job.updatedAt),
    offset: page.offset,
    total: job.events.length,
    ...(next < job.events.length ? { nextOffset: next } : {}),
    events
  }
}

// What a job holds against its workspace's pages: its reservation while it runs, what it read after.
const held = (job: Job): number => (job.status === "running" ? job.maxPages : job.pages + job.failed)

// The service in this process: each job's crawl runs in a fiber of the layer's scope (closing the layer stops
// every crawl), its events kept in memory within the workspace's page limit; finished jobs are dropped after
// `retention` or past `maxFinished` per workspace.
const makeMemory = (
  options: Options = {}
): Effect.Effect<
  CrawlJobs.Service,
  WebSearchError.Unavailable,
  Settings | ProviderRegistry | FetchUrls | Scope.Scope
> =>
  Effect.gen(function* () {
    const limits = yield* Rules.fromOptions(options)
    const engine = yield* CrawlEngine.make
    const scope = yield* Effect.scope
    const jobs = new Map<string, Job>()

    // Drops finished jobs past their retention, then the oldest finished ones past `maxFinished` per workspace.
    const sweep = (now: number, workspace: WorkspaceId): void => {
      const finished: Array<Job> = []
      for (const job of jobs.values()) {
        if (job.status === "running") continue
        if (now - job.updatedAt > limits.retention) jobs.delete(job.id)
        else if (job.workspace === workspace) finished.push(job)
      }
      finished.sort((a, b) => a.updatedAt - b.updatedAt)
      for (const job of finished.slice(0, Math.max(0, finished.length - limits.maxFinished))) jobs.delete(job.id)
    }
    const find = (workspace: WorkspaceId, id: string): Effect.Effect<Job, WebSearchError.RequestFailed> => {
      const job = jobs.get(id)
      // Another workspace's job is answered exactly as a missing one.
      return job === undefined || job.workspace !== workspace ? Effect.fail(Rules.notFound(id)) : Effect.succeed(job)
    }
    const record = (job: Job, event: CrawlEvent) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        job.updatedAt = now
        switch (event._tag) {
          case "CrawlPage":
            job.pages++
            job.events.push(event)
            return
          case "CrawlFailure":
            job.failed++
            job.events.push(event)
            return
          case "CrawlDone":
            job.skipped = event.skipped
            job.cuts = event.cuts
            return
        }
      })
    const finish = (job: Job, exit: Exit.Exit<void, WebSearchError.WebSearchError>) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        job.updatedAt = now
        job.fiber = undefined
        if (job.status !== "running") return
        if (Exit.isSuccess(exit)) job.status = "completed"
        else if (Exit.isInterrupted(exit)) job.status = "cancelled"
        else {
          job.status = "failed"
          // The first failure of the cause, however it is composed (a failure beside a finalizer's, say).
          const failure = Option.getOrUndefined(Cause.failureOption(exit.cause))
          job.error = WebSearchError.toInputFailure(
            job.url,
            failure ?? WebSearchError.aborted("the crawl stopped unexpectedly")
          )
        }
      })

    const start: CrawlJobs.Service["start"] = (workspace, request) =>
      Effect.gen(function* () {
        const plan = yield* engine.prepare(Rules.withJobWindow(request))
        const now = yield* Clock.currentTimeMillis
        // Checked and taken in one synchronous step, so two starts cannot both pass the same last slot.
        const job = yield* Effect.suspend((): Effect.Effect<Job, WebSearchError.RequestFailed> => {
          sweep(now, workspace)
          const mine = Array.from(jobs.values()).filter((job) => job.workspace === workspace)
          if (mine.filter((job) => job.status === "running").length >= limits.maxRunning) {
            return Effect.fail(Rules.tooManyRunning(limits))
          }
          const holding = mine.reduce((sum, job) => sum + held(job), 0)
          if (holding + plan.request.maxPages > limits.maxPages) {
            return Effect.fail(Rules.tooManyPages(limits, holding, plan.request.maxPages))
          }
          const job: Job = {
            id: Rules.newId(),
            workspace,
            url: plan.request.url,
            providerId: plan.providerId,
            maxPages: plan.request.maxPages,
            createdAt: now,
            status: "running",
            updatedAt: now,
            events: [],
            pages: 0,
            failed: 0,
            skipped: CrawlEngine.noSkips,
            cuts: [],
            error: undefined,
            fiber: undefined
          }
          jobs.set(job.id, job)
          return Effect.succeed(job)
        })
        // A cancel between the job's insertion and its fork finds no fiber: the crawl then does not start.
        const crawl = Effect.suspend(() =>
          job.status === "running" ? Stream.runForEach(engine.run(plan), (event) => record(job, event)) : Effect.void
        )
        job.fiber = yield* crawl.pipe(
          Effect.onExit((exit) => finish(job, exit)),
          Effect.asVoid,
          Effect.catchAll(() => Effect.void),
          Effect.withSpan("websearch.crawlJob", { captureStackTrace: false, attributes: { "websearch.job": job.id } }),
          Effect.forkIn(scope)
        )
        return viewOf(job, { offset: 0, limit: 0 })
      })

    return {
      start,
      status: (workspace, id, page) =>
        Effect.gen(function* () {
          const paging = yield* Rules.decodePage(page)
          sweep(yield* Clock.currentTimeMillis, workspace)
          return viewOf(yield* find(workspace, id), paging)
        }),
      cancel: (workspace, id) =>
        Effect.gen(function* () {
          const job = yield* find(workspace, id)
          if (job.status !== "running") {
            jobs.delete(job.id)
            return
          }
          job.status = "cancelled"
          job.updatedAt = yield* Clock.currentTimeMillis
          if (job.fiber !== undefined) yield* Fiber.interrupt(job.fiber)
        })
    }
  })

/**
 * Crawl jobs in this process: each job's crawl runs in a fiber of the layer's scope (closing the layer stops every
 * crawl) with the same frontier as `crawlSite`, its events kept in memory within the workspace's page limit;
 * finished jobs are dropped after `retention` or past `maxFinished` per workspace. Needs what `WebSearch.layer`
 * provides.
 *
 * @example
 * ```ts
 * import * as CrawlJobs from "@websearch/core/CrawlJobs"
 * import * as Effect from "effect/Effect"
 *
 * export const program = Effect.gen(function* () {
 *   const jobs = yield* CrawlJobs.CrawlJobs
 *   const job = yield* jobs.start("default", { url: "https://effect.website/docs/", maxPages: 50 })
 *   // Later, from any request of the workspace: its status and its first 20 pages.
 *   return yield* jobs.status("default", job.id, { offset: 0, limit: 20 })
 * })
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerMemory = (
  options: Options = {}
): Layer.Layer<CrawlJobs, WebSearchError.Unavailable, Settings | ProviderRegistry | FetchUrls> =>
  Layer.scoped(CrawlJobs, makeMemory(options))
