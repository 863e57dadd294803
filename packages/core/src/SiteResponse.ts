/**
 * The answers of the two whole-site capabilities: a map's links, and a crawl's events (each page read, each page
 * that failed, then one closing summary). Nothing is cut silently: every limit a map or crawl reached is a `cut`.
 *
 * @since 0.2.0
 */
import * as Schema from "effect/Schema"
import { ProviderId } from "./ProviderId.js"
import { InputFailure } from "./WebSearchError.js"
import { WebSearchResult } from "./WebSearchResponse.js"

/**
 * Where a map found a URL: a sitemap (named by robots.txt or at `/sitemap.xml`), a feed, or a link of the start
 * page; `provider` for a hosted provider that does not say.
 *
 * @since 0.2.0
 * @category schemas
 */
export const SiteLinkSource = Schema.Literal("sitemap", "feed", "page", "provider")

/**
 * One URL of a site: where it was found, and its `lastmod` (sitemap) or date (feed) and title where known.
 *
 * @since 0.2.0
 * @category schemas
 */
export const SiteLink = Schema.Struct({
  url: Schema.String,
  source: SiteLinkSource,
  lastmod: Schema.optional(Schema.String),
  title: Schema.optional(Schema.String)
}).annotations({ identifier: "SiteLink" })

/**
 * @since 0.2.0
 * @category models
 */
export type SiteLink = typeof SiteLink.Type

/**
 * A limit a map or crawl reached, and what it left out: `limit` (the map's URL count), `sitemaps` (sitemap
 * files), `bytes` (bytes read), `depth`, `maxPages`, `timeout` (the capability's timeout), `interrupted`.
 *
 * @since 0.2.0
 * @category schemas
 */
export const SiteCut = Schema.Struct({
  reason: Schema.Literal("limit", "sitemaps", "bytes", "depth", "maxPages", "timeout", "interrupted"),
  message: Schema.String
}).annotations({ identifier: "SiteCut" })

/**
 * @since 0.2.0
 * @category models
 */
export type SiteCut = typeof SiteCut.Type

/**
 * A map: the site's URLs (deduplicated, filtered, ranked by `search` when given), the limits it reached, and the
 * sources that failed (a sitemap that did not answer: the map goes on without it).
 *
 * @since 0.2.0
 * @category schemas
 */
export const MapSiteResponse = Schema.Struct({
  providerId: ProviderId,
  url: Schema.String,
  links: Schema.Array(SiteLink),
  cuts: Schema.Array(SiteCut),
  failures: Schema.Array(InputFailure)
}).annotations({ identifier: "MapSiteResponse" })

/**
 * @since 0.2.0
 * @category models
 */
export type MapSiteResponse = typeof MapSiteResponse.Type

/**
 * One page a crawl read, at its depth (links from the start; absent when a hosted provider does not say);
 * `result.sourceInput` is the URL it was reached by, `result.url` where it ended after redirects.
 *
 * @since 0.2.0
 * @category schemas
 */
export class CrawlPage extends Schema.TaggedClass<CrawlPage>()("CrawlPage", {
  url: Schema.String,
  depth: Schema.optional(Schema.NonNegativeInt),
  result: WebSearchResult
}) {}

/**
 * One page a crawl could not read, with its typed failure (`failure.input` is its URL).
 *
 * @since 0.2.0
 * @category schemas
 */
export class CrawlFailure extends Schema.TaggedClass<CrawlFailure>()("CrawlFailure", {
  url: Schema.String,
  depth: Schema.optional(Schema.NonNegativeInt),
  failure: InputFailure
}) {}

// What a crawl left out without reading it, by why: off the site, excluded by a path pattern, a duplicate (by
// normalised URL or canonical link), beyond `maxDepth`, refused by the URL policy or blacklist, disallowed by
// robots.txt.
const CrawlSkipped = Schema.Struct({
  offSite: Schema.NonNegativeInt,
  excluded: Schema.NonNegativeInt,
  duplicate: Schema.NonNegativeInt,
  depth: Schema.NonNegativeInt,
  policy: Schema.NonNegativeInt,
  robots: Schema.NonNegativeInt
}).annotations({ identifier: "CrawlSkipped" })

/**
 * The crawl's last event: how many pages were read and failed, what was skipped and why, and the limits reached.
 *
 * @since 0.2.0
 * @category schemas
 */
export class CrawlDone extends Schema.TaggedClass<CrawlDone>()("CrawlDone", {
  providerId: ProviderId,
  url: Schema.String,
  pages: Schema.NonNegativeInt,
  failed: Schema.NonNegativeInt,
  /** What the crawl left out without reading it, by why (distinct URLs, up to 100,000 of them). */
  skipped: CrawlSkipped,
  cuts: Schema.Array(SiteCut)
}) {}

/**
 * One event of a crawl's stream: a page, a failed page, or the closing summary.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CrawlEvent = Schema.Union(CrawlPage, CrawlFailure, CrawlDone)

/**
 * @since 0.2.0
 * @category models
 */
export type CrawlEvent = typeof CrawlEvent.Type

/**
 * A whole crawl gathered (`CrawlSite.collect`): its pages and failures in the order they arrived, and its summary.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CrawlSiteResponse = Schema.Struct({
  pages: Schema.Array(CrawlPage),
  failures: Schema.Array(CrawlFailure),
  done: CrawlDone
}).annotations({ identifier: "CrawlSiteResponse" })

/**
 * @since 0.2.0
 * @category models
 */
export type CrawlSiteResponse = typeof CrawlSiteResponse.Type
