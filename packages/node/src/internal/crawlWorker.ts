/**
 * One crawl worker of a replica: it reads the URLs of the running jobs' frontiers (`XREADGROUP` on their streams,
 * as a consumer of the group every replica shares), takes over the entries another consumer left idle past the
 * claim timeout (`XAUTOCLAIM`: a replica that died mid-page), reads each page with the job's plan — prepared again
 * from the job's stored request, in its workspace — under the job's politeness per host (kept in Redis, so it
 * holds across replicas), and settles it in one script (acknowledged, stored once, its links admitted, the job
 * completed when nothing is left).
 */
import * as CrawlEngine from "@websearch/core/internal/crawlEngine"
import type { WorkspaceId } from "@websearch/core/ProviderInstance"
import * as SiteResponse from "@websearch/core/SiteResponse"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Redis } from "ioredis"
import { randomUUID } from "node:crypto"
import * as Store from "./crawlJobsStore.js"

const { Scripts } = Store

/** Runs an effect in a job's workspace (its provider instances), as the request that started it ran. */
export type InWorkspace = (
  workspace: WorkspaceId
) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

/** What the workers of one replica share. */
export interface Shared {
  readonly engine: CrawlEngine.Engine
  readonly redis: Redis
  readonly run: ReturnType<typeof Store.command>
  readonly keys: Store.Keys
  readonly claimIdle: number
  readonly retention: number
  readonly inWorkspace: InWorkspace
  /** Plans by job id (a job's plan is prepared once per replica). */
  readonly plans: Map<string, CrawlEngine.Plan>
}

const streamSuffix = ":stream"
const maxPlans = 64

const planOf = (shared: Shared, id: string, request: string) => {
  const known = shared.plans.get(id)
  if (known !== undefined) return Effect.succeed(known)
  return Effect.flatMap(
    Effect.try({
      try: () => JSON.parse(request) as unknown,
      catch: () => WebSearchError.unavailable("store_unavailable", `the stored request of crawl ${id} is not JSON`)
    }),
    (parsed) =>
      Effect.tap(shared.engine.prepare(parsed), (plan) =>
        Effect.sync(() => {
          if (shared.plans.size >= maxPlans) shared.plans.delete(shared.plans.keys().next().value!)
          shared.plans.set(id, plan)
        })
      )
  )
}

