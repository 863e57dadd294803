/**
 * A provider module for `WEBSEARCH_PROVIDER_MODULES` whose search answers with the search options it was called
 * with (as JSON in the one result's content), so a process test sees what the command line's flags put in the
 * request. It declares every option, so none is refused before the call.
 */
import * as Preset from "@websearch/core/Preset"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Effect from "effect/Effect"

const preset = Preset.make({
  id: "searxng",
  name: "Options echo",
  type: "api",
  credentials: "none",
  capabilities: [{ feature: "searchKeywords" }]
})

export const layer = ProviderRegistry.register({
  preset,
  searchOptions: ["timeRange", "includeDomains", "excludeDomains", "language", "country", "safeSearch", "topic"],
  searchKeywords: (keyword, ctx) =>
    Effect.succeed([
      {
        title: `Options for ${keyword}`,
        // On the first included domain, so the request's domain filter keeps the answer.
        url: `https://${ctx.searchOptions.includeDomains?.[0] ?? "echo.example"}/`,
        content: JSON.stringify(ctx.searchOptions)
      }
    ])
})
