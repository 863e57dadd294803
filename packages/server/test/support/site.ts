/**
 * A scripted whole-site provider for the map and crawl routes: a site of `size` pages in memory (`/` links to
 * `/p/1..3`, `/p/N` to `/p/3N+1..3N+3`), mapped from its page list and crawled one page at a time (`crawlPage`),
 * with every call recorded and, optionally, a gate the pages below the start wait on (to hold a crawl running).
 */
import * as Preset from "@websearch/core/Preset"
import type { CrawledPage, ProviderDriver } from "@websearch/core/ProviderDriver"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"

/** The site's origin. */
export const origin = "https://site.example"

/** What the site's provider saw. */
export interface Recorded {
  readonly pages: Array<string>
  readonly interrupted: Array<string>
  maps: number
}

/** The provider of a site of `size` pages; pages below the start wait on `gate` when given. */
export const siteDriver = (
  size: number,
  gate?: Deferred.Deferred<void>
): { readonly driver: ProviderDriver; readonly recorded: Recorded } => {
  const recorded: Recorded = { pages: [], interrupted: [], maps: 0 }
  const linksOf = (n: number) =>
    [1, 2, 3]
      .map((i) => n * 3 + i)
      .filter((m) => m <= size)
      .map((m) => `${origin}/p/${m}`)
  const crawlPage = (url: string): Effect.Effect<CrawledPage, WebSearchError.WebSearchError> =>
    Effect.suspend(() => {
      recorded.pages.push(url)
      const path = new URL(url).pathname
      const n = path === "/" ? 0 : Number(path.slice(3))
      const page: Effect.Effect<CrawledPage, WebSearchError.WebSearchError> =
        path === "/" || (path.startsWith("/p/") && n >= 1 && n <= size)
          ? Effect.succeed({ result: { title: `Page ${path}`, content: `Content of ${path}`, url }, links: linksOf(n) })
          : Effect.fail(WebSearchError.requestFailed("http_404", `${url} answered 404`))
      const gated = gate === undefined || path === "/" ? page : Effect.zipRight(Deferred.await(gate), page)
      return gated.pipe(Effect.onInterrupt(() => Effect.sync(() => recorded.interrupted.push(url))))
    })
  const driver: ProviderDriver = {
    preset: Preset.make({
      id: "sitecrawler",
      name: "Site crawler",
      type: "local",
      credentials: "none",
      capabilities: [{ feature: "mapSite" }, { feature: "crawlSite" }]
    }),
    mapSite: (request) =>
      Effect.sync(() => {
        recorded.maps++
        const links = Array.from({ length: size }, (_, i) => ({
          url: `${origin}/p/${i + 1}`,
          source: "sitemap" as const
        }))
        return { links: [{ url: request.url, source: "page" as const }, ...links], cuts: [] }
      }),
    crawlPage
  }
  return { driver, recorded }
}

/** The settings that make the site's provider the default for both capabilities. */
export const defaults = { mapSite: "sitecrawler", crawlSite: "sitecrawler" } as const
