/**
 * The local fetcher's map of a site (`mapSite`): the sitemaps its robots.txt names (else `/sitemap.xml`), sitemap
 * indexes followed breadth-first, gzipped sitemaps decompressed up to a cap, the RSS/Atom feeds its start page
 * announces, and the start page's links, in that order. Every request goes through the safe transport (each hop
 * checked) and stays on the site (a sitemap or feed elsewhere is not read, a redirect off the site is refused).
 *
 * Bounded, and every bound reached is a cut: sitemap files read and their nesting (`sitemaps`), bytes read after
 * decompression (`bytes`), links collected (`limit`, a multiple of the request's limit: core filters, deduplicates
 * and cuts after). A source that fails is a failure with its URL; the map goes on. The map fails only when it found
 * nothing and its start page failed.
 */
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as SiteScopes from "@websearch/core/internal/siteScope"
import type * as SiteRequest from "@websearch/core/SiteRequest"
import type * as SiteResponse from "@websearch/core/SiteResponse"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as ContentKind from "@websearch/extract/internal/contentKind"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as BoundedGunzip from "./boundedGunzip.js"
import type * as FetchCall from "./fetchCall.js"
import * as HttpStatus from "./httpStatus.js"
import * as MarkupTokens from "./markupTokens.js"
import * as PageLinks from "./pageLinks.js"
import * as RobotsTxt from "./robotsTxt.js"
import * as SiteFeeds from "./siteFeeds.js"
import * as SiteRedirect from "./siteRedirect.js"
import * as TransportError from "./transportError.js"
import type * as TransportModel from "./transportModel.js"

/** The bounds of one map. */
export interface Bounds {
  /** Sitemap files read (indexes included). */
  readonly maxSitemaps: number
  /** How deep sitemap indexes are followed (a sitemap named by robots.txt is at depth 0). */
  readonly maxDepth: number
  /** Bytes of sitemaps and feeds read, after decompression, all together. */
  readonly maxBytes: number
  /** Bytes of one gzipped file after decompression. */
  readonly maxFileBytes: number
  /** Feeds read from the start page's announcements. */
  readonly maxFeeds: number
  /** Links collected: the request's limit times this, at most `maxLinks`. */
  readonly linkFactor: number
  readonly maxLinks: number
}

/** The bounds of a map unless a test says otherwise. */
export const defaultBounds: Bounds = {
  maxSitemaps: 50,
  maxDepth: 3,
  maxBytes: 64 * 1024 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  maxFeeds: 5,
  linkFactor: 10,
  maxLinks: 50_000
}

/** What a map reads with: the transport, and the call's headers and robots.txt check. */
export interface Deps {
  readonly transport: TransportModel.Transport
  readonly call: FetchCall.Call
}

const xmlAccept =
  "application/xml,text/xml;q=0.9,application/rss+xml;q=0.9,application/atom+xml;q=0.9,application/gzip;q=0.8,*/*;q=0.5"

type Failure = readonly [url: string, error: WebSearchError.WebSearchError]

