/**
 * The local fetcher composed the way an application composes it (`WebSearch.layer(Fetch.layerWith(...), ...)`),
 * for the tests of its settings: the registry it starts with, the failure it refuses to start with, and settings
 * read from an environment of the test's own.
 */
import * as Preset from "@websearch/core/Preset"
import type { ProviderDriver } from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Fetch from "../../src/Fetch.js"

/**
 * A remote reader with no options of its own (Jina's shape: this package does not depend on the providers),
 * composed beside the local fetcher to show that the fetcher's options are the fetcher's alone. Never called.
 */
export const remoteReader: ProviderDriver = {
  preset: Preset.make({
    id: "jina",
    name: "Jina",
    type: "api",
    credentials: "optional",
    capabilities: [{ feature: "fetchUrls", apiHost: "https://r.jina.ai" }]
  }),
  fetchUrls: () => Effect.die(new Error("the remote reader is never called in these tests"))
}

/** Settings read from the given variables, as `Settings.layerConfig()` reads the process environment. */
export const fromEnv = (
  variables: Record<string, string>
): Layer.Layer<Settings.Settings, WebSearchError.Unavailable> =>
  Settings.layerConfig().pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(variables)))))
  )

/**
 * Settings from a document, with the per-provider variables read from the given ones (as `Settings.make(input,
 * { environment: true })` reads the process environment): for a test that must allow loopback, which no
 * variable does.
 */
export const documentWithEnv = (
  input: Settings.SettingsInput,
  variables: Record<string, string>
): Layer.Layer<Settings.Settings, WebSearchError.Unavailable> =>
  Layer.effect(Settings.Settings, Settings.make(input, { source: "test document", environment: true })).pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(variables)))))
  )

/** The application: the local fetcher (no worker threads) and the remote reader, over the given settings. */
export const layer = (
  settings: Layer.Layer<Settings.Settings, WebSearchError.Unavailable>,
  options: Fetch.Options = {}
): Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable> =>
  WebSearch.layer(Fetch.layerWith({ workers: false, ...options }), ProviderRegistry.register(remoteReader)).pipe(
    Layer.provideMerge(settings)
  )

/** The registry the application starts with. */
export const registry = (
  settings: Layer.Layer<Settings.Settings, WebSearchError.Unavailable>
): Effect.Effect<ProviderRegistry.ProviderRegistry.Service, WebSearchError.Unavailable> =>
  Effect.provide(ProviderRegistry.ProviderRegistry, layer(settings))

/** The error the application refuses to start with; dies (failing the test) when it starts. */
export const startFailure = (
  settings: Layer.Layer<Settings.Settings, WebSearchError.Unavailable>
): Effect.Effect<WebSearchError.Unavailable> =>
  Effect.flatMap(Effect.exit(registry(settings)), (exit) =>
    Exit.isFailure(exit) && exit.cause._tag === "Fail"
      ? Effect.succeed(exit.cause.error)
      : Effect.die(new Error(`expected the application to refuse to start, got ${JSON.stringify(exit)}`))
  )
