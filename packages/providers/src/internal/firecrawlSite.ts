/**
 * Firecrawl's whole-site map and crawl. The crawl is a job: started with `POST /v2/crawl`, polled with
 * `GET /v2/crawl/{id}` (each answer a page of the results so far, paged by `next`), its failed pages read from
 * `GET /v2/crawl/{id}/errors` when it ends, and cancelled with `DELETE /v2/crawl/{id}` when the stream stops before
 * the job did (interrupted, cut at `maxPages`, or failed on a poll), so a stopped crawl spends no more credits.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import type * as SiteRequest from "@websearch/core/SiteRequest"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as ProviderHttp from "../ProviderHttp.js"
import { pageRefusal, unsuccessful } from "./firecrawlWire.js"
import {
  CrawlErrors,
  type CrawlDocument,
  CrawlStarted,
  CrawlStatus,
  crawlBody,
  jobId,
  MapAnswer,
  mapBody,
  terminal
} from "./firecrawlSiteWire.js"
import * as Http from "./providerHttp.js"
import * as Fields from "./resultFields.js"
import * as HostedSite from "./hostedSite.js"

/** How long a poll waits by default before asking again, and how long a cancellation may take. */
export const defaults = { pollInterval: Duration.seconds(2), cancelTimeout: Duration.seconds(5) } as const

const firstText = (value: string | ReadonlyArray<string> | null | undefined): string | undefined =>
  typeof value === "string" ? value : value?.find((v) => v.trim() !== "")

/** A call's context for one page of the crawl: its errors name the page, not the start URL. */
const pageCall = (c: Http.Call, url: string): Http.Call => ({ ...c, input: url })

/** The map: one call; links without an http(s) URL are dropped (and logged), titles kept where Firecrawl has them. */
export const map = (
  client: HttpClient.HttpClient,
  c: Http.Call,
  request: SiteRequest.MapSiteRequest
): Effect.Effect<ProviderDriver.MapSiteOutput, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const { answer, body } = yield* ProviderHttp.postJson(client, c, {
      path: "/v2/map",
      body: mapBody(request),
      schema: MapAnswer
    })
    if (body.success === false) return yield* Effect.fail(Http.failure(c, unsuccessful(body, answer.status)))
    return yield* HostedSite.providerLinks(
      c,
      (body.links ?? []).map((item) => (typeof item === "string" ? { url: item } : item))
    )
  })

/** One crawled document as an item: a page, a page Firecrawl could not read, or nothing (no usable URL). */
const itemOf = (c: Http.Call, document: typeof CrawlDocument.Type): ProviderDriver.CrawlItem | undefined => {
  const metadata = document.metadata ?? undefined
  const url = Fields.httpUrl(metadata?.sourceURL) ?? Fields.httpUrl(metadata?.url)
  if (url === undefined) return undefined
  const page = pageCall(c, url)
  const statusCode = metadata?.statusCode
  if (typeof statusCode === "number" && statusCode >= 400) {
    return { _tag: "Failed", url, error: Http.failure(page, pageRefusal(statusCode, metadata?.error)) }
  }
  const content = Fields.tidy(document.markdown ?? "")
  if (content === "") return { _tag: "Failed", url, error: Http.empty(page) }
  const final = Fields.httpUrl(metadata?.url) ?? url
  return { _tag: "Page", url, result: Fields.page(url, { title: firstText(metadata?.title), content, url: final }) }
}

interface Progress {
  readonly seen: Set<string>
  pages: number
  failed: number
  /** The job reached an end state: nothing to cancel. */
  ended: boolean
}

/** Takes the items not seen yet, at most `maxPages` pages and as many failures. */
const fresh = (
  progress: Progress,
  maxPages: number,
  items: ReadonlyArray<ProviderDriver.CrawlItem | undefined>
): Array<ProviderDriver.CrawlItem> => {
  const out: Array<ProviderDriver.CrawlItem> = []
  for (const item of items) {
    if (item === undefined || progress.seen.has(item.url)) continue
    if (item._tag === "Page" ? progress.pages >= maxPages : progress.failed >= maxPages) continue
    progress.seen.add(item.url)
    if (item._tag === "Page") progress.pages++
    else progress.failed++
    out.push(item)
  }
  return out
}

interface Cursor {
  /** The path polled next: the job's, or a `next` page of it. */
  readonly path: string
  /** Whether to wait before polling: not when the last answer brought new items and a next page. */
  readonly wait: boolean
}

