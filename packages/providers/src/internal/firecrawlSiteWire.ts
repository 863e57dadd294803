// The wire format of Firecrawl's whole-site endpoints (v2): `POST /v2/map`, `POST /v2/crawl`, `GET /v2/crawl/{id}`
// (paged by `next`), `GET /v2/crawl/{id}/errors` and `DELETE /v2/crawl/{id}`. What websearch sends, and how it
// reads the answers; see test/fixtures/hosted-site-apis.md for what is confirmed and what is assumed.
import * as SiteRequest from "@websearch/core/SiteRequest"
import * as Schema from "effect/Schema"
import * as AnswerFields from "./answerFields.js"
import { ScrapeMetadata } from "./firecrawlWire.js"
import * as HostedSite from "./hostedSite.js"

/**
 * The body of `POST /v2/map`. Firecrawl's map has no path filters (core applies them after the call), so with
 * patterns it is asked for websearch's most links, leaving the filter enough to choose from; `search` is its own
 * relevance order, which core's ranking then refines.
 */
export const mapBody = (request: SiteRequest.MapSiteRequest) => ({
  url: request.url,
  limit: request.includePaths.length > 0 || request.excludePaths.length > 0 ? SiteRequest.mapLimits.max : request.limit,
  includeSubdomains: request.includeSubdomains,
  sitemap: "include",
  ...(request.search === undefined ? {} : { search: request.search })
})

/**
 * The body of `POST /v2/crawl`: the whole site (`crawlEntireDomain`, not only the start URL's sub-paths), never
 * off it, `maxDepth` as discovery depth (the sitemap is skipped unless `fromMap`, so depth is link hops), the path
 * patterns as regular expressions, and the politeness as Firecrawl's `maxConcurrency` and `delay` (seconds).
 */
export const crawlBody = (request: SiteRequest.CrawlSiteRequest) => {
  const includePaths = HostedSite.pathRegexes(request.includePaths)
  const excludePaths = HostedSite.pathRegexes(request.excludePaths)
  return {
    url: request.url,
    limit: request.maxPages,
    maxDiscoveryDepth: request.maxDepth,
    crawlEntireDomain: true,
    allowSubdomains: request.includeSubdomains,
    allowExternalLinks: false,
    sitemap: request.fromMap ? "include" : "skip",
    ...(includePaths === undefined ? {} : { includePaths }),
    ...(excludePaths === undefined ? {} : { excludePaths }),
    ...(request.concurrency === undefined ? {} : { maxConcurrency: request.concurrency }),
    // Firecrawl's delay is in seconds and positive: no delay is sent as none.
    ...(request.delay === undefined || request.delay === 0 ? {} : { delay: request.delay / 1000 }),
    scrapeOptions: { formats: ["markdown"], onlyMainContent: true }
  }
}

const Envelope = {
  success: Schema.optional(Schema.NullOr(Schema.Boolean)),
  code: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  error: AnswerFields.OptionalText
}

/**
 * The answer of a map: v2 lists `{ url, title, description }`, v1 listed bare URLs; both are read.
 */
export const MapAnswer = Schema.Struct({
  ...Envelope,
  links: Schema.optional(
    Schema.NullOr(
      Schema.Array(
        Schema.Union(
          Schema.String,
          Schema.Struct({
            url: Schema.String,
            title: AnswerFields.OptionalText,
            description: AnswerFields.OptionalText
          })
        )
      )
    )
  )
})

/**
 * A crawl job's id as websearch accepts it into a path: Firecrawl's ids are UUIDs; anything else is refused.
 */
export const jobId = (id: string): string | undefined => (/^[A-Za-z0-9-]{1,100}$/.test(id) ? id : undefined)

/**
 * The answer of `POST /v2/crawl`: the job's id.
 */
export const CrawlStarted = Schema.Struct({ ...Envelope, id: Schema.optional(Schema.NullOr(Schema.String)) })

/**
 * One page of a crawl's results.
 */
export const CrawlDocument = Schema.Struct({
  markdown: AnswerFields.OptionalText,
  metadata: Schema.optional(Schema.NullOr(ScrapeMetadata))
})

/**
 * The states of a crawl job that end it.
 */
export const terminal: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"])

/**
 * The answer of `GET /v2/crawl/{id}` (and of its `next` pages): the job's status, its counts, the pages read so
 * far (a page of them) and the link to the next page.
 */
export const CrawlStatus = Schema.Struct({
  ...Envelope,
  status: Schema.String,
  total: AnswerFields.OptionalNumber,
  completed: AnswerFields.OptionalNumber,
  next: AnswerFields.OptionalText,
  data: Schema.optionalWith(Schema.NullOr(Schema.Array(CrawlDocument)), { default: () => [] })
})

/**
 * The answer of `GET /v2/crawl/{id}/errors`: the pages that failed, and those robots.txt kept Firecrawl from.
 */
export const CrawlErrors = Schema.Struct({
  ...Envelope,
  errors: Schema.optionalWith(
    Schema.NullOr(
      Schema.Array(
        Schema.Struct({
          id: AnswerFields.OptionalText,
          timestamp: AnswerFields.OptionalText,
          url: AnswerFields.OptionalText,
          error: AnswerFields.OptionalText
        })
      )
    ),
    { default: () => [] }
  ),
  robotsBlocked: Schema.optionalWith(Schema.NullOr(Schema.Array(Schema.String)), { default: () => [] })
})
