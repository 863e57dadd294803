/**
 * Builds what a command runs on: the settings (a file or the environment, with the command line's allowlist laid
 * over them) and the capability services with the provider Layers this binary composes.
 *
 * @since 0.1.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import type * as Composition from "@websearch/core/Composition"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Chunk from "effect/Chunk"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import type * as Cli from "./cli.js"
import * as ConfigFile from "./configFile.js"
import * as ProviderModules from "./providerModules.js"

/**
 * The provider Layers a command composes.
 *
 * @since 0.1.0
 * @category models
 */
export type Providers = Layer.Layer<never, WebSearchError.Unavailable, Composition.Composition | Settings.Settings>

// Whole lines whose first characters are `//` are comments (`websearch config init` writes them). A JSON string
// never spans lines, so such a line is never inside one; it is blanked, so error positions keep their lines.
const withoutComments = (text: string): string =>
  text
    .split("\n")
    .map((line) => (line.trimStart().startsWith("//") ? "" : line))
    .join("\n")

// The node file system, with settings files read through `withoutComments`. Core reads the file (with its size and
// nesting bounds) through `stream`, so only that is wrapped, and the bound it asks for is kept.
const commentedSettings: Layer.Layer<FileSystem.FileSystem> = Layer.effect(
  FileSystem.FileSystem,
  Effect.map(FileSystem.FileSystem, (fs) => ({
    ...fs,
    stream: (path, options) =>
      Stream.unwrap(
        Effect.map(Stream.runCollect(fs.stream(path, options)), (chunks) => {
          const bytes = new Uint8Array(Chunk.reduce(chunks, 0, (sum, chunk) => sum + chunk.length))
          let offset = 0
          for (const chunk of chunks) {
            bytes.set(chunk, offset)
            offset += chunk.length
          }
          return Stream.succeed(new TextEncoder().encode(withoutComments(new TextDecoder().decode(bytes))))
        })
      )
  }))
).pipe(Layer.provide(NodeFileSystem.layer))

/**
 * The settings file of a command line (see `ConfigFile.locate`): `--config`, else `WEBSEARCH_CONFIG`, else the
 * default location when a file is there.
 *
 * @since 0.2.0
 * @category utils
 */
export const settingsFile = (
  common: Cli.CommonOptions,
  env: Readonly<Record<string, string | undefined>>
): ConfigFile.Located => ConfigFile.locate(common.config, env)

/**
 * The settings document a command runs with: the settings file (with the environment laid over it), else the
 * environment alone; `--allow-host` and `--allow-cidr` add to its allowlist, `--timeout` sets every capability's
 * time limit.
 *
 * @since 0.1.0
 * @category constructors
 */
export const settingsInput = (
  common: Cli.CommonOptions,
  env: Readonly<Record<string, string | undefined>>
): Effect.Effect<Settings.SettingsInput, WebSearchError.Unavailable> => {
  const file = settingsFile(common, env).path
  const base =
    file === undefined
      ? Settings.fromConfig
      : Settings.readFile(file).pipe(
          Effect.flatMap((document) =>
            // A malformed file is reported as it is, before the environment could mask the bad value.
            Effect.zipRight(
              Settings.make(document, file),
              Effect.map(Settings.fromConfig, (e) => Settings.merge(document, e))
            )
          ),
          Effect.provide(commentedSettings)
        )
  const timed =
    common.timeout === undefined
      ? base
      : Effect.map(base, (input) =>
          Settings.merge(input, {
            timeouts: { searchKeywords: common.timeout, fetchUrls: common.timeout, research: common.timeout }
          })
        )
  if (common.allowHosts.length === 0 && common.allowCidrs.length === 0) return timed
  // The flags add to the configured allowlist; `merge` would replace the lists.
  return Effect.map(timed, (input) => ({
    ...input,
    urlPolicy: {
      ...input.urlPolicy,
      allowHosts: [...(input.urlPolicy?.allowHosts ?? []), ...common.allowHosts],
      allowCidrs: [...(input.urlPolicy?.allowCidrs ?? []), ...common.allowCidrs]
    }
  }))
}

const source = (common: Cli.CommonOptions, env: Readonly<Record<string, string | undefined>>): string => {
  const file = settingsFile(common, env).path
  return file === undefined ? "environment" : `${file} and environment`
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
    Effect.flatMap(settingsInput(common, env), (input) =>
      Settings.make(input, { source: source(common, env), environment: true })
    ).pipe(
      // `--render` wins over the file and the environment: it is read as the local fetcher's FETCH_RENDER.
      (make) =>
        common.render === undefined
          ? make
          : Effect.flatMap(Effect.configProviderWith(Effect.succeed), (current) =>
              Effect.withConfigProvider(
                make,
                ConfigProvider.orElse(
                  ConfigProvider.fromMap(new Map([["FETCH_RENDER", common.render as string]])),
                  () => current
                )
              )
            )
    )
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
  providers: Providers,
  stores?: Stores
): Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable> =>
  // Provider modules come after the built-in providers, so a module's driver replaces a built-in one.
  WebSearch.layer(providers, ProviderModules.layer(env), stores ?? Layer.empty).pipe(
    Layer.provideMerge(settingsLayer(common, env))
  )

/**
 * The shared stores a long-running command composes (`serve`: the result cache, provider quotas and the
 * per-token rate limiter, in memory or on Redis).
 *
 * @since 0.2.0
 * @category models
 */
export type Stores = Layer.Layer<never, WebSearchError.Unavailable, Composition.Composition | Settings.Settings>
