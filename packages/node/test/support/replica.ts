/**
 * One websearch "replica" for the shared-store tests: a counting search driver for a preset of these tests, the
 * capability services over settings from code, and a shared-stores layer. Two replicas built with the same
 * Redis URL and prefix are what two server processes behind a load balancer would be.
 */
import type * as Composition from "@websearch/core/Composition"
import * as Preset from "@websearch/core/Preset"
import type { DriverResult, ProviderDriver } from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { SharedStores } from "../../src/SharedStores.js"

/** What a driver call does for an input: succeed with results, or fail. */
export type Outcome =
  | { readonly _tag: "Results"; readonly results: ReadonlyArray<DriverResult> }
  | { readonly _tag: "Error"; readonly error: WebSearchError.WebSearchError }

export const results = (input: string, count = 2): Outcome => ({
  _tag: "Results",
  results: Array.from({ length: count }, (_, i) => ({
    title: `${input} — result ${i + 1} ✓`,
    content: `Content ${i + 1} for ${input}: naïve café, 日本語, emoji 🎉, "quotes" and \\ backslashes.`,
    url: `https://results.example/${encodeURIComponent(input)}/${i + 1}`
  }))
})

export const failure = (error: WebSearchError.WebSearchError): Outcome => ({ _tag: "Error", error })

// Core names no provider: the keyless search presets these tests use, as test data (DuckDuckGo's shape).
const presets: ReadonlyMap<string, Preset.Preset> = new Map(
  [
    Preset.make({
      id: "duckduckgo",
      name: "DuckDuckGo",
      type: "api",
      credentials: "none",
      capabilities: [{ feature: "searchKeywords", apiHost: "https://html.duckduckgo.com" }]
    })
  ].map((preset) => [preset.id, preset])
)

/** A search driver for `providerId` that records every input it is called with. */
export const countingDriver = (
  providerId: string,
  script: (input: string, call: number) => Outcome = (input) => results(input)
): { readonly driver: ProviderDriver; readonly calls: Array<string> } => {
  const preset = presets.get(providerId)
  if (preset === undefined) throw new Error(`no preset ${providerId}`)
  const calls: Array<string> = []
  const driver: ProviderDriver = {
    preset,
    searchKeywords: (input) =>
      Effect.suspend(() => {
        calls.push(input)
        const outcome = script(input, calls.length)
        return outcome._tag === "Results" ? Effect.succeed(outcome.results) : Effect.fail(outcome.error)
      })
  }
  return { driver, calls }
}

/**
 * The capabilities over one driver (proposed as the default search provider) and settings, with the given shared
 * stores composed as a part.
 */
export const layer = <E>(
  driver: ProviderDriver,
  settings: Settings.SettingsInput,
  stores: Layer.Layer<SharedStores, E, Composition.Composition>
): Layer.Layer<WebSearch.WebSearch | SharedStores, E | WebSearchError.Unavailable> =>
  WebSearch.layer(
    ProviderRegistry.register(driver),
    ProviderRegistry.proposeDefaults("test replica", { searchKeywords: driver.preset.id }),
    stores
  ).pipe(Layer.provide(Settings.layer(settings)))

/** Composes a part alone over settings from code: for a part whose start-up is under test. */
export const alone = <A, E>(
  part: Layer.Layer<A, E, Composition.Composition>
): Layer.Layer<WebSearch.WebSearch | A, E | WebSearchError.Unavailable> =>
  WebSearch.layer(part).pipe(Layer.provide(Settings.layer({})))
