/**
 * Crawl jobs on Redis, shared by every replica of a deployment: core's `CrawlJobs` service with each job's
 * frontier a Redis stream read by a consumer group, so the pages of one crawl are fetched by the workers of every
 * replica, and any replica answers for any job (status, cancel).
 *
 * - **Start** (any replica): the request is checked and the provider resolved as `crawlSite` does; one script
 *   admits the job against its workspace's limits, writes its record and stored request, creates its stream and
 *   group, and queues the start URL.
 * - **Work** (every replica, `workers` fibers each): `XREADGROUP` takes a URL; the job's plan is prepared again
 *   from its stored request in its workspace; the page is read under the job's politeness per host (a lease set
 *   and a next-start time per host in Redis, so `concurrency` and `delay` hold across replicas); one script settles
 *   it: `XACK` first (an entry settled elsewhere changes nothing), the result stored once per normalised URL, its
 *   links admitted (seen set, `maxDepth`, the `maxPages` cap and `XADD` together) and the job's outstanding count
 *   decremented — the job completes in the script that brings it to 0, exactly once.
 * - **Take-over**: an entry idle past `claimIdle` (its replica died mid-page) is claimed by another worker with
 *   `XAUTOCLAIM` and read again; a page fetched and settled is never fetched again, since settling acknowledges it.
 * - **Hosted crawls** (Firecrawl, Tavily) run on the replica that started them, their pages stored in Redis as they
 *   arrive; the replica holds a lease on the job, and a job whose replica died reads as failed.
 * - **Cancel** drops the job's frontier; the pages in flight are interrupted on every replica within half a second
 *   (each worker checks its job's status while it reads), a hosted crawl on its replica at once. Finished jobs
 *   expire after `retention`.
 *
 * Why Redis streams and consumer groups rather than `@effect/cluster` with `@effect/workflow` on the SQL store:
 * the shared state websearch replicas already have is Redis (the result cache, quotas and rate limits of
 * `SharedStores`), so crawl jobs add no store to a deployment; a crawl's unit of work is one idempotent page read,
 * which is exactly what a consumer group's pending list, `XACK` and `XAUTOCLAIM` give at-least-once delivery and
 * take-over for, and the decisions that must happen once (admission, dedupe, completion) are single Lua scripts.
 * Cluster's sharding, entity mailboxes and durable workflow replay would bring a runner registry and a SQL
 * database into every deployment for that, with no gain for work that is naturally a queue of URLs.
 *
 * @since 0.2.0
 */
import * as CrawlJobs from "@websearch/core/CrawlJobs"
import * as CrawlEngine from "@websearch/core/internal/crawlEngine"
import * as Rules from "@websearch/core/internal/crawlJobRules"
import type { FetchUrls } from "@websearch/core/FetchUrls"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderStore from "@websearch/core/ProviderStore"
import type { ProviderRegistry } from "@websearch/core/ProviderRegistry"
import type { Settings } from "@websearch/core/Settings"
import * as SiteRequest from "@websearch/core/SiteRequest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { RedisOptions } from "ioredis"
import { randomUUID } from "node:crypto"
import { hostname } from "node:os"
import * as Store from "./internal/crawlJobsStore.js"
import * as CrawlWorker from "./internal/crawlWorker.js"
import * as RedisConnection from "./internal/redisConnection.js"
import * as RedisModules from "./internal/redisModules.js"

const { Scripts } = Store

/**
 * Options of the Redis crawl jobs, besides the per-workspace limits.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options extends CrawlJobs.Options {
  /** Namespace of every key; replicas that share jobs use the same prefix. Default `websearch`. */
  readonly prefix?: string | undefined
  /** Workers of this replica (each reads one page at a time, on a connection of its own). Default 4. */
  readonly workers?: number | undefined
  /** How long a claimed URL may stay unsettled before another worker takes it over. Default 1 minute. */
  readonly claimIdle?: Duration.DurationInput | undefined
  /**
   * Runs a job's work in its workspace (its provider instances) on whichever replica reads its pages. Default: the
   * workspace's instances from the `ProviderStore` in context when there is one (read again after 10 s), else
   * the composed providers only.
   */
  readonly inWorkspace?: CrawlWorker.InWorkspace | undefined
}

const encodeRequest = Schema.encodeSync(SiteRequest.CrawlSiteRequest)

