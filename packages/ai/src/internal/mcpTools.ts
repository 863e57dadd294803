/**
 * What the MCP server needs to know of each tool: its text form, the capability behind it, and which tools a client
 * is shown (a tool whose capability cannot run as configured is left out, so a model never picks it in vain).
 */
import * as LanguageModel from "@effect/ai/LanguageModel"
import type { Capability } from "@websearch/core/Capability"
import { CrawlSite } from "@websearch/core/CrawlSite"
import * as Check from "@websearch/core/internal/resolution/check"
import { MapSite } from "@websearch/core/MapSite"
import type { ProviderDriver } from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ToolOutput from "../ToolOutput.js"

export const capabilityOf = {
  web_search: "searchKeywords",
  web_fetch: "fetchUrls",
  web_research: "research",
  web_map: "mapSite",
  web_crawl: "crawlSite"
} as const

export type ToolName = keyof typeof capabilityOf

export const render = (name: string, output: unknown): string => {
  switch (name) {
    case "web_search":
      return ToolOutput.renderSearch(output as ToolOutput.SearchOutput)
    case "web_fetch":
      return ToolOutput.renderFetch(output as ToolOutput.FetchOutput)
    case "web_map":
      return ToolOutput.renderMap(output as ToolOutput.MapOutput)
    case "web_crawl":
      return ToolOutput.renderCrawl(output as ToolOutput.CrawlOutput)
    default:
      return ToolOutput.renderResearch(output as ToolOutput.ResearchOutput)
  }
}

// Whether a call naming no provider could run the capability: a default provider, composed, implementing it, with its
// key and endpoint (a model leaves providerId out unless the user names one). Nothing is called.
const runs = (
  registry: Option.Option<ProviderRegistry.ProviderRegistry.Service>,
  capability: Capability,
  method: (driver: ProviderDriver) => unknown
) =>
  Option.match(registry, {
    // Without the registry in context there is no telling: the tool is listed, as before.
    onNone: () => Effect.succeed(true),
    onSome: (service) =>
      Check.resolve({ registry: service }, undefined, capability, method).pipe(
        Effect.match({ onFailure: () => false, onSuccess: () => true })
      )
  })

/**
 * Which tools a client is shown: `web_research`, `web_map` and `web_crawl` only when a call that names no provider
 * could run (and, for the last two, the application composes their services), and `web_fetch`'s `prompt` only when
 * a language model is there to answer it.
 */
export const offered = Effect.gen(function* () {
  const registry = yield* Effect.serviceOption(ProviderRegistry.ProviderRegistry)
  const model = yield* Effect.serviceOption(LanguageModel.LanguageModel)
  const mapComposed = Option.isSome(yield* Effect.serviceOption(MapSite))
  const crawlComposed = Option.isSome(yield* Effect.serviceOption(CrawlSite))
  return {
    web_research: yield* runs(registry, "research", (driver) => driver.research),
    web_map: mapComposed && (yield* runs(registry, "mapSite", (driver) => driver.mapSite)),
    web_crawl: crawlComposed && (yield* runs(registry, "crawlSite", (driver) => driver.crawlPage ?? driver.crawlSite)),
    analysis: Option.isSome(model)
  }
})
