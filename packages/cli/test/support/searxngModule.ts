/**
 * A provider module for `WEBSEARCH_PROVIDER_MODULES`, as a user would write one: it registers a driver for the
 * `searxng` preset that queries the configured endpoint's JSON API (`SEARXNG_API_HOST`; in tests a local mock).
 */
import * as Preset from "@websearch/core/Preset"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

interface SearxResult {
  readonly title: string
  readonly url: string
  readonly content?: string
}

const preset = Preset.make({
  id: "searxng",
  name: "SearXNG",
  type: "api",
  credentials: "none",
  capabilities: [{ feature: "searchKeywords" }]
})

export const layer = ProviderRegistry.register({
  preset,
  searchKeywords: (keyword, ctx) =>
    Effect.gen(function* () {
      const host = Option.getOrElse(ctx.apiHost, () => "")
      const url = `${host.replace(/\/$/, "")}/search?format=json&q=${encodeURIComponent(keyword)}`
      const response = yield* Effect.tryPromise({
        try: (signal) => fetch(url, { signal }),
        catch: (error) => WebSearchError.requestFailed("network", `SearXNG did not answer: ${String(error)}`)
      })
      if (!response.ok) {
        return yield* Effect.fail(
          WebSearchError.requestFailed(
            response.status >= 500 ? "http_5xx" : "http_status",
            `SearXNG answered ${response.status}`
          )
        )
      }
      const body = yield* Effect.tryPromise({
        try: () => response.json() as Promise<{ readonly results: ReadonlyArray<SearxResult> }>,
        catch: () => WebSearchError.responseInvalid("decode_failed", "SearXNG answered with something other than JSON")
      })
      return body.results.map((r) => ({ title: r.title, url: r.url, content: r.content ?? "" }))
    })
})