// One start per `delay` and at most `concurrency` pages in flight per job and host, across replicas.
const polite = <A, E, R>(
  shared: Shared,
  jobKey: string,
  url: string,
  plan: CrawlEngine.Plan,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E | WebSearchError.Unavailable, R> => {
  const host = new URL(url).host
  const leases = `${jobKey}:host:${host}:leases`
  const next = `${jobKey}:host:${host}:next`
  const { concurrency, delay } = shared.engine.politeness(plan.request)
  const ttl = Duration.toMillis(shared.engine.env.settings.timeouts.fetchUrls) + 10_000
  const token = randomUUID()
  const acquire: Effect.Effect<void, WebSearchError.Unavailable> = Effect.flatMap(
    shared.run("politeness", () =>
      Store.script(shared.redis, Scripts.acquireHost, [leases, next, concurrency, delay, ttl, token])
    ),
    (wait) => (Number(wait) === 0 ? Effect.void : Effect.zipRight(Effect.sleep(Math.min(Number(wait), 1000)), acquire))
  )
  return Effect.acquireUseRelease(
    acquire,
    () => effect,
    () => Effect.ignore(shared.run("politeness", () => shared.redis.zrem(leases, token)))
  )
}

/** Reads and settles one entry of a job's frontier. */
export const process = (
  shared: Shared,
  consumer: string,
  id: string,
  entryId: string,
  fields: ReadonlyMap<string, string>
): Effect.Effect<void, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const jobKey = shared.keys.job(id)
    const url = fields.get("url") ?? ""
    const depth = Number(fields.get("depth") ?? "0")
    const key = fields.get("key") ?? url
    const settle = (kind: string, ...args: ReadonlyArray<string | number>) =>
      Effect.flatMap(Effect.sync(Date.now), (now) =>
        shared
          .run("settle", () =>
            Store.script(shared.redis, Scripts.settle, [
              shared.keys.base,
              id,
              entryId,
              now,
              shared.retention,
              kind,
              ...args
            ])
          )
          .pipe(
            // A job that completed or failed with this entry needs its plan no more (its secrets included).
            Effect.tap((answer) =>
              Effect.sync(() => (answer === 2 || answer === 3 ? shared.plans.delete(id) : undefined))
            )
          )
      )
    const [status, workspace, request, createdAt] = yield* shared.run("job", () =>
      shared.redis.hmget(jobKey, "status", "workspace", "request", "createdAt")
    )
    // A job that ended meanwhile (cancelled, failed): its entry is acknowledged and nothing else changes.
    if (status !== "running" || workspace === null || request === null) {
      shared.plans.delete(id)
      return yield* settle("noop")
    }
    yield* Effect.gen(function* () {
      const prepared = yield* Effect.either(planOf(shared, id, request))
      if (prepared._tag === "Left") {
        const failure = WebSearchError.toInputFailure(url, prepared.left)
        if (depth === 0) return yield* settle("startfail", Store.failureJson(failure))
        const event = new SiteResponse.CrawlFailure({ url, depth, failure })
        return yield* settle("fail", key, Store.eventJson(event))
      }
      const plan = prepared.right
      if (plan.method._tag !== "Own") return yield* settle("noop")
      const timeout = shared.engine.env.settings.timeouts.crawlSite
      if (Date.now() > Number(createdAt) + Duration.toMillis(timeout)) {
        return yield* settle(
          "timeout",
          `the crawl reached its timeout of ${Duration.format(timeout)}; the pages read are kept`
        )
      }
      const step = plan.method.step
      let outcome = yield* polite(shared, jobKey, url, plan, step(url, depth))
      const pause = CrawlEngine.retryAfter(outcome)
      if (pause !== undefined) {
        yield* shared.run("politeness", () =>
          Store.script(shared.redis, Scripts.pauseHost, [`${jobKey}:host:${new URL(url).host}:next`, pause])
        )
        outcome = yield* polite(shared, jobKey, url, plan, step(url, depth))
      }
      if (depth === 0 && outcome._tag !== "Page") {
        const error = WebSearchError.scrub(CrawlEngine.startError(plan, outcome), plan.secrets)
        return yield* settle("startfail", Store.failureJson(WebSearchError.toInputFailure(plan.request.url, error)))
      }
      switch (outcome._tag) {
        case "Skipped":
          return yield* settle("skip", outcome.reason)
        case "Failed":
          return yield* settle("fail", key, Store.eventJson(outcome.event))
        case "Page": {
          // The map's URLs come first at depth 1, as in memory, then the page's links.
          const seeds = depth === 0 ? yield* shared.engine.seeds(plan) : []
          const skips: Array<readonly [string, string]> = []
          const links: Array<readonly [string, string]> = []
          for (const raw of [...seeds, ...outcome.links]) {
            const admission = plan.admit(raw)
            if (admission._tag === "Skip") skips.push([admission.reason, raw])
            else links.push([admission.url, admission.key])
          }
          return yield* settle(
            "page",
            key,
            Store.eventJson(outcome.event),
            JSON.stringify(outcome.keys),
            depth,
            JSON.stringify(skips),
            JSON.stringify(links)
          )
        }
      }
    }).pipe(shared.inWorkspace(workspace))
  }).pipe(
    // A page may wait for its host or take long: its claim is kept fresh meanwhile (XCLAIM by its own consumer
    // resets the entry's idle time), so only a worker that stopped loses it to XAUTOCLAIM.
    Effect.raceFirst(
      Effect.forever(
        Effect.zipRight(
          Effect.sleep(Math.max(25, Math.floor(shared.claimIdle / 3))),
          Effect.ignore(
            shared.run("claim", () =>
              shared.redis.call(
                "XCLAIM",
                `${shared.keys.job(id)}${streamSuffix}`,
                Scripts.group,
                consumer,
                "0",
                entryId,
                "JUSTID"
              )
            )
          )
        )
      )
    ),
    // A job cancelled (or ended) elsewhere stops its pages here too: the read in flight is interrupted.
    Effect.raceFirst(ended(shared, id)),
    Effect.asVoid
  )

