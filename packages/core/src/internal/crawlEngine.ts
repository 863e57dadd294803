/**
 * What a crawl-job engine needs of core: a crawl prepared as `crawlSite` prepares it (placement checked, request
 * decoded, provider resolved, start URL through the gates) without reading a page, the politeness it runs with,
 * the site's map as seeds (`fromMap`), and a plan run by the in-memory frontier.
 *
 * `CrawlJobs.layerMemory` runs each job's plan here; a shared-store engine (`@websearch/node`'s `CrawlJobsRedis`)
 * prepares the same plan from a job's stored request on any replica and runs its `step` and `admit` itself.
 *
 * @internal For the crawl-job engines of websearch's own packages; not part of the public API.
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { FetchUrls } from "../FetchUrls.js"
import type { ProviderRegistry } from "../ProviderRegistry.js"
import type { Settings } from "../Settings.js"
import * as SiteRequest from "../SiteRequest.js"
import type * as SiteResponse from "../SiteResponse.js"
import type { WebSearchError } from "../WebSearchError.js"
import * as CapabilityEnv from "./capabilityEnv.js"
import * as CrawlFrontier from "./crawlFrontier.js"
import * as Pipeline from "./pipeline.js"
import type { Env } from "./pipelineEnv.js"
import * as SiteRun from "./siteRun.js"

/**
 * A crawl engine's view of core.
 *
 * @since 0.2.0
 * @category models
 */
export interface Engine {
  readonly env: Env
  /** Decodes (a bad field fails naming it), resolves the provider and checks the start URL; reads nothing. */
  readonly prepare: (request: unknown) => Effect.Effect<SiteRun.Plan, WebSearchError>
  /** The request's politeness per host, or the defaults. */
  readonly politeness: (request: SiteRequest.CrawlSiteRequest) => {
    readonly concurrency: number
    readonly delay: number
  }
  /** The site's map as seeds at depth 1 (with `fromMap` and websearch's own frontier; none otherwise). */
  readonly seeds: (plan: SiteRun.Plan) => Effect.Effect<ReadonlyArray<string>>
  /** Runs a plan in this process, as `crawlSite` does: its events, ending with `CrawlDone`. */
  readonly run: (plan: SiteRun.Plan) => Stream.Stream<SiteResponse.CrawlEvent, WebSearchError>
}

/**
 * @since 0.2.0
 * @category models
 */
export type Plan = SiteRun.Plan

/**
 * @since 0.2.0
 * @category models
 */
export type StepOutcome = SiteRun.StepOutcome

/**
 * No skips: the counts a crawl starts from.
 *
 * @since 0.2.0
 * @category constants
 */
export const noSkips = SiteRun.noSkips

/**
 * A page answered 429 with a Retry-After a crawl can wait for (at most a minute): that wait in seconds.
 *
 * @since 0.2.0
 * @category utils
 */
export const retryAfter = SiteRun.retryAfter

/**
 * Why a crawl fails when its start page was not read: the page's own error, or its skip as an error.
 *
 * @since 0.2.0
 * @category errors
 */
export const startError = SiteRun.startError

/**
 * The engine over the application's settings, providers and `fetchUrls`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<Engine, never, Settings | ProviderRegistry | FetchUrls> = Effect.map(
  CapabilityEnv.make,
  (env): Engine => {
    const politeness: Engine["politeness"] = (request) => ({
      concurrency: request.concurrency ?? SiteRequest.defaultPoliteness.concurrency,
      delay: request.delay ?? SiteRequest.defaultPoliteness.delay
    })
    const seeds: Engine["seeds"] = (plan) => {
      const { request } = plan
      if (!request.fromMap || plan.method._tag !== "Own") return Effect.succeed([])
      return SiteRun.runMap(env, {
        providerId: plan.providerId,
        url: request.url,
        limit: Math.min(request.maxPages, SiteRequest.mapLimits.max),
        includeSubdomains: request.includeSubdomains,
        includePaths: request.includePaths,
        excludePaths: request.excludePaths
      }).pipe(
        Effect.map((map) => map.links.map((link) => link.url)),
        // The crawl goes on from its start page without the map; the log says why.
        Effect.catchAll((error) =>
          Effect.as(
            Effect.logWarning(`websearch's crawl of ${request.url} goes on without the map: ${error.message}`),
            []
          )
        )
      )
    }
    return {
      env,
      prepare: (request) =>
        Pipeline.checkPlacement(env).pipe(
          Effect.zipRight(SiteRequest.decodeCrawlSite(request)),
          Effect.flatMap((decoded) => SiteRun.prepare(env, decoded))
        ),
      politeness,
      seeds,
      run: (plan) =>
        Stream.unwrap(
          Effect.map(seeds(plan), (found) => {
            const polite = politeness(plan.request)
            return CrawlFrontier.run(plan, {
              concurrency: Math.max(env.settings.concurrency, polite.concurrency),
              politeness: polite,
              timeout: env.settings.timeouts.crawlSite,
              seeds: found
            })
          })
        )
    }
  }
)
