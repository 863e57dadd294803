/**
 * The provider registry of an application composing one stand-in driver per fixture preset, for tests of what
 * the settings (and the environment) resolve to: the registry is where overrides meet the composed providers,
 * when `WebSearch.layer` is built. Google, SearXNG and the local fetcher take their own options, as the real
 * modules do, so option decoding and the provider-specific variables are exercised in core.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { AnyProviderDriver } from "../../src/ProviderDriver.js"
import * as ProviderRegistry from "../../src/ProviderRegistry.js"
import * as Settings from "../../src/Settings.js"
import * as WebSearch from "../../src/WebSearch.js"
import type * as WebSearchError from "../../src/WebSearchError.js"
import * as Presets from "./presets.js"

const NonEmpty = Schema.Trim.pipe(Schema.minLength(1, { message: () => "must not be empty" }))

const variable = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map((value) => (Option.isSome(value) && value.value.trim() !== "" ? value.value : undefined))
  )

const flag = (name: string) => Config.option(Config.boolean(name)).pipe(Config.map(Option.getOrUndefined))

/** The options the stand-ins of providers that take some declare (shaped like the real modules'). */
const options: Readonly<Record<string, Pick<AnyProviderDriver, "options" | "optionsConfig">>> = {
  google: {
    options: Schema.Struct({ engineId: Schema.optional(NonEmpty) }),
    optionsConfig: Config.all({ engineId: variable("GOOGLE_ENGINE_ID") })
  },
  searxng: {
    options: Schema.Struct({ fetchResults: Schema.optional(Schema.Boolean) }),
    optionsConfig: Config.all({ fetchResults: flag("SEARXNG_FETCH_RESULTS") })
  },
  fetch: {
    options: Schema.Struct({
      userAgent: Schema.optional(Settings.HeaderText),
      respectRobotsTxt: Schema.optional(Schema.Boolean)
    }),
    optionsConfig: Config.all({
      userAgent: variable("FETCH_USER_AGENT"),
      respectRobotsTxt: flag("FETCH_RESPECT_ROBOTS_TXT")
    })
  }
}

/** One stand-in driver per fixture preset (no capability implemented: these tests never call them). */
export const drivers: ReadonlyArray<AnyProviderDriver> = Presets.all.map((preset) => ({
  preset,
  ...options[preset.id]
}))

/** The application of these drivers over a settings layer, exposing `Settings` too. */
export const layer = <E, R>(
  settings: Layer.Layer<Settings.Settings, E, R>,
  composed: ReadonlyArray<AnyProviderDriver> = drivers
): Layer.Layer<WebSearch.WebSearch | Settings.Settings, E | WebSearchError.Unavailable, R> =>
  WebSearch.layer(...composed.map((driver) => ProviderRegistry.register(driver))).pipe(Layer.provideMerge(settings))

/** The registry built from these drivers (and the given settings layer). */
export const fromLayer = <E, R>(
  settings: Layer.Layer<Settings.Settings, E, R>,
  composed: ReadonlyArray<AnyProviderDriver> = drivers
): Effect.Effect<ProviderRegistry.ProviderRegistry.Service, E | WebSearchError.Unavailable, R> =>
  Effect.provide(ProviderRegistry.ProviderRegistry, layer(settings, composed))

/** The registry for settings from code (or, with `environment: true`, the current ConfigProvider too). */
export const load = (
  input: unknown,
  makeOptions?: Settings.MakeOptions
): Effect.Effect<ProviderRegistry.ProviderRegistry.Service, WebSearchError.Unavailable> =>
  fromLayer(Layer.effect(Settings.Settings, Settings.make(input, makeOptions)))

/** The endpoint a resolved provider's capability has. */
export const apiHost = (
  registry: ProviderRegistry.ProviderRegistry.Service,
  id: string,
  feature: string
): string | undefined => registry.providers.get(id)?.capabilities.find((c) => c.feature === feature)?.apiHost