/** Maps the site of `request.url`. */
export const map = (
  deps: Deps,
  request: SiteRequest.MapSiteRequest,
  bounds: Bounds = defaultBounds
): Effect.Effect<ProviderDriver.MapSiteOutput, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const module = yield* Effect.promise(MarkupTokens.load)
    const scope = SiteScopes.of(request.url, request.includeSubdomains)
    const origin = new URL(request.url).origin
    const room = Math.max(1, Math.min(bounds.maxLinks, request.limit * bounds.linkFactor))
    const links: Array<SiteResponse.SiteLink> = []
    const cuts: Array<SiteResponse.SiteCut> = []
    const failures: Array<Failure> = []
    const cut = (reason: SiteResponse.SiteCut["reason"], message: string) => {
      if (!cuts.some((known) => known.reason === reason)) cuts.push({ reason, message })
    }
    const add = (link: SiteResponse.SiteLink): boolean => {
      if (links.length >= room) {
        cut("limit", `${room} links were collected; the rest of the site's sitemaps, feeds and links were not read`)
        return false
      }
      links.push(link)
      return true
    }
    let bytes = 0
    const get = (url: string, accept: string) =>
      deps.transport
        .request({
          url,
          headers: { ...deps.call.headers, accept },
          checkRedirect: SiteRedirect.check(scope)
        })
        .pipe(Effect.flatMap(HttpStatus.ensureOk))

    // A sitemap or feed, read within the bytes left and parsed; its cuts are the map's.
    const source = (url: string, max: number) =>
      Effect.gen(function* () {
        const left = bounds.maxBytes - bytes
        if (left <= 0) {
          cut("bytes", `${bounds.maxBytes} bytes of sitemaps and feeds were read; the rest were not`)
          return undefined
        }
        const response = yield* get(url, xmlAccept)
        let body = response.body
        let truncated = false
        if (BoundedGunzip.isGzip(body)) {
          const gunzipped = yield* BoundedGunzip.gunzip(body, Math.min(bounds.maxFileBytes, left), url)
          body = gunzipped.bytes
          truncated = gunzipped.truncated
        } else if (body.length > left) {
          body = body.subarray(0, left)
          truncated = true
        }
        bytes += body.length
        if (truncated) {
          cut("bytes", `a sitemap or feed was longer than the bytes left to read; its first ${body.length} were read`)
        }
        const parsed = SiteFeeds.parse(module, new TextDecoder().decode(body), response.url, max)
        if (parsed.kind === "unknown") {
          return yield* WebSearchError.responseInvalid(
            "parse_failed",
            `${TransportError.describe(url)} answered with something that is not a sitemap or a feed`
          )
        }
        return parsed
      })

    const fail = (url: string) => (error: WebSearchError.WebSearchError) =>
      Effect.sync(() => {
        failures.push([url, error])
        return undefined
      })

    // 1. robots.txt's Sitemap lines, else /sitemap.xml (whose absence is no failure: most sites have none).
    const robots = yield* Effect.either(get(`${origin}/robots.txt`, "text/plain"))
    const named =
      robots._tag === "Right"
        ? RobotsTxt.sitemaps(new TextDecoder().decode(robots.right.body.subarray(0, RobotsTxt.maxParsedBytes)))
        : []
    if (robots._tag === "Left" && !isAbsent(robots.left)) failures.push([`${origin}/robots.txt`, robots.left])
    const roots = named.filter((url) => SiteRedirect.onSite(scope, url))
    const guessed = roots.length === 0
    if (guessed) roots.push(`${origin}/sitemap.xml`)

    // 2. Sitemaps, breadth-first through their indexes.
    const seen = new Set<string>(roots)
    let level = roots
    let read = 0
    for (let depth = 0; level.length > 0 && links.length < room; depth++) {
      if (depth > bounds.maxDepth) {
        cut("sitemaps", `sitemap indexes nested deeper than ${bounds.maxDepth} were not followed`)
        break
      }
      if (read + level.length > bounds.maxSitemaps) {
        cut("sitemaps", `${bounds.maxSitemaps} sitemap files were read; the others were not`)
        level = level.slice(0, Math.max(0, bounds.maxSitemaps - read))
      }
      read += level.length
      const parsed = yield* Effect.forEach(
        level,
        (url) =>
          source(url, Math.max(room - links.length, bounds.maxSitemaps) + 1).pipe(
            // A guessed /sitemap.xml that is missing, or a page that is not a sitemap (a soft 404), is no failure.
            Effect.catchAll((error) =>
              guessed && (isAbsent(error) || error.reason === "parse_failed")
                ? Effect.succeed(undefined)
                : fail(url)(error)
            )
          ),
        { concurrency: 4 }
      )
      const next: Array<string> = []
      for (const document of parsed) {
        if (document === undefined) continue
        if (document.kind === "sitemapindex") {
          if (document.truncated) cut("sitemaps", "a sitemap index lists more sitemaps than are read")
          for (const entry of document.entries) {
            // No more sitemaps are kept than can still be read: the rest would only be held to be cut.
            if (next.length >= bounds.maxSitemaps - read) {
              cut("sitemaps", `${bounds.maxSitemaps} sitemap files were read; the others were not`)
              break
            }
            if (!seen.has(entry.url) && SiteRedirect.onSite(scope, entry.url)) {
              seen.add(entry.url)
              next.push(entry.url)
            }
          }
          continue
        }
        for (const entry of document.entries) if (!add({ ...entry, source: linkSource(document.kind) })) break
        if (document.truncated) cut("limit", `${room} links were collected; the rest of a sitemap was not read`)
      }
      level = next
    }

    // 3. The start page: its links, and the feeds it announces (robots.txt obeyed when respected); not read when
    // the sitemaps already filled the map.
    const page =
      links.length >= room
        ? Either.right<PageLinks.PageLinks>({ links: [], feeds: [], truncated: false })
        : yield* Effect.either(startPage(deps, module, request.url, scope))
    if (page._tag === "Left") failures.push([request.url, page.left])
    const feeds = page._tag === "Right" ? page.right.feeds.filter((url) => SiteRedirect.onSite(scope, url)) : []
    for (const url of feeds.slice(0, bounds.maxFeeds)) {
      if (links.length >= room) break
      const feed = yield* source(url, room - links.length + 1).pipe(Effect.catchAll(fail(url)))
      if (feed === undefined) continue
      for (const entry of feed.entries) if (!add({ ...entry, source: "feed" })) break
    }
    if (page._tag === "Right") {
      for (const link of page.right.links) if (!add({ ...link, source: "page" })) break
      if (page.right.truncated) cut("limit", `the start page has more than ${PageLinks.maxLinks} links`)
    }
    if (links.length === 0 && page._tag === "Left") return yield* page.left
    yield* Effect.annotateCurrentSpan({ "websearch.map.links": links.length, "websearch.map.sitemaps": read })
    return { links, cuts, failures }
  }).pipe(Effect.withSpan("websearch.fetch.map", { captureStackTrace: false }))

const linkSource = (kind: SiteFeeds.Kind): SiteResponse.SiteLink["source"] => (kind === "feed" ? "feed" : "sitemap")

// A file that is not there: a 404 or 410 (any 4xx but 429), which for a guessed /sitemap.xml or robots.txt is no
// failure of the map.
const isAbsent = (error: WebSearchError.WebSearchError): boolean =>
  error._tag === "RequestFailed" &&
  (error.reason === "http_404" || error.reason === "http_403" || error.reason === "http_status")

/** The start page read for its links: HTML only (another kind has none to read). */
const startPage = (
  deps: Deps,
  module: MarkupTokens.Module,
  url: string,
  scope: ProviderDriver.SiteScope
): Effect.Effect<PageLinks.PageLinks, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    if (deps.call.robots !== undefined) yield* deps.call.robots(url)
    const response = yield* deps.transport
      .request({ url, headers: deps.call.headers, checkRedirect: SiteRedirect.check(scope) })
      .pipe(Effect.flatMap(HttpStatus.ensureOk))
    if (ContentKind.classify(response.headers["content-type"], response.body, response.url) !== "html") {
      return { links: [], feeds: [], truncated: false }
    }
    return PageLinks.parse(module, new TextDecoder().decode(response.body), response.url)
  })
