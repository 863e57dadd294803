/**
 * Runs one `websearch` command line: builds the settings and provider Layers, calls the capability, prints
 * the answer (human text or one JSON object) and returns the exit code. Nothing here throws: every outcome,
 * including a usage error, a Layer failure or an interruption, becomes output and an exit code.
 *
 * @since 0.1.0
 */
import * as Composition from "@websearch/core/Composition"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Progress from "@websearch/core/Progress"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Research from "@websearch/core/Research"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Cli from "./Cli.js"
import type * as CommandIo from "./Io.js"
import * as Live from "./Live.js"
import * as Render from "./Render.js"
import { version } from "./Version.js"

/**
 * Where output goes; the binary passes the process streams, tests may capture them (the `Io` module's).
 *
 * @since 0.1.0
 * @category models
 */
export type Io = CommandIo.Io

/**
 * Exit codes.
 *
 * @since 0.1.0
 * @category constants
 */
export const ExitCode = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const

/**
 * The provider Layers this binary composes: every remote provider and the local fetcher (DuckDuckGo and `fetch`
 * are the defaults they propose). The modules are loaded when a command first builds its Layers, so `--help`,
 * `--version` and usage errors start without them.
 *
 * @since 0.1.0
 * @category layers
 */
export const providers: Live.Providers = Layer.unwrapEffect(
  Effect.gen(function* () {
    const settings = yield* Settings.Settings
    const [Fetch, Providers, NodeHttpClient] = yield* Effect.promise(() =>
      Promise.all([
        import("@websearch/node/Fetch"),
        import("@websearch/providers/Providers"),
        import("@effect/platform-node/NodeHttpClient")
      ])
    )
    // The Chromium renderer is loaded (and Chromium started, on the first page) only when rendering is asked for.
    const render = yield* Fetch.renderMode(settings)
    const BrowserRenderer =
      render === "never" ? undefined : yield* Effect.promise(() => import("@websearch/node/BrowserRenderer"))
    const fetch =
      BrowserRenderer === undefined ? Fetch.layer : Fetch.layer.pipe(Layer.provide(BrowserRenderer.layerConfig()))
    // In catalogue order: the remote providers, then the local fetcher.
    return Composition.sequence(Providers.layer.pipe(Layer.provide(NodeHttpClient.layerUndici)), fetch)
  })
)

const sharedStores: Live.Stores = Layer.unwrapEffect(
  Effect.map(
    Effect.promise(() => import("@websearch/node/SharedStores")),
    (SharedStores) => SharedStores.layerConfig()
  )
)

type Outcome = { readonly code: number; readonly stdout: string }

const succeed = (common: Cli.CommonOptions, value: unknown, human: string): Outcome => ({
  code: ExitCode.ok,
  stdout: common.json ? `${Render.jsonSuccess(value)}\n` : human
})

const program = (
  command: Exclude<Cli.Command, { _tag: "Help" | "Version" }>,
  io: Io,
  live: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable>
): Effect.Effect<Outcome, WebSearchError.WebSearchError, WebSearch.WebSearch | Settings.Settings> => {
  switch (command._tag) {
    // Long-running servers load their modules on demand, so one-shot commands keep a fast cold start.
    case "Mcp":
      return Effect.flatMap(
        Effect.promise(() => import("./Mcp.js")),
        (Mcp) => Effect.map(Mcp.run(command, io, live), (code) => ({ code, stdout: "" }))
      )
    case "Serve":
      return Effect.flatMap(
        Effect.promise(() => import("./Serve.js")),
        (Serve) => Effect.map(Serve.run(command, io, live), (code) => ({ code, stdout: "" }))
      )
    case "Search":
      return Effect.map(
        SearchKeywords.searchKeywords({
          keywords: command.keywords,
          ...(command.provider === undefined ? {} : { providerId: command.provider }),
          ...(command.maxResults === undefined ? {} : { maxResults: command.maxResults })
        }),
        (response) => succeed(command, response, Render.response(response))
      )
    case "Fetch":
      return Effect.map(
        FetchUrls.fetchUrls({
          urls: command.urls,
          ...(command.provider === undefined ? {} : { providerId: command.provider })
        }),
        (response) => succeed(command, response, Render.response(response))
      )
    case "Research":
      return Effect.map(
        Research.research({
          query: command.query,
          allowedDomains: command.domains,
          ...(command.provider === undefined ? {} : { providerId: command.provider })
        }),
        (response) => succeed(command, response, Render.research(response))
      )
    case "Providers":
      return Effect.gen(function* () {
        const registry = yield* ProviderRegistry.ProviderRegistry
        const rows = registry.describe().filter((row) => command.provider === undefined || row.id === command.provider)
        if (rows.length === 0) {
          return yield* Effect.fail(ProviderRegistry.unknownProvider(command.provider ?? "", registry.ids()))
        }
        return succeed(command, rows, Render.providers(rows))
      })
    case "Check":
      return Effect.map(ProviderChecks.check(command.providerId), (check) => ({
        ...succeed(command, check, Render.check(check)),
        code: check.ok ? ExitCode.ok : ExitCode.failed
      }))
  }
}

