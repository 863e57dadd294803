/**
 * The package's own composition: every provider module carries a valid preset, `Providers.layer` composes all of
 * them and proposes DuckDuckGo for search, and each module's options schema refuses bad values when the
 * application starts, naming the field.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Preset from "@websearch/core/Preset"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Providers from "../src/Providers.js"
import * as Modules from "./support/modules.js"

/** The application with every provider of the package, over the given settings. */
const app = (settings: Layer.Layer<Settings.Settings, WebSearchError.Unavailable>) =>
  WebSearch.layer(Providers.layer).pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.provide(settings))

/** The registry the application starts with. */
const registryOf = (settings: Layer.Layer<Settings.Settings, WebSearchError.Unavailable>) =>
  ProviderRegistry.ProviderRegistry.pipe(Effect.provide(app(settings)))

/** The typed error a start-up failed with; fails the test on success or a defect. */
const startFailure = (settings: Layer.Layer<Settings.Settings, WebSearchError.Unavailable>) =>
  Effect.flatMap(Effect.exit(registryOf(settings)), (exit) =>
    Exit.isFailure(exit) && exit.cause._tag === "Fail"
      ? Effect.succeed(exit.cause.error)
      : Effect.die(new Error(`expected a start-up failure, got ${JSON.stringify(exit)}`))
  )

/** Settings read from the given variables, as from the process environment. */
const fromEnv = (env: Record<string, string>) =>
  Settings.layerConfig().pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromJson(env))))

describe("the provider modules' presets", () => {
  it("the module list of these tests is the package's: the ids Providers.layer registers", () => {
    expect(Modules.all.map((m) => m.providerId).sort()).toEqual([...Providers.ids].sort())
    expect(new Set(Providers.ids).size).toBe(Providers.ids.length)
  })

  it.each(Modules.all.map((m) => [m.providerId, m] as const))("%s's preset decodes with Preset.Preset", (id, m) => {
    const decoded = Schema.decodeUnknownEither(Preset.Preset, { onExcessProperty: "error" })(m.preset)
    expect(decoded._tag).toBe("Right")
    if (decoded._tag === "Right") expect(decoded.right).toEqual(m.preset)
    expect(m.preset.id).toBe(id)
    expect(m.preset.capabilities.length).toBeGreaterThan(0)
  })
})

describe("Providers.layer", () => {
  it.effect("composes every provider module, and proposes DuckDuckGo as the default search provider", () =>
    Effect.gen(function* () {
      const registry = yield* registryOf(Settings.layer({}))
      expect(registry.ids()).toEqual(Providers.ids)
      expect([...registry.providers.keys()].sort()).toEqual([...Providers.ids].sort())
      for (const m of Modules.all) {
        expect(registry.providers.get(m.providerId)).toMatchObject({
          id: m.preset.id,
          name: m.preset.name,
          capabilities: m.preset.capabilities
        })
      }
      expect(registry.defaults).toEqual({
        searchKeywords: "duckduckgo",
        fetchUrls: null,
        research: null,
        mapSite: null,
        crawlSite: null
      })
      const listed = registry.describe()
      expect(listed.map((p) => p.id)).toEqual(Providers.ids)
      expect(listed.filter((p) => p.defaultFor.length > 0).map((p) => [p.id, p.defaultFor])).toEqual([
        ["duckduckgo", ["searchKeywords"]]
      ])
    })
  )

  it.effect("the settings' default wins over the proposal, and `null` turns it off", () =>
    Effect.gen(function* () {
      const chosen = yield* registryOf(Settings.layer({ defaults: { searchKeywords: "tavily" } }))
      expect(chosen.defaults.searchKeywords).toBe("tavily")
      const none = yield* registryOf(Settings.layer({ defaults: { searchKeywords: null } }))
      expect(none.defaults.searchKeywords).toBeNull()
    })
  )
})

describe("the provider modules' options are decoded at start", () => {
  it.effect("an empty Google engineId fails the start with Unavailable/invalid_config naming the field", () =>
    Effect.gen(function* () {
      for (const engineId of ["", "   "]) {
        const error = yield* startFailure(Settings.layer({ providers: { google: { engineId } } }))
        expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
        expect(error.message).toMatch(/^invalid settings: providers\.google\.engineId: must not be empty/)
        expect(error.message).toMatch(/\(from code\)$/)
      }
      // A real id starts.
      const registry = yield* registryOf(Settings.layer({ providers: { google: { engineId: "cx-0001" } } }))
      expect(registry.providers.get("google")?.options).toEqual({ engineId: "cx-0001" })
    })
  )

  it.effect('SearXNG fetchResults "yes" fails the start naming providers.searxng.fetchResults', () =>
    Effect.gen(function* () {
      const error = yield* startFailure(Settings.layer({ providers: { searxng: { fetchResults: "yes" } } }))
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(error.message).toMatch(/^invalid settings: providers\.searxng\.fetchResults/)
      expect(error.message).toMatch(/\(from code\)$/)
      // The variable is read as a Config.boolean (true/false, yes/no, on/off, 1/0): anything else is refused.
      const fromVariable = yield* startFailure(fromEnv({ SEARXNG_FETCH_RESULTS: "maybe" }))
      expect(fromVariable).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(fromVariable.message).toBe(
        'invalid settings: SEARXNG_FETCH_RESULTS: Expected a boolean value but received "maybe" (from environment)'
      )
      const on = yield* registryOf(fromEnv({ SEARXNG_FETCH_RESULTS: "true" }))
      expect(on.providers.get("searxng")?.options).toEqual({ fetchResults: true })
    })
  )

  it.effect(
    "Firecrawl's crawlPollInterval is read from the settings and FIRECRAWL_CRAWL_POLL_INTERVAL, refused out of range",
    () =>
      Effect.gen(function* () {
        for (const crawlPollInterval of [0, 1.5, 60_001]) {
          const error = yield* startFailure(Settings.layer({ providers: { firecrawl: { crawlPollInterval } } }))
          expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
          expect(error.message).toMatch(/^invalid settings: providers\.firecrawl\.crawlPollInterval/)
        }
        const set = yield* registryOf(Settings.layer({ providers: { firecrawl: { crawlPollInterval: 250 } } }))
        expect(set.providers.get("firecrawl")?.options).toEqual({ crawlPollInterval: 250 })
        const fromVariable = yield* registryOf(fromEnv({ FIRECRAWL_CRAWL_POLL_INTERVAL: "500" }))
        expect(fromVariable.providers.get("firecrawl")?.options).toEqual({ crawlPollInterval: 500 })
      })
  )

  it.effect("an option the module does not take fails the start, naming providers.<id>.<field>", () =>
    Effect.gen(function* () {
      const error = yield* startFailure(Settings.layer({ providers: { tavily: { engineId: "x" } } }))
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(error.message).toContain('providers.tavily.engineId: Tavily takes no option "engineId"')
      const unknownField = yield* startFailure(Settings.layer({ providers: { google: { engine: "x" } } }))
      expect(unknownField.message).toContain("providers.google.engine")
    })
  )
})
