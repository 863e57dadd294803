/**
 * `web_map` and `web_crawl`: a site's URLs, and its pages read breadth-first, for a model. Small by default and
 * bounded below the library's limits (a model reads what they return). Neither returns whole pages: a crawl gives,
 * per page, a session id, its URL, title, length and a short fenced excerpt, and keeps the page in the session's
 * store as the parts `web_fetch` serves, so reading a crawled page with `web_fetch` (by id, in parts) needs no
 * second fetch while the session keeps it.
 */
import * as Tool from "@effect/ai/Tool"
import type { CrawlSite } from "@websearch/core/CrawlSite"
import * as Paging from "@websearch/core/internal/paging"
import type { MapSite } from "@websearch/core/MapSite"
import * as SiteRequest from "@websearch/core/SiteRequest"
import type * as SiteResponse from "@websearch/core/SiteResponse"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { WebSearchResult } from "@websearch/core/WebSearchResponse"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as ToolOutput from "../ToolOutput.js"
import * as Failures from "./failures.js"
import * as Fence from "./fence.js"
import * as ModelSchema from "./modelSchema.js"
import * as ResultIds from "./resultIds.js"
import * as SessionPages from "./sessionPages.js"
import { providerId, readOnlyWeb } from "./toolParts.js"

/** The bounds of the tools: smaller than the library's, since a model reads what they return. */
export const siteToolLimits = {
  mapDefault: 50,
  mapMax: 500,
  crawlDefault: SiteRequest.crawlLimits.defaultPages,
  crawlMax: 50,
  depthDefault: SiteRequest.crawlLimits.defaultDepth
} as const

/**
 * How long one `web_crawl` call reads: MCP clients commonly give a call 60 seconds, so a crawl answers before that
 * with the pages read so far and a `timeout` cut, rather than let the client give up on the whole call.
 */
export const crawlToolTimeout = Duration.seconds(45)

/** The characters of each crawled page's excerpt. */
const excerptLength = 300

const siteUrl = Schema.String.pipe(Schema.maxLength(8192)).annotations(
  ModelSchema.describe(
    "The site's start URL (http or https), or the id of a source from an earlier result in this conversation (w1, w2, ...)"
  )
)

const int = (name: string, min: number, max: number, text: string) =>
  Schema.optional(
    Schema.Int.pipe(
      Schema.between(min, max, { message: () => `${name} is an integer from ${min} to ${max}` })
    ).annotations(ModelSchema.describe(text))
  )

const patterns = (name: string, text: string) =>
  Schema.optional(
    Schema.Array(Schema.String.pipe(Schema.maxLength(SiteRequest.patternLimits.length)))
      .pipe(Schema.maxItems(SiteRequest.patternLimits.count, { message: () => `at most 20 ${name}` }))
      .annotations(ModelSchema.describe(text))
  )

export const WebMapTool = ModelSchema.tool(
  Tool.make("web_map", {
    description:
      "List the URLs of one website without reading its pages (from its sitemaps, feeds and start page links), " +
      "to find the pages worth reading, e.g. every pricing or docs page. Returns URLs with ids (w1, w2, ...); read " +
      "a page with web_fetch by its id. Give search to rank the URLs by a term.",
    parameters: {
      providerId,
      url: siteUrl,
      search: Schema.optional(
        Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations(
          ModelSchema.describe("Optional: rank the URLs by this term (best first), e.g. pricing")
        )
      ),
      limit: int(
        "limit",
        1,
        siteToolLimits.mapMax,
        `Most URLs to return, 1-${siteToolLimits.mapMax} (default ${siteToolLimits.mapDefault})`
      )
    },
    success: ToolOutput.MapOutput,
    failure: WebSearchError.WebSearchError,
    failureMode: "return"
  })
)
  .annotate(Tool.Title, "Web map")
  .annotateContext(readOnlyWeb)

