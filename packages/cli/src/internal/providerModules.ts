/**
 * Provider modules: how users plug their own provider drivers into the `websearch` command, its MCP server and
 * its HTTP server without rebuilding it. `WEBSEARCH_PROVIDER_MODULES` lists ES modules (comma-separated paths,
 * relative to the working directory, or `file:` URLs); each must export `layer`, a provider Layer such as
 * `ProviderRegistry.register(driver)` (a plain `.js` module importing the installed `@websearch/core` works: no
 * build step, no tsx). They are loaded with a dynamic import and composed after the built-in providers, so a
 * module adds its provider, or replaces a built-in one with the same id; its options and environment come with
 * it.
 *
 * A module's layer gets what the built-in providers get: an `HttpClient` for provider API calls (the kind the
 * built-in providers call through: `proxyUrl`, `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`, every connection checked by
 * the URL policy) and the local fetcher's `SafeTransport`. Its import and its layer's build each have
 * `WEBSEARCH_PROVIDER_MODULES_TIMEOUT` (default 15 seconds); a module that cannot be imported, has no `layer`,
 * fails or dies while building, or takes longer fails with `Unavailable/invalid_config` naming it. While modules
 * are listed, whatever is written to stdout but websearch's own output (a module's `console.log`, at import, at
 * build or during a call) goes to stderr, so `--json` stays one object and MCP's stdio channel stays clean.
 * (Code that blocks the thread, a `while (true)` at import, cannot be stopped from the same thread.)
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Composition from "@websearch/core/Composition"
import * as ConfigText from "@websearch/core/internal/configText"
import * as Settings from "@websearch/core/Settings"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type * as SafeTransport from "@websearch/node/SafeTransport"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import { isAbsolute, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import * as StdoutGuard from "./stdoutGuard.js"

/**
 * The environment variable naming the modules.
 *
 * @since 0.1.0
 * @category constants
 */
export const variable = "WEBSEARCH_PROVIDER_MODULES"

/**
 * The variable bounding each module's import and its layer's build: milliseconds or a duration (`"30 seconds"`).
 *
 * @since 0.2.0
 * @category constants
 */
export const timeoutVariable = "WEBSEARCH_PROVIDER_MODULES_TIMEOUT"

/**
 * How long a module's import, and then its layer's build, may take when `WEBSEARCH_PROVIDER_MODULES_TIMEOUT` is
 * not set.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultTimeout: Duration.Duration = Duration.seconds(15)

/**
 * What a module's layer is given: the services the built-in providers get besides the composition and settings.
 *
 * @since 0.2.0
 * @category models
 */
export type Services = HttpClient.HttpClient | SafeTransport.SafeTransport

/**
 * A provider Layer, as a module's `layer` export must be: it may use the settings, the composition it registers
 * into, an `HttpClient` and the `SafeTransport`.
 *
 * @since 0.1.0
 * @category models
 */
export type ProviderLayer = Layer.Layer<never, unknown, Composition.Composition | Settings.Settings | Services>

/**
 * A loaded module's Layer: any failure is `Unavailable/invalid_config` naming the module.
 *
 * @since 0.2.0
 * @category models
 */
export type LoadedLayer = Layer.Layer<
  never,
  WebSearchError.Unavailable,
  Composition.Composition | Settings.Settings | Services
>

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
 * The bound of each module's import and build, from `WEBSEARCH_PROVIDER_MODULES_TIMEOUT` (default 15 seconds); a
 * value that is not a duration fails `Unavailable/invalid_config` naming the variable.
 *
 * @since 0.2.0
 * @category utils
 */
export const timeout = (
  env: Readonly<Record<string, string | undefined>>
): Effect.Effect<Duration.Duration, WebSearchError.Unavailable> => {
  const raw = env[timeoutVariable]?.trim() ?? ""
  if (raw === "") return Effect.succeed(defaultTimeout)
  return Option.match(
    Option.filter(Settings.parseDuration(raw), (d) => Duration.greaterThan(d, Duration.zero)),
    {
      onNone: () =>
        Effect.fail(
          WebSearchError.unavailable(
            "invalid_config",
            `${timeoutVariable} takes milliseconds or a duration such as "30 seconds", not "${raw.slice(0, 100)}"`
          )
        ),
      onSome: Effect.succeed
    }
  )
}