// A workspace's instances from the store, kept 10 s per workspace (a page is read with them, not one query per
// page). A store that does not answer leaves the composed providers: the pages of an instance then fail, typed.
const fromStore = (store: Option.Option<ProviderStore.ProviderStore.Service>): CrawlWorker.InWorkspace => {
  if (Option.isNone(store)) return (workspace) => ProviderInstance.withInstances(workspace, [])
  const cache = new Map<
    string,
    { readonly at: number; readonly instances: ReadonlyArray<ProviderInstance.ProviderInstance> }
  >()
  const current = (workspace: ProviderInstance.WorkspaceId) =>
    Effect.suspend(() => {
      const cached = cache.get(workspace)
      if (cached !== undefined && Date.now() - cached.at < 10_000) return Effect.succeed(cached.instances)
      return store.value.list(workspace).pipe(
        Effect.tap((instances) => Effect.sync(() => cache.set(workspace, { at: Date.now(), instances }))),
        Effect.catchAll((error) =>
          Effect.as(
            Effect.logWarning(`websearch's crawl could not read ${workspace}'s instances: ${error.message}`),
            []
          )
        )
      )
    })
  return (workspace) => (effect) =>
    Effect.flatMap(current(workspace), (instances) => ProviderInstance.withInstances(effect, workspace, instances))
}

// The service on Redis, with this replica's workers running in the scope.
const make = (
  redisOptions: RedisOptions,
  options: Options = {}
): Effect.Effect<
  CrawlJobs.CrawlJobs.Service,
  WebSearchError.Unavailable,
  Settings | ProviderRegistry | FetchUrls | Scope.Scope