export const WebCrawlTool = ModelSchema.tool(
  Tool.make("web_crawl", {
    description:
      "Read several pages of one website breadth-first from a start URL, following its links on the same site. " +
      "Returns per page an id (w1, w2, ...), URL, title, length and a short excerpt, never the whole page: read a " +
      "page in full with web_fetch by its id (no second download). Use web_map first when you only need URLs; use " +
      "includePaths to stay in one section (e.g. /docs/).",
    parameters: {
      providerId,
      url: siteUrl,
      maxPages: int(
        "maxPages",
        1,
        siteToolLimits.crawlMax,
        `Most pages to read, 1-${siteToolLimits.crawlMax} (default ${siteToolLimits.crawlDefault})`
      ),
      maxDepth: int(
        "maxDepth",
        0,
        SiteRequest.crawlLimits.maxDepth,
        `Most links away from the start, 0-${SiteRequest.crawlLimits.maxDepth} (default ${siteToolLimits.depthDefault}; 0 reads the start page only)`
      ),
      includePaths: patterns(
        "includePaths",
        'Optional: only pages whose path matches one of these patterns, e.g. ["/docs/"]: each starts with /, * matches any run, a final $ anchors the end'
      ),
      excludePaths: patterns("excludePaths", 'Optional: no page whose path matches one of these, e.g. ["/blog/"]')
    },
    success: ToolOutput.CrawlOutput,
    failure: WebSearchError.WebSearchError,
    failureMode: "return"
  })
)
  .annotate(Tool.Title, "Web crawl")
  .annotateContext(readOnlyWeb)

/** What the handlers need from the toolkit session. */
export interface Deps {
  readonly map: Option.Option<MapSite.Service>
  readonly crawl: Option.Option<CrawlSite.Service>
  readonly ids: ResultIds.ResultIds
  /** Keeps a crawled page as `web_fetch`'s parts, up to a number of characters. */
  readonly keepParts: (page: WebSearchResult, budget: number) => void
}

// The characters of crawled pages one crawl keeps for `web_fetch`: a quarter of a session's store, shared by its
// pages (each keeps at least its first part), so a crawl never evicts everything else the session read.
const keptChars = SessionPages.defaultMaxSessionBytes / 8

const stopped = `web_crawl stops reading after ${Duration.format(crawlToolTimeout)}; the pages read until then are listed`

const absent = (capability: "mapSite" | "crawlSite") =>
  WebSearchError.unavailable(
    "unsupported_capability",
    `${capability} is not composed in this application: no site can be ${capability === "mapSite" ? "mapped" : "crawled"}`,
    { capability }
  )

// The start URL as given, or the URL an id of this session names.
const startUrl = (ids: ResultIds.ResultIds, url: string) =>
  ResultIds.isId(url)
    ? Effect.map(
        ids.lookup(url.trim()),
        Option.getOrElse(() => url)
      )
    : Effect.succeed(url)

const cuts = (list: ReadonlyArray<SiteResponse.SiteCut>) =>
  list.map((cut) => ({ reason: cut.reason, message: Fence.oneLine(cut.message) }))

const excerpt = (result: WebSearchResult): string =>
  Fence.untrusted(result.url, Paging.page(result.content, { startIndex: 0, maxLength: excerptLength }).content)