// Completes once the job is no longer running (cancelled, failed or gone), checked every half second.
const ended = (shared: Shared, id: string): Effect.Effect<void> =>
  Effect.gen(function* () {
    while (true) {
      yield* Effect.sleep("500 millis")
      const status = yield* Effect.orElseSucceed(
        shared.run("status", () => shared.redis.hget(shared.keys.job(id), "status")),
        () => "running"
      )
      if (status !== "running") return
    }
  })

type Entry = readonly [string, ReadonlyArray<string>]

const fieldsOf = (flat: ReadonlyArray<string>): ReadonlyMap<string, string> => {
  const fields = new Map<string, string>()
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i]!, flat[i + 1]!)
  return fields
}

/**
 * A worker's loop, on a connection of its own (its `XREADGROUP` blocks): forever, until interrupted. A store
 * failure is logged and retried after a pause; a page's failure is the page's.
 */
export const loop = (shared: Shared, blocking: Redis, consumer: string): Effect.Effect<never> => {
  let nextClaim = 0
  const handle = (id: string, entries: ReadonlyArray<Entry>) =>
    Effect.forEach(entries, ([entryId, flat]) => process(shared, consumer, id, entryId, fieldsOf(flat)), {
      discard: true
    })
  const streamOf = (id: string) => `${shared.keys.job(id)}${streamSuffix}`
  // One entry at a time: an entry read is this worker's until it settles it, and only the entry in hand is kept
  // fresh (its claim heartbeat), so a worker never holds entries it is not reading, which another replica's
  // XAUTOCLAIM would take and read again. A stream that fails (gone with its job, its group missing) is passed over,
  // never stalling the others.
  const readOne = (command: ReadonlyArray<string>) =>
    shared
      .run("read", () => blocking.call(command[0]!, ...command.slice(1)))
      .pipe(Effect.orElseSucceed(() => null)) as Effect.Effect<unknown>
  let cursor = 0
  const round = Effect.gen(function* () {
    const ids = yield* shared.run("active", () => shared.redis.smembers(shared.keys.active))
    if (ids.length === 0) return yield* Effect.sleep("100 millis")
    if (Date.now() >= nextClaim) {
      let took = false
      for (const id of ids) {
        const claimed = (yield* readOne([
          "XAUTOCLAIM",
          streamOf(id),
          Store.Scripts.group,
          consumer,
          String(shared.claimIdle),
          "0-0",
          "COUNT",
          "1"
        ])) as [string, ReadonlyArray<Entry>] | null
        if (claimed !== null && claimed[1].length > 0) {
          yield* Effect.logDebug(`websearch takes over ${claimed[1].length} idle crawl entry(ies) of ${id}`)
          yield* handle(id, claimed[1])
          took = true
        }
      }
      // A dead replica's entries are taken over one round after another until none is left, then checked again
      // after half the claim timeout.
      if (!took) nextClaim = Date.now() + Math.max(50, shared.claimIdle / 2)
    }
    // The jobs in turn, starting one further each round, so no job waits behind another's pages.
    cursor = (cursor + 1) % ids.length
    for (let i = 0; i < ids.length; i++) {
      const id = ids[(cursor + i) % ids.length]!
      const reply = (yield* readOne([
        "XREADGROUP",
        "GROUP",
        Store.Scripts.group,
        consumer,
        "COUNT",
        "1",
        "STREAMS",
        streamOf(id),
        ">"
      ])) as ReadonlyArray<readonly [string, ReadonlyArray<Entry>]> | null
      const entries = reply?.[0]?.[1]
      if (entries !== undefined && entries.length > 0) return yield* handle(id, entries)
    }
    yield* Effect.sleep("100 millis")
  })
  return Effect.forever(
    round.pipe(
      // A failed round (Redis away) or a defect (a bug) is logged and the worker goes on: a worker that died here
      // would stop this replica's share of every crawl without a word.
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.interrupt
          : Effect.zipRight(
              Option.match(Cause.failureOption(cause), {
                onNone: () => Effect.logWarning(`websearch's crawl worker ${consumer} hit a defect`, cause),
                onSome: (error) => Effect.logDebug(`websearch's crawl worker ${consumer}: ${error.message}`)
              }),
              Effect.sleep("200 millis")
            )
      )
    )
  )
}
