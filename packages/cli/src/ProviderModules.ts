/**
 * Provider modules: how users plug their own provider drivers into the `websearch` command, its MCP server and
 * its HTTP server without rebuilding it. `WEBSEARCH_PROVIDER_MODULES` lists ES modules (comma-separated paths,
 * relative to the working directory, or `file:` URLs); each must export `layer`, a provider Layer such as
 * `ProviderRegistry.register(driver)` (a plain `.js` module importing the installed `@websearch/core` works: no
 * build step, no tsx). They are loaded with a dynamic import and composed after the built-in providers, so a
 * module adds its provider, or replaces a built-in one with the same id; its options and environment come with
 * it.
 *
 * @since 0.1.0
 */
import type * as Composition from "@websearch/core/Composition"
import * as ConfigText from "@websearch/core/ConfigText"
import type * as Settings from "@websearch/core/Settings"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { isAbsolute, resolve } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * The environment variable naming the modules.
 *
 * @since 0.1.0
 * @category constants
 */
export const variable = "WEBSEARCH_PROVIDER_MODULES"

/**
 * A provider Layer, as a module's `layer` export must be.
 *
 * @since 0.1.0
 * @category models
 */
export type ProviderLayer = Layer.Layer<never, unknown, Composition.Composition | Settings.Settings>

/**
 * The module specifiers listed in the environment, in order (empty entries dropped).
 *
 * @since 0.1.0
 * @category encoding
 */
export const paths = (env: Readonly<Record<string, string | undefined>>): ReadonlyArray<string> =>
  ConfigText.splitList(env[variable] ?? "")

const toUrl = (path: string, cwd: string): string =>
  path.startsWith("file:") ? path : pathToFileURL(isAbsolute(path) ? path : resolve(cwd, path)).href

const invalid = (path: string, why: string) =>
  WebSearchError.unavailable("invalid_config", `provider module "${path}" (${variable}) ${why}`)

/**
 * Loads one module and returns its `layer`; a module that cannot be imported or has no Layer named `layer`
 * fails with `Unavailable/invalid_config` naming the path.
 *
 * @since 0.1.0
 * @category utils
 */
export const load = (
  path: string,
  cwd: string = process.cwd()
): Effect.Effect<
  Layer.Layer<never, WebSearchError.Unavailable, Composition.Composition | Settings.Settings>,
  WebSearchError.Unavailable
> =>
  Effect.tryPromise({
    try: () => import(toUrl(path, cwd)) as Promise<Record<string, unknown>>,
    catch: (error) =>
      invalid(path, `could not be loaded: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`)
  }).pipe(
    Effect.flatMap((module) =>
      Layer.isLayer(module.layer)
        ? Effect.succeed(
            Layer.mapError(module.layer as unknown as ProviderLayer, (error) =>
              error instanceof WebSearchError.Unavailable
                ? error
                : invalid(path, `failed to build: ${error instanceof Error ? error.message : String(error)}`)
            )
          )
        : Effect.fail(invalid(path, `does not export a provider Layer named "layer"`))
    ),
    Effect.withSpan("websearch.cli.loadProviderModule", { attributes: { path } })
  )

/**
 * The provider Layers of every module listed in the environment, merged; empty when none is listed.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  env: Readonly<Record<string, string | undefined>>
): Layer.Layer<never, WebSearchError.Unavailable, Composition.Composition | Settings.Settings> => {
  const listed = paths(env)
  if (listed.length === 0) return Layer.empty
  return Layer.unwrapEffect(
    Effect.map(
      Effect.forEach(listed, (path) => load(path)),
      (layers) =>
        layers.reduce<Layer.Layer<never, WebSearchError.Unavailable, Composition.Composition | Settings.Settings>>(
          (acc, l) => Layer.merge(acc, l),
          Layer.empty
        )
    )
  )
}