> =>
  Effect.gen(function* () {
    const limits = yield* Rules.fromOptions(options)
    // Checked before any connection: a bad value is the start's typed failure, naming the option.
    const claimIdle = Duration.decodeUnknown(options.claimIdle ?? "1 minute")
    const workers = options.workers ?? 4
    if (Option.isNone(claimIdle)) {
      return yield* WebSearchError.unavailable("invalid_config", "the crawl jobs' claimIdle is not a duration")
    }
    // 0 is a replica that answers for jobs and reads no page.
    if (!Number.isSafeInteger(workers) || workers < 0 || workers > 64) {
      return yield* WebSearchError.unavailable(
        "invalid_config",
        `the crawl jobs' workers must be an integer from 0 to 64 (${workers})`
      )
    }
    const engine = yield* CrawlEngine.make
    const scope = yield* Effect.scope
    const bounded = RedisConnection.bounded(redisOptions)
    const connect = Effect.acquireRelease(RedisModules.client(bounded), (redis) =>
      Effect.sync(() => redis.disconnect())
    )
    const redis = yield* connect
    const run = Store.command(RedisConnection.scrubber(bounded))
    const keys = Store.keys(options.prefix ?? "websearch")
    const replica = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`
    const shared: CrawlWorker.Shared = {
      engine,
      redis,
      run,
      keys,
      claimIdle: Math.max(100, Duration.toMillis(claimIdle.value)),
      retention: limits.retention,
      inWorkspace: options.inWorkspace ?? fromStore(yield* Effect.serviceOption(ProviderStore.ProviderStore)),
      plans: new Map()
    }
    for (let i = 0; i < workers; i++) {
      // A blocking read needs its own connection; its command timeout is above the read's block.
      const blocking = yield* connect
      yield* Effect.forkIn(CrawlWorker.loop(shared, blocking, `${replica}-${i}`), scope)
    }
    const hostedFibers = new Map<string, Fiber.RuntimeFiber<void>>()

    const hosted = (id: string, plan: CrawlEngine.Plan) => {
      const jobKey = keys.job(id)
      const call = (kind: string, ...args: ReadonlyArray<string>) =>
        Effect.flatMap(Effect.sync(Date.now), (now) =>
          run("hosted", () =>
            Store.script(redis, Scripts.hosted, [keys.base, id, now, limits.retention, kind, ...args])
          )
        )
      const owner = Effect.forever(
        Effect.zipRight(
          Effect.ignore(run("owner", () => redis.set(`${jobKey}:owner`, replica, "PX", 15_000))),
          Effect.sleep("5 seconds")
        )
      )
      const crawl = Stream.runForEachWhile(engine.run(plan), (event) => {
        switch (event._tag) {
          case "CrawlPage":
          case "CrawlFailure": {
            const admission = plan.admit(event.url)
            const key = admission._tag === "Read" ? admission.key : event.url
            const kind = event._tag === "CrawlPage" ? "page" : "fail"
            return Effect.map(call(kind, key, Store.eventJson(event)), (answer) => Number(answer) === 1)
          }
          case "CrawlDone":
            return Effect.as(
              call("done", JSON.stringify(event.skipped), JSON.stringify(event.cuts.map((c) => [c.reason, c.message]))),
              false
            )
        }
      }).pipe(
        Effect.catchAll((error) =>
          call("failed", Store.failureJson(WebSearchError.toInputFailure(plan.request.url, error)))
        ),
        Effect.raceFirst(owner),
        Effect.ensuring(Effect.sync(() => hostedFibers.delete(id))),
        Effect.asVoid,
        Effect.catchAll((error) =>
          Effect.logWarning(`websearch's hosted crawl ${id} could not be stored: ${error.message}`)
        )
      )
      return Effect.tap(Effect.forkIn(crawl, scope), (fiber) => Effect.sync(() => hostedFibers.set(id, fiber)))
    }

    const start: CrawlJobs.CrawlJobs.Service["start"] = (workspace, request) =>
      Effect.gen(function* () {
        const plan = yield* engine.prepare(Rules.withJobWindow(request))
        const id = Rules.newId()
        const method = plan.method._tag === "Own" ? "own" : "hosted"
        if (method === "hosted") {
          yield* run("owner", () => redis.set(`${keys.job(id)}:owner`, replica, "PX", 15_000))
        }
        const [verdict, , held] = (yield* run("start", () =>
          Store.script(redis, Scripts.start, [
            keys.base,
            workspace,
            id,
            Date.now(),
            limits.maxRunning,
            limits.maxPages,
            limits.maxFinished,
            plan.request.maxPages,
            method,
            JSON.stringify(encodeRequest(plan.request)),
            plan.request.url,
            plan.providerId,
            plan.startKey,
            plan.request.maxDepth
          ])
        )) as [string, number, number]
        if (verdict === "running") return yield* Effect.fail(Rules.tooManyRunning(limits))
        if (verdict === "pages") return yield* Effect.fail(Rules.tooManyPages(limits, held, plan.request.maxPages))
        if (method === "own") shared.plans.set(id, plan)
        else yield* hosted(id, plan)
        return yield* Store.read(redis, run, keys.job(id), id, workspace, { offset: 0, limit: 0 })
      })

    return {
      start,
      status: (workspace, id, page) =>
        Effect.gen(function* () {
          const paging = yield* Rules.decodePage(page)
          if (!Rules.isId(id)) return yield* Effect.fail(Rules.notFound(id))
          const gone = WebSearchError.requestFailed(
            "stream_incomplete",
            "the replica running this hosted crawl stopped before it ended; the pages it stored are kept"
          )
          yield* run("orphaned", () =>
            Store.script(redis, Scripts.orphaned, [
              keys.base,
              id,
              Date.now(),
              limits.retention,
              Store.failureJson(WebSearchError.toInputFailure("", gone))
            ])
          )
          return yield* Store.read(redis, run, keys.job(id), id, workspace, paging)
        }),
      cancel: (workspace, id) =>
        Effect.gen(function* () {
          if (!Rules.isId(id)) return yield* Effect.fail(Rules.notFound(id))
          const answer = yield* run("cancel", () =>
            Store.script(redis, Scripts.cancel, [keys.base, workspace, id, Date.now(), limits.retention])
          )
          if (answer === "missing") return yield* Effect.fail(Rules.notFound(id))
          shared.plans.delete(id)
          const fiber = hostedFibers.get(id)
          if (fiber !== undefined) yield* Fiber.interrupt(fiber)
        })
    }
  })

/**
 * Crawl jobs on the Redis server of `redisOptions`; needs what `WebSearch.layer` provides. Closing the layer
 * stops this replica's workers (their claimed URLs are taken over by other replicas after `claimIdle`).
 *
 * @example
 * ```ts
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as CrawlJobsRedis from "@websearch/node/CrawlJobsRedis"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as Layer from "effect/Layer"
 *
 * // Every replica: the same Redis and prefix, so each reads pages of every crawl and answers for any job.
 * export const Live = CrawlJobsRedis.layer({ host: "redis.internal", port: 6379 }, { maxRunning: 8 }).pipe(
 *   Layer.provideMerge(WebSearch.layer(Fetch.layer)),
 *   Layer.provide(Settings.layerConfig())
 * )
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (
  redisOptions: RedisOptions,
  options: Options = {}
): Layer.Layer<CrawlJobs.CrawlJobs, WebSearchError.Unavailable, Settings | ProviderRegistry | FetchUrls> =>
  Layer.scoped(CrawlJobs.CrawlJobs, make(redisOptions, options))