// What went wrong, on one line of at most 300 characters: a module's error may be anything it threw.
const described = (error: unknown): string => {
  const text = WebSearchError.isWebSearchError(error)
    ? `${error._tag}/${error.reason}: ${error.message}`
    : Predicate.hasProperty(error, "message") && typeof error.message === "string"
      ? error.message
      : Predicate.hasProperty(error, "_tag") && typeof error._tag === "string"
        ? error._tag
        : String(error)
  const line = text.split("\n")[0]
  return line.length > 300 ? `${line.slice(0, 299)}…` : line
}

// A failure or a defect while building names the module; an interruption (Ctrl-C) stays one.
const namedFailure = (path: string) => (cause: Cause.Cause<unknown>) =>
  Cause.isInterruptedOnly(cause)
    ? Effect.interrupt
    : Effect.fail(invalid(path, `failed to build: ${described(Cause.squash(cause))}`))

/**
 * Loads one module and returns its `layer`; a module that cannot be imported or has no Layer named `layer`
 * fails with `Unavailable/invalid_config` naming the path, as does its layer when it fails, dies or takes longer
 * than `within` to build.
 *
 * @since 0.1.0
 * @category utils
 */
export const load = (
  path: string,
  cwd: string = process.cwd(),
  within: Duration.Duration = defaultTimeout
): Effect.Effect<LoadedLayer, WebSearchError.Unavailable> =>
  Effect.tryPromise({
    try: () => import(toUrl(path, cwd)) as Promise<Record<string, unknown>>,
    catch: (error) =>
      invalid(path, `could not be loaded: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`)
  }).pipe(
    StdoutGuard.around,
    Effect.timeoutFail({
      duration: within,
      onTimeout: () => invalid(path, `did not finish loading within ${Duration.format(within)} (${timeoutVariable})`)
    }),
    Effect.flatMap((module) =>
      Layer.isLayer(module.layer)
        ? Effect.succeed(bounded(path, module.layer as ProviderLayer, within))
        : Effect.fail(invalid(path, `does not export a provider Layer named "layer"`))
    ),
    Effect.withSpan("websearch.cli.loadProviderModule", { attributes: { path } })
  )

// The module's layer built on its own, so its failures, defects and time are its own; what it registers goes into
// the composition in context.
const bounded = (path: string, layer: ProviderLayer, within: Duration.Duration): LoadedLayer =>
  Layer.scopedContext(
    Layer.build(layer).pipe(
      StdoutGuard.around,
      Effect.catchAllCause(namedFailure(path)),
      Effect.timeoutFail({
        duration: within,
        onTimeout: () => invalid(path, `did not finish building within ${Duration.format(within)} (${timeoutVariable})`)
      })
    )
  )

/**
 * The provider Layers of every module listed in the environment, merged, with the services a module is given
 * (an `HttpClient` through the outbound proxies, the local fetcher's `SafeTransport`); empty when none is listed.
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
    Effect.gen(function* () {
      const within = yield* timeout(env)
      const layers = yield* Effect.forEach(listed, (path) => load(path, process.cwd(), within))
      // Loaded only when a module is listed, so commands without one start without them.
      const [Fetch, ProxyHttpClient] = yield* Effect.promise(() =>
        Promise.all([import("@websearch/node/Fetch"), import("@websearch/node/ProxyHttpClient")])
      )
      const services = Layer.merge(ProxyHttpClient.layer(), Fetch.layerTransport())
      return layers.reduce<LoadedLayer>((acc, l) => Layer.merge(acc, l), Layer.empty).pipe(Layer.provide(services))
    })
  )
}
