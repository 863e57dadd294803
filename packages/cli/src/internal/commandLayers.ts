/**
 * The Layers a command composes besides its settings: the provider Layers (with the local fetcher's worker options
 * of a one-shot command or a server), the search and fetch commands' cache in front of the Ctrl-C recorder, and the
 * servers' shared stores. Each module is imported when a command first builds its Layers, so `--help`, `--version`
 * and usage errors start without them.
 */
import * as Blacklist from "@websearch/core/internal/blacklist"
import * as Composition from "@websearch/core/Composition"
import * as ResultCache from "@websearch/core/ResultCache"
import * as Settings from "@websearch/core/Settings"
import type * as Fetch from "@websearch/node/Fetch"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Cli from "./cli.js"
import * as Live from "./live.js"
import type * as Recorder from "./recorder.js"

/** A command that answers a list of results: `search` or `fetch`. */
export type ListCommand = Extract<Cli.Command, { _tag: "Search" | "Fetch" }>

// `ProviderStoreSql.keyVariable`, named here so the store's module is not loaded for every command.
const storeKeyVariable = "WEBSEARCH_PROVIDER_STORE_KEY"

// The provider Layers with the local fetcher's worker options (see Main's `providers`).
export const compose = (workers: Fetch.WorkerOptions | undefined): Live.Providers =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const settings = yield* Settings.Settings
      const [Fetch, Providers, ProxyHttpClient] = yield* Effect.promise(() =>
        Promise.all([
          import("@websearch/node/Fetch"),
          import("@websearch/providers/Providers"),
          import("@websearch/node/ProxyHttpClient")
        ])
      )
      // The Chromium renderer is loaded (and Chromium started, on the first page) only when rendering is asked for:
      // by the settings, or possibly by a stored provider instance of the `fetch` type (a provider store is set).
      const render = yield* Fetch.renderMode(settings)
      const stored = yield* Effect.orElseSucceed(Config.option(Config.nonEmptyString(storeKeyVariable)), Option.none)
      const BrowserRenderer =
        render === "never" && Option.isNone(stored)
          ? undefined
          : yield* Effect.promise(() => import("@websearch/node/BrowserRenderer"))
      const fetch = Fetch.layerWith(workers === undefined ? undefined : { workers })
      // In catalogue order: the remote providers (through their proxyUrl, or HTTPS_PROXY/HTTP_PROXY/NO_PROXY),
      // then the local fetcher.
      return Composition.sequence(
        Providers.layer.pipe(Layer.provide(ProxyHttpClient.layer())),
        BrowserRenderer === undefined ? fetch : fetch.pipe(Layer.provide(BrowserRenderer.layerConfig()))
      )
    })
  )

// One-shot commands extract a page of up to 64 KiB (the worker threshold) on the main thread, within a second,
// rather than start an extraction worker for it (`Fetch.WorkerOptions.inlineMillis`); a slower one, a bigger one or
// a PDF goes to a worker. The servers (`mcp`, `serve`) keep every page off their event loop.
export const oneShot: Live.Providers = compose({ inlineMillis: 1000 })

// Search and fetch: the Ctrl-C recorder in front of the persistent cache, when the settings turn it on and
// `--no-cache` is not given. The settings document is read again here (it is small) to learn `cache.persistent`.
export const cacheStores = (
  command: ListCommand,
  env: Readonly<Record<string, string | undefined>>,
  recorder: Recorder.Recorder
): Live.Stores =>
  ResultCache.layerScoped(
    Effect.gen(function* () {
      // What Ctrl-C prints honours the blacklist and allowlist, as the finished request would have.
      const settings = yield* Settings.Settings
      recorder.keep((url) => Blacklist.isAllowed(settings.filter, url))
      const input = yield* Effect.orElseSucceed(Live.settingsInput(command, env), () => ({}) as Settings.SettingsInput)
      if (command.noCache === true || input.cache?.persistent !== true) return recorder.serviceOver(undefined)
      const PersistentCache = yield* Effect.promise(() => import("./persistentCache.js"))
      const inner = yield* PersistentCache.make(PersistentCache.directory(env))
      return recorder.serviceOver(inner)
    })
  )

export const sharedStores: Live.Stores = Layer.unwrapEffect(
  Effect.map(
    Effect.promise(() => import("@websearch/node/SharedStores")),
    (SharedStores) => SharedStores.layerConfig()
  )
)
