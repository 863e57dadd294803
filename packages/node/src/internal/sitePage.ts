/**
 * One page of a crawl (`crawlPage`): read by the same path as `fetchUrls` (`urlRead.ts`: robots.txt when respected,
 * each hop checked by the transport, extraction, page type, metadata), with redirects off the site refused at the
 * hop (`redirect_rejected`) and GitHub `blob` links read as they are (the raw file is on another host). Its links
 * (absolute, in document order, deduplicated, at most `PageLinks.maxLinks`) and canonical link are read from the
 * HTML the transport fetched, in one linear pass; a page of another kind has none.
 */
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as ContentKind from "@websearch/extract/internal/contentKind"
import * as Effect from "effect/Effect"
import type * as FetchCall from "./fetchCall.js"
import * as MarkupTokens from "./markupTokens.js"
import * as PageLinks from "./pageLinks.js"
import * as SiteRedirect from "./siteRedirect.js"
import type * as UrlRead from "./urlRead.js"

/** Reads one page of a crawl of `site`. */
export const crawl = (
  readUrl: UrlRead.ReadUrl,
  url: string,
  site: ProviderDriver.SiteScope,
  ctx: ProviderDriver.DriverContext<FetchCall.InstanceOptions>
): Effect.Effect<ProviderDriver.CrawledPage, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const { response, result } = yield* readUrl(url, ctx, {
      checkRedirect: SiteRedirect.check(site),
      rawBlobs: false
    })
    if (ContentKind.classify(response.headers["content-type"], response.body, response.url) !== "html") {
      return { result, links: [] }
    }
    const module = yield* Effect.promise(MarkupTokens.load)
    const page = PageLinks.parse(module, new TextDecoder().decode(response.body), response.url)
    yield* Effect.annotateCurrentSpan({ "websearch.crawl.links": page.links.length })
    return {
      result,
      links: page.links.map((link) => link.url),
      ...(page.canonical === undefined ? {} : { canonical: page.canonical })
    }
  }).pipe(Effect.withSpan("websearch.fetch.crawlPage", { captureStackTrace: false }))
