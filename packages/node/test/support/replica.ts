/**
 * One websearch "replica" for the shared-store tests: a counting search driver for a built-in preset, the
 * capability services over settings from code, and a shared-stores layer. Two replicas built with the same
 * Redis URL and prefix are what two server processes behind a load balancer would be.
 */
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

/** A search driver for `providerId` that records every input it is called with. */
export const countingDriver = (
  providerId: string,
  script: (input: string, call: number) => Outcome = (input) => results(input)
): { readonly driver: ProviderDriver; readonly calls: Array<string> } => {
  const preset = Preset.byId.get(providerId)
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

/** The capabilities over one driver and settings, merged with the given shared stores. */
export const layer = <E>(
  driver: ProviderDriver,
  settings: Settings.SettingsInput,
  stores: Layer.Layer<SharedStores, E>
): Layer.Layer<WebSearch.WebSearch | SharedStores, E | WebSearchError.Unavailable> =>
  Layer.merge(
    ProviderRegistry.register(driver).pipe(
      Layer.provideMerge(WebSearch.layer),
      Layer.provideMerge(Settings.layer(settings))
    ),
    stores
  )