const abortOn = (signal: AbortSignal | undefined): Effect.Effect<never, WebSearchError.Aborted> =>
  signal === undefined
    ? Effect.never
    : Effect.async<never, WebSearchError.Aborted>((resume) => {
        const onAbort = () => resume(Effect.fail(WebSearchError.aborted("interrupted by the user")))
        if (signal.aborted) onAbort()
        else signal.addEventListener("abort", onAbort, { once: true })
        return Effect.sync(() => signal.removeEventListener("abort", onAbort))
      })

/**
 * Options of `run`.
 *
 * @since 0.1.0
 * @category models
 */
export interface RunOptions {
  /** Aborting it (Ctrl-C) interrupts every in-flight call; the command then reports `Aborted`. */
  readonly signal?: AbortSignal | undefined
  /** The provider Layers to compose; defaults to `providers`. */
  readonly providers?: Live.Providers | undefined
}

/**
 * Runs a command line and returns its exit code.
 *
 * @example
 * ```ts
 * import * as Main from "@websearch/cli/Main"
 * import * as Effect from "effect/Effect"
 *
 * // The command line as a library: the output goes where `io` says and the exit code is returned.
 * let output = ""
 * const io: Main.Io = { stdout: (text) => (output += text), stderr: (text) => (output += text), env: {} }
 *
 * Effect.runPromise(Main.run(["--version"], io).pipe(Effect.tap((code) => Effect.log(code, output.trim()))))
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const run = (argv: ReadonlyArray<string>, io: Io, options: RunOptions = {}): Effect.Effect<number> => {
  const parsed = Cli.parse(argv)
  if (Either.isLeft(parsed)) {
    const usage = parsed.left
    return Effect.sync(() => {
      if (usage.json) io.stdout(`${Render.jsonFailure(usage)}\n`)
      else io.stderr(`websearch: ${usage.message}\nRun "websearch --help" for usage.\n`)
      return ExitCode.usage
    })
  }
  const command = parsed.right
  if (command._tag === "Help") {
    return Effect.sync(() => {
      // `--json` promises exactly one JSON object on stdout, whatever else the command line asks for.
      io.stdout(command.json ? `${JSON.stringify({ ok: true, response: { usage: Cli.usage } })}\n` : Cli.usage)
      return ExitCode.ok
    })
  }
  if (command._tag === "Version") {
    return Effect.sync(() => {
      io.stdout(command.json ? `${JSON.stringify({ ok: true, response: { version: version() } })}\n` : `${version()}\n`)
      return ExitCode.ok
    })
  }
  const live = Live.layer(
    command,
    io.env,
    options.providers ?? providers,
    // `serve` keeps its cache, quotas and per-token limits in memory, or on Redis when REDIS_URL is set.
    command._tag === "Serve" ? sharedStores : undefined
  )
  const report = (error: WebSearchError.WebSearchError): number => {
    if (command.json) io.stdout(`${Render.jsonFailure(error)}\n`)
    else io.stderr(Render.error(error))
    return error._tag === "Aborted" ? ExitCode.interrupted : ExitCode.failed
  }
  return program(command, io, live).pipe(
    Effect.provide(live),
    // Multi-input runs show each input as it finishes; scripts (--json) read failures from the one object.
    Progress.withReporter({
      inputFinished: (event) =>
        Effect.sync(() => {
          if (!command.json && event.total > 1) io.stderr(Render.progress(event))
        })
    }),
    Effect.raceFirst(abortOn(options.signal)),
    Effect.map((outcome) => {
      io.stdout(outcome.stdout)
      return outcome.code
    }),
    Effect.catchAll((error) => Effect.sync(() => report(error))),
    Effect.catchAllCause((cause) =>
      Effect.sync(() =>
        report(
          WebSearchError.responseInvalid(
            "parse_failed",
            `websearch failed unexpectedly: ${Cause.pretty(cause).split("\n")[0]}`
          )
        )
      )
    ),
    Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger))),
    Logger.withMinimumLogLevel(command.verbose ? LogLevel.Debug : LogLevel.None)
  )
}
