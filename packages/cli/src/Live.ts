/**
 * Builds what a command runs on: the settings (a file or the environment, with the command line's allowlist laid
 * over them) and the capability services with the provider Layers this binary composes.
 *
 * @since 0.1.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import type * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Cli from "./Cli.js"
import * as ProviderModules from "./ProviderModules.js"

/**
 * The provider Layers a command composes.
 *
 * @since 0.1.0
 * @category models
 */
export type Providers = Layer.Layer<never, never, ProviderRegistry.ProviderRegistry | Settings.Settings>

/**
 * The settings document a command runs with: the file named by `--config` or `WEBSEARCH_CONFIG` (with the
 * environment laid over it), else the environment alone; `--allow-host` and `--allow-cidr` add to its allowlist,
 * `--render` sets the local fetcher's rendering mode.
 *
 * @since 0.1.0
 * @category constructors
 */
export const settingsInput = (
  common: Cli.CommonOptions,
  env: Readonly<Record<string, string | undefined>>
): Effect.Effect<Settings.SettingsInput, WebSearchError.Unavailable> => {
  const file = common.config ?? env.WEBSEARCH_CONFIG
  const base =
    file === undefined || file === ""
      ? Settings.fromConfig
      : Settings.readFile(file).pipe(
          Effect.flatMap((document) =>
            // A malformed file is reported as it is, before the environment could mask the bad value.
            Effect.zipRight(
              Settings.make(document, file),
              Effect.map(Settings.fromConfig, (e) => Settings.merge(document, e))
            )
          ),
          Effect.provide(NodeFileSystem.layer)
        )
  const render = common.render
  // `--render` wins over the file and the environment for the local fetcher.
  const rendered =
    render === undefined
      ? base
      : Effect.map(base, (input) => Settings.merge(input, { providers: { fetch: { render } } }))
  if (common.allowHosts.length === 0 && common.allowCidrs.length === 0) return rendered
  // The flags add to the configured allowlist; `merge` would replace the lists.
  return Effect.map(rendered, (input) => ({
    ...input,
    urlPolicy: {
      ...input.urlPolicy,
      allowHosts: [...(input.urlPolicy?.allowHosts ?? []), ...common.allowHosts],
      allowCidrs: [...(input.urlPolicy?.allowCidrs ?? []), ...common.allowCidrs]
    }
  }))
}

const source = (common: Cli.CommonOptions, env: Readonly<Record<string, string | undefined>>): string => {
  const file = common.config ?? env.WEBSEARCH_CONFIG
  return file === undefined || file === "" ? "environment" : `${file} and environment`
}

/**
 * The settings Layer of a command.
 *
 * @since 0.1.0
 * @category layers
 */
export const settingsLayer = (
  common: Cli.CommonOptions,
  env: Readonly<Record<string, string | undefined>>
): Layer.Layer<Settings.Settings, WebSearchError.Unavailable> =>
  Layer.effect(
    Settings.Settings,
    Effect.flatMap(settingsInput(common, env), (input) => Settings.make(input, source(common, env)))
  )

/**
 * The capability services, provider registry and settings of a command, with the given provider Layers and the
 * provider modules listed in `WEBSEARCH_PROVIDER_MODULES`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  common: Cli.CommonOptions,
  env: Readonly<Record<string, string | undefined>>,
  providers: Providers
): Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable> =>
  // Provider modules are built after the built-in providers, so a module's driver replaces a built-in one.
  ProviderModules.layer(env).pipe(
    Layer.provideMerge(providers),
    Layer.provideMerge(WebSearch.layer),
    Layer.provideMerge(settingsLayer(common, env))
  )