/** The failed pages of an ended job, from its errors endpoint; robots.txt refusals as `robots_disallowed`. */
const failures = (
  client: HttpClient.HttpClient,
  c: Http.Call,
  id: string
): Effect.Effect<ReadonlyArray<ProviderDriver.CrawlItem | undefined>, WebSearchError.WebSearchError> =>
  Effect.map(ProviderHttp.getJson(client, c, { path: `/v2/crawl/${id}/errors`, schema: CrawlErrors }), ({ body }) => [
    ...(body.errors ?? []).map((e): ProviderDriver.CrawlItem | undefined => {
      const url = Fields.httpUrl(e.url)
      if (url === undefined) return undefined
      const said = e.error === null || e.error === undefined ? "" : `: ${Http.providerText(c, e.error)}`
      const error = Http.requestFailed(
        pageCall(c, url),
        "http_status",
        `${c.providerName} could not read the page${said}`
      )
      return { _tag: "Failed", url, error }
    }),
    ...(body.robotsBlocked ?? []).map((raw): ProviderDriver.CrawlItem | undefined => {
      const url = Fields.httpUrl(raw)
      return url === undefined
        ? undefined
        : {
            _tag: "Failed",
            url,
            error: Http.requestFailed(pageCall(c, url), "robots_disallowed", `the site's robots.txt disallows the page`)
          }
    })
  ])

const cancel = (client: HttpClient.HttpClient, c: Http.Call, id: string): Effect.Effect<void> =>
  HostedSite.deleteWithKey(client, c, `/v2/crawl/${id}`).pipe(
    Effect.interruptible,
    Effect.timeoutFail({
      duration: defaults.cancelTimeout,
      onTimeout: () => Http.requestFailed(c, "timeout", "the cancellation did not answer in time")
    }),
    Effect.matchCauseEffect({
      onFailure: (cause) =>
        Effect.logDebug(`websearch ${c.providerId} could not cancel crawl job ${id}`, cause).pipe(
          Effect.annotateLogs({ providerId: c.providerId, input: c.input })
        ),
      onSuccess: () => Effect.void
    })
  )

/**
 * The crawl as a stream: the job started when the stream is, each new page emitted once, the job's per-page
 * failures when it ends. A job that failed or was cancelled ends the stream with a typed error only when it read
 * no page; otherwise the pages it read stand.
 */
export const crawl = (
  client: HttpClient.HttpClient,
  c: Http.Call,
  request: SiteRequest.CrawlSiteRequest,
  pollInterval: Duration.Duration
): Stream.Stream<ProviderDriver.CrawlItem, WebSearchError.WebSearchError> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/v2/crawl",
        body: crawlBody(request),
        schema: CrawlStarted
      })
      if (body.success === false) return yield* Effect.fail(Http.failure(c, unsuccessful(body, answer.status)))
      const id = jobId(body.id ?? "")
      if (id === undefined) return yield* Effect.fail(Http.invalid(c, "started a crawl without a usable job id"))
      const endpoint = yield* Http.endpoint(c)
      const progress: Progress = { seen: new Set(), pages: 0, failed: 0, ended: false }
      // Whatever stops the stream before the job ended (interruption, the page limit, a failed poll) cancels it.
      yield* Effect.addFinalizer(() => (progress.ended ? Effect.void : cancel(client, c, id)))
      const jobPath = `/v2/crawl/${id}`
      const poll = (
        cursor: Cursor
      ): Effect.Effect<
        readonly [Chunk.Chunk<ProviderDriver.CrawlItem>, Option.Option<Cursor>],
        WebSearchError.WebSearchError
      > =>
        Effect.gen(function* () {
          if (cursor.wait) yield* Effect.sleep(pollInterval)
          const { answer, body } = yield* ProviderHttp.getJson(client, c, { path: cursor.path, schema: CrawlStatus })
          if (body.success === false) return yield* Effect.fail(Http.failure(c, unsuccessful(body, answer.status)))
          const documents = body.data ?? []
          const items = fresh(
            progress,
            request.maxPages,
            documents.map((d) => itemOf(c, d))
          )
          if (progress.pages >= request.maxPages) {
            progress.ended = terminal.has(body.status)
            return [Chunk.fromIterable(items), Option.none()] as const
          }
          const next = HostedSite.nextPath(endpoint, body.next)
          // Only a next page of this job is followed; while it brings pages it is read at once.
          const ofThisJob = next === jobPath || next?.startsWith(`${jobPath}?`) || next?.startsWith(`${jobPath}/`)
          if (next !== undefined && ofThisJob === true && documents.length > 0) {
            return [Chunk.fromIterable(items), Option.some({ path: next, wait: items.length === 0 })] as const
          }
          if (!terminal.has(body.status))
            return [Chunk.fromIterable(items), Option.some({ ...cursor, wait: true })] as const
          progress.ended = true
          // The pages read stand even when the list of failed ones cannot be had: that is logged, not raised.
          const listed = yield* failures(client, c, id).pipe(
            Effect.catchAll((error) =>
              Effect.as(
                Effect.logWarning(
                  `websearch ${c.providerId} could not list the failed pages of crawl job ${id}`,
                  error
                ),
                []
              )
            )
          )
          const failed = fresh(progress, request.maxPages, listed)
          if (body.status !== "completed" && progress.pages === 0) {
            const said = body.error === null || body.error === undefined ? "" : `: ${Http.providerText(c, body.error)}`
            return yield* Effect.fail(
              Http.requestFailed(c, "http_status", `${c.providerName}'s crawl job ${body.status} without a page${said}`)
            )
          }
          return [Chunk.fromIterable([...items, ...failed]), Option.none()] as const
        })
      return Stream.paginateChunkEffect({ path: jobPath, wait: true } as Cursor, poll)
    })
  )