export const make = ({ crawl, ids, keepParts, map }: Deps) => {
  const webMap = (params: typeof WebMapTool.parametersSchema.Type) =>
    Effect.gen(function* () {
      if (Option.isNone(map)) return yield* Effect.fail(absent("mapSite"))
      const response = yield* map.value.mapSite({
        url: yield* startUrl(ids, params.url),
        limit: params.limit ?? siteToolLimits.mapDefault,
        ...(params.search === undefined ? {} : { search: params.search }),
        ...(params.providerId === undefined ? {} : { providerId: params.providerId })
      })
      const assigned = yield* ids.assign(response.links.map((link) => link.url))
      const links = response.links.map((link, i) => ({
        id: assigned[i],
        url: Fence.oneLine(link.url),
        source: link.source,
        ...(link.lastmod === undefined ? {} : { lastmod: Fence.oneLine(link.lastmod, 40) }),
        ...(link.title === undefined ? {} : { title: Fence.oneLine(link.title, Fence.maxTitleLength) })
      }))
      return {
        providerId: response.providerId,
        url: Fence.oneLine(response.url),
        links,
        cuts: cuts(response.cuts),
        failures: response.failures.map((f) => ({ input: Fence.oneLine(f.input), ...Failures.failure(f) })),
        nextSteps: [
          links.length === 0
            ? "No URL was found: read the start page with web_fetch and follow its links, or use web_search with includeDomains."
            : `Read the pages you need with web_fetch by id, e.g. items: [{"url": "${links[0].id}"}]; do not read them all.`,
          ...(response.cuts.length > 0 ? ["The list was cut (see the limits): narrow it with search if needed."] : []),
          Failures.untrustedNote
        ].join(" ")
      } satisfies ToolOutput.MapOutput
    })

  const webCrawl = (params: typeof WebCrawlTool.parametersSchema.Type) =>
    Effect.gen(function* () {
      if (Option.isNone(crawl)) return yield* Effect.fail(absent("crawlSite"))
      const events = yield* Stream.runCollect(
        crawl.value
          .crawlSite({
            url: yield* startUrl(ids, params.url),
            maxPages: params.maxPages ?? siteToolLimits.crawlDefault,
            maxDepth: params.maxDepth ?? siteToolLimits.depthDefault,
            includePaths: params.includePaths ?? [],
            excludePaths: params.excludePaths ?? [],
            ...(params.providerId === undefined ? {} : { providerId: params.providerId })
          })
          .pipe(Stream.interruptAfter(crawlToolTimeout))
      )
      const read: Array<SiteResponse.CrawlPage> = []
      const failed: Array<SiteResponse.CrawlFailure> = []
      let done: SiteResponse.CrawlDone | undefined
      for (const event of Chunk.toReadonlyArray(events)) {
        if (event._tag === "CrawlPage") read.push(event)
        else if (event._tag === "CrawlFailure") failed.push(event)
        else done = event
      }
      const share = Math.floor(keptChars / Math.max(1, read.length))
      for (const page of read) keepParts(page.result, share)
      const assigned = yield* ids.assign(read.map((page) => page.result.url))
      const pages = read.map((page, i) => ({
        id: assigned[i],
        url: Fence.oneLine(page.result.url),
        title: Fence.oneLine(page.result.title, Fence.maxTitleLength),
        ...(page.depth === undefined ? {} : { depth: page.depth }),
        length: page.result.totalLength ?? page.result.content.length,
        excerpt: excerpt(page.result)
      }))
      return {
        providerId: done?.providerId ?? params.providerId ?? "unknown",
        url: Fence.oneLine(done?.url ?? params.url),
        pages,
        failures: failed.map((f) => ({
          input: Fence.oneLine(f.url),
          ...(f.depth === undefined ? {} : { depth: f.depth }),
          ...Failures.failure(f.failure)
        })),
        skipped: { ...(done?.skipped ?? {}) },
        cuts: done === undefined ? [{ reason: "timeout", message: stopped }] : cuts(done.cuts),
        nextSteps: [
          pages.length === 0
            ? "No page was read: see the failures; read the start page with web_fetch, or use web_search with includeDomains."
            : `Read a page in full with web_fetch by its id, e.g. items: [{"url": "${pages[0].id}"}]; long pages come in parts. Cite pages by id.`,
          ...(failed.length > 0 ? ["Do not retry a page whose failure is not retryable."] : []),
          ...(done === undefined || done.cuts.length > 0
            ? ["The crawl reached a limit (see the limits): the site has more."]
            : []),
          Failures.untrustedNote
        ].join(" ")
      } satisfies ToolOutput.CrawlOutput
    })

  return { webMap, webCrawl }
}
