/**
 * A provider module for `WEBSEARCH_PROVIDER_MODULES` that maps and crawls a site served on loopback by the test:
 * each page of that site answers JSON (`{ title, content, links }`), `/map.json` lists the site's URLs. It reads
 * over real HTTP, and a fetch in flight is aborted when the crawl is interrupted, so the process tests see
 * `map` and `crawl` as a user would with any crawling provider.
 */
import * as Preset from "@websearch/core/Preset"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"

const preset = Preset.make({
  id: "sitecrawler",
  name: "Loopback site crawler",
  type: "local",
  credentials: "none",
  capabilities: [{ feature: "mapSite" }, { feature: "crawlSite" }]
})

interface Page {
  readonly title: string
  readonly content: string
  readonly links: ReadonlyArray<string>
}

const read = (url: string): Effect.Effect<unknown, WebSearchError.WebSearchError> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, { signal })
      if (!response.ok) throw new Error(`http_${response.status}`)
      return (await response.json()) as unknown
    },
    catch: (error) =>
      WebSearchError.requestFailed(
        String((error as Error).message).startsWith("http_404") ? "http_404" : "network",
        `${url} could not be read: ${(error as Error).message}`
      )
  })

export const layer = ProviderRegistry.register({
  preset,
  crawlPage: (url) =>
    Effect.map(read(url), (body) => {
      const page = body as Page
      return {
        result: { title: page.title, content: page.content, url },
        links: page.links.map((link) => new URL(link, url).href)
      }
    }),
  mapSite: (request) =>
    Effect.map(read(new URL("/map.json", request.url).href), (body) => ({
      links: (body as ReadonlyArray<string>).map((path) => ({
        url: new URL(path, request.url).href,
        source: "sitemap" as const
      })),
      cuts: []
    }))
})
