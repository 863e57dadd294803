/**
 * The request contracts of the two whole-site capabilities: `mapSite` (the URLs of a site, without reading its
 * pages) and `crawlSite` (its pages, read as `fetchUrls` reads them, breadth-first from a start URL).
 *
 * A site is the start URL's host (its subdomains too with `includeSubdomains`). Path patterns (`includePaths`,
 * `excludePaths`) are written as robots.txt writes them: they start with `/`, `*` matches any run of characters, a
 * trailing `$` anchors the end, anything else matches as a prefix of the path with its query. A URL is kept when
 * no include pattern is given or one matches, and no exclude pattern matches.
 *
 * @since 0.2.0
 */
import type * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Paging from "./internal/paging.js"
import { decodeWith } from "./internal/requestDecoding.js"
import { ProviderId } from "./ProviderId.js"
import * as UrlPolicy from "./UrlPolicy.js"
import type * as WebSearchError from "./WebSearchError.js"

/**
 * The most URLs one map answers with, and the default.
 *
 * @since 0.2.0
 * @category constants
 */
export const mapLimits = { max: 5_000, default: 100 } as const

/**
 * The most pages one crawl reads and how deep it goes, with the defaults: small, since a model's crawl is read
 * by a model.
 *
 * @since 0.2.0
 * @category constants
 */
export const crawlLimits = {
  maxPages: 10_000,
  defaultPages: 10,
  maxDepth: 10,
  defaultDepth: 2,
  maxConcurrency: 16,
  maxDelay: 60_000
} as const

/**
 * The most path patterns of each kind, and the longest one.
 *
 * @since 0.2.0
 * @category constants
 */
export const patternLimits = { count: 20, length: 200 } as const

// Control characters and white space never appear in a path pattern; refusing them keeps a pattern printable.
const printable = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x20 || code === 0x7f) return false
  }
  return true
}

// One path pattern: starts with `/`, at most 200 characters, no white space or control characters.
const PathPattern = Schema.String.pipe(
  Schema.filter(
    (pattern) =>
      (pattern.startsWith("/") && pattern.length <= patternLimits.length && printable(pattern)) ||
      `a path pattern starts with "/", has no spaces and is at most ${patternLimits.length} characters (got "${pattern.slice(0, 40)}")`
  )
).annotations({ identifier: "PathPattern" })

const patterns = (field: string) =>
  Schema.optionalWith(
    Schema.Array(PathPattern).pipe(
      Schema.maxItems(patternLimits.count, { message: () => `at most ${patternLimits.count} ${field}` })
    ),
    { default: () => [] }
  )

// A site's start URL: http(s), no user name or password, normalised (WHATWG serialisation).
const SiteUrl = Schema.transformOrFail(Schema.String.pipe(Schema.maxLength(8192)), Schema.String, {
  strict: true,
  decode: (raw, _, ast) =>
    Either.match(UrlPolicy.parseHttpUrl(raw), {
      onLeft: (error) => ParseResult.fail(new ParseResult.Type(ast, raw, error.message)),
      onRight: (url) => ParseResult.succeed(url.href)
    }),
  encode: ParseResult.succeed
}).annotations({ identifier: "SiteUrl" })

const int = (field: string, min: number, max: number) =>
  Schema.Int.pipe(Schema.between(min, max, { message: () => `${field} is an integer from ${min} to ${max}` }))

/**
 * A `mapSite` request: the site's URLs from its robots.txt `Sitemap:` lines, its sitemaps (indexes and gzipped
 * ones too), its feeds and the start page's links, deduplicated, filtered and, with `search`, ranked by it.
 *
 * @since 0.2.0
 * @category schemas
 */
export const MapSiteRequest = Schema.Struct({
  providerId: Schema.optional(ProviderId),
  url: SiteUrl,
  /** Ranks the URLs by this term (best first) instead of keeping the order they were found in. */
  search: Schema.optional(
    Schema.Trim.pipe(
      Schema.minLength(1, { message: () => "search must not be empty" }),
      Schema.maxLength(200, { message: () => "search must be at most 200 characters" })
    )
  ),
  limit: Schema.optionalWith(int("limit", 1, mapLimits.max), { default: () => mapLimits.default }),
  includeSubdomains: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  includePaths: patterns("includePaths"),
  excludePaths: patterns("excludePaths")
}).annotations({ identifier: "MapSiteRequest" })

/**
 * @since 0.2.0
 * @category models
 */
export type MapSiteRequest = typeof MapSiteRequest.Type

/**
 * A `crawlSite` request: pages read breadth-first from `url` (or from the site's map with `fromMap`), at most
 * `maxPages` of them and `maxDepth` links away from the start. `concurrency` and `delay` are the politeness per
 * host (pages in flight, milliseconds between two requests); a provider that cannot honour one refuses it.
 * `maxLength` cuts each page's content as `fetchUrls`' does (the rest is read with `web_fetch`'s paging).
 *
 * @since 0.2.0
 * @category schemas
 */
export const CrawlSiteRequest = Schema.Struct({
  providerId: Schema.optional(ProviderId),
  url: SiteUrl,
  maxPages: Schema.optionalWith(int("maxPages", 1, crawlLimits.maxPages), { default: () => crawlLimits.defaultPages }),
  maxDepth: Schema.optionalWith(int("maxDepth", 0, crawlLimits.maxDepth), { default: () => crawlLimits.defaultDepth }),
  includeSubdomains: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  includePaths: patterns("includePaths"),
  excludePaths: patterns("excludePaths"),
  /** Starts from the site's map (its sitemaps, feeds and start page's links, as depth 1) as well as the start URL. */
  fromMap: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  concurrency: Schema.optional(int("concurrency", 1, crawlLimits.maxConcurrency)),
  delay: Schema.optional(int("delay", 0, crawlLimits.maxDelay)),
  maxLength: Schema.optional(Paging.MaxLength)
}).annotations({ identifier: "CrawlSiteRequest" })

/**
 * @since 0.2.0
 * @category models
 */
export type CrawlSiteRequest = typeof CrawlSiteRequest.Type

/**
 * The politeness of the local crawler when a request sets none: two pages in flight per host, 100 ms apart.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultPoliteness = { concurrency: 2, delay: 100 } as const

/**
 * Decodes a `mapSite` request; fails with `RequestFailed/invalid_input` naming the field at fault.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeMapSite: (request: unknown) => Effect.Effect<MapSiteRequest, WebSearchError.RequestFailed> =
  decodeWith(MapSiteRequest, "mapSite", [
    ["includePaths", "path patterns", patternLimits.count],
    ["excludePaths", "path patterns", patternLimits.count]
  ])

/**
 * Decodes a `crawlSite` request; fails with `RequestFailed/invalid_input` naming the field at fault.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeCrawlSite: (request: unknown) => Effect.Effect<CrawlSiteRequest, WebSearchError.RequestFailed> =
  decodeWith(CrawlSiteRequest, "crawlSite", [
    ["includePaths", "path patterns", patternLimits.count],
    ["excludePaths", "path patterns", patternLimits.count]
  ])
