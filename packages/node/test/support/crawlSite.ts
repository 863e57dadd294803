/**
 * A site in memory for the crawl-job tests: a provider (`crawlPage`) per replica that records what it fetched,
 * when each read started and which reads were interrupted, with optional latency and pages that never answer; and
 * the capability services over it.
 */
import * as Preset from "@websearch/core/Preset"
import type { CrawledPage, ProviderDriver } from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export const origin = "https://site.example"

export interface SitePage {
  readonly links?: ReadonlyArray<string>
  readonly redirectTo?: string
  readonly canonical?: string
}

/** A site in memory read by one replica's provider, which records what it fetched. */
export const siteDriver = (
  site: (path: string) => SitePage | undefined,
  behaviour: { readonly delay?: number; readonly hang?: (path: string) => boolean } = {}
) => {
  const fetched: Array<string> = []
  const starts: Array<number> = []
  const interrupted: Array<string> = []
  const crawlPage = (url: string): Effect.Effect<CrawledPage, WebSearchError.WebSearchError> =>
    Effect.suspend(() => {
      const path = new URL(url).pathname
      fetched.push(path)
      starts.push(Date.now())
      if (behaviour.hang?.(path) === true) {
        return Effect.onInterrupt(Effect.never, () => Effect.sync(() => interrupted.push(path)))
      }
      const page = site(path)
      const answer: Effect.Effect<CrawledPage, WebSearchError.WebSearchError> =
        page === undefined
          ? Effect.fail(WebSearchError.requestFailed("http_404", `${url} answered 404`))
          : Effect.succeed({
              result: {
                title: `Page ${path}`,
                content: `Content of ${path}`,
                url: page.redirectTo === undefined ? url : new URL(page.redirectTo, url).href
              },
              links: (page.links ?? []).map((link) => new URL(link, url).href),
              ...(page.canonical === undefined ? {} : { canonical: new URL(page.canonical, url).href })
            })
      return behaviour.delay === undefined ? answer : Effect.delay(answer, behaviour.delay)
    })
  const driver: ProviderDriver = {
    crawlPage,
    preset: Preset.make({
      id: "sitecrawler",
      name: "Site crawler",
      type: "local",
      credentials: "none",
      capabilities: [{ feature: "crawlSite" }]
    })
  }
  return { driver, fetched, starts, interrupted }
}

/** `/` links to `/p/1..3`, `/p/N` to `/p/3N+1..3N+3`, up to `size` pages. */
export const tree =
  (size: number) =>
  (path: string): SitePage | undefined => {
    const n = path === "/" ? 0 : Number(path.slice(3))
    if (!(path === "/" || (path.startsWith("/p/") && n >= 1 && n <= size))) return undefined
    return {
      links: [1, 2, 3]
        .map((i) => n * 3 + i)
        .filter((m) => m <= size)
        .map((m) => `/p/${m}`)
    }
  }

export const services = (driver: ProviderDriver, settings: Settings.SettingsInput = {}) =>
  WebSearch.layer(ProviderRegistry.register(driver)).pipe(
    Layer.provideMerge(Settings.layer({ defaults: { crawlSite: "sitecrawler" }, ...settings }))
  )
