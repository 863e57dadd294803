/**
 * Runs one `websearch` command line: builds the settings and provider Layers, calls the capability, prints
 * the answer (human text or one JSON object) and returns the exit code. Nothing here throws: every outcome,
 * including a usage error, a Layer failure or an interruption, becomes output and an exit code.
 *
 * @since 0.1.0
 */
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as Progress from "@websearch/core/Progress"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Research from "@websearch/core/Research"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchResponse from "@websearch/core/WebSearchResponse"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Abort from "./internal/abort.js"
import * as Cli from "./internal/cli.js"
import * as CommandLayers from "./internal/commandLayers.js"
import * as Inputs from "./internal/inputs.js"
import * as Layout from "./internal/layout.js"
import * as PastEnd from "./internal/pastEnd.js"
import * as StdoutGuard from "./internal/stdoutGuard.js"
import * as Recorder from "./internal/recorder.js"
import type * as CommandIo from "./internal/io.js"
import * as Live from "./internal/live.js"
import * as ProviderModules from "./internal/providerModules.js"
import * as Render from "./internal/render.js"
import { version } from "./internal/version.js"

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
 * are the defaults they propose), the remote calls through outbound proxies as `@websearch/node/ProxyHttpClient`
 * routes them. The modules are loaded when a command first builds its Layers, so `--help`, `--version` and usage
 * errors start without them.
 *
 * @since 0.1.0
 * @category layers
 */
export const providers: Live.Providers = CommandLayers.compose(undefined)

type Outcome = { readonly code: number; readonly stdout: string; readonly stderr?: string | undefined }

/** How a command's answers are printed: the format, the look of each stream, the inputs refused up front. */
interface Output {
  readonly format: "text" | "markdown"
  readonly look: Render.Look
  readonly errLook: Render.Look
  readonly refused: ReadonlyArray<WebSearchError.InputFailure>
}

const succeed = (common: Cli.CommonOptions, value: unknown, human: string): Outcome => ({
  code: ExitCode.ok,
  stdout: common.json ? `${Render.jsonSuccess(value)}\n` : human
})

/** A list answer with the inputs refused before the request, and its closing line when some inputs failed. */
const listed = (command: Cli.CommonOptions, response: WebSearchResponse.WebSearchResponse, output: Output): Outcome => {
  const merged = {
    ...response,
    inputs: [...output.refused.map((f) => f.input), ...response.inputs],
    failures: [...output.refused, ...response.failures]
  }
  const outcome = succeed(command, merged, Render.response(merged, { format: output.format, look: output.look }))
  if (command.json || command.quiet === true) return outcome
  return { ...outcome, stderr: Render.summary(merged.inputs.length, merged.failures, output.errLook) }
}

const program = (
  command: Exclude<
    Cli.Command,
    {
      _tag:
        | "Help"
        | "Version"
        | "Completions"
        | "ConfigPath"
        | "ConfigInit"
        | "Doctor"
        | "ProvidersManage"
        | "Map"
        | "Crawl"
    }
  >,
  io: Io,
  live: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable>,
  inputs: ReadonlyArray<string>,
  output: Output
): Effect.Effect<Outcome, WebSearchError.WebSearchError, WebSearch.WebSearch | Settings.Settings> => {
  switch (command._tag) {
    // Long-running servers load their modules on demand, so one-shot commands keep a fast cold start.
    case "Mcp":
      return Effect.flatMap(
        Effect.promise(() => import("./internal/mcp.js")),
        (Mcp) => Effect.map(Mcp.run(command, io, live), (code) => ({ code, stdout: "" }))
      )
    case "Serve":
      return Effect.flatMap(
        Effect.promise(() => import("./internal/serve.js")),
        (Serve) => Effect.map(Serve.run(command, io, live), (code) => ({ code, stdout: "" }))
      )
    case "Search":
      return Effect.map(
        SearchKeywords.searchKeywords({
          keywords: inputs,
          ...(command.provider === undefined ? {} : { providerId: command.provider }),
          ...(command.providers === undefined ? {} : { providerIds: command.providers }),
          ...(command.maxResults === undefined ? {} : { maxResults: command.maxResults }),
          ...command.searchOptions
        }),
        (response) => listed(command, response, output)
      )
    case "Fetch":
      return Effect.flatMap(
        FetchUrls.fetchUrls({
          urls: inputs,
          ...(command.provider === undefined ? {} : { providerId: command.provider }),
          ...command.paging
        }),
        (response) => {
          // A page read from past its end is that input's failure, not an empty page.
          const checked = PastEnd.check(response, command.paging?.startIndex)
          return checked.past.length > 0 && checked.response.results.length === 0
            ? Effect.fail(PastEnd.nothingLeft(checked))
            : Effect.succeed(listed(command, checked.response, output))
        }
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
    case "Check": {
      const checked = Effect.map(ProviderChecks.check(command.providerId), (check) => ({
        ...succeed(command, check, Render.check(check)),
        code: check.ok ? ExitCode.ok : ExitCode.failed
      }))
      const workspace = command.workspace
      if (workspace === undefined) return checked
      // `providers test ID`: the local store's instances of the workspace are nameable by the check.
      return Effect.gen(function* () {
        const ProvidersCommand = yield* Effect.promise(() => import("./internal/providersCommand.js"))
        const instances = yield* ProvidersCommand.localInstances(io.env, workspace)
        return yield* ProviderInstance.withInstances(checked, workspace, instances)
      })
    }
  }
}

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

const usageError = (io: Io, usage: Cli.UsageError): number => {
  if (usage.json) io.stdout(`${Render.jsonFailure(usage)}\n`)
  else io.stderr(`websearch: ${usage.message}\nRun "websearch --help" for usage.\n`)
  return ExitCode.usage
}

type ListCommand = CommandLayers.ListCommand

/** The inputs of a search or fetch: `-` expanded, bare domains with https, malformed ones refused one by one. */
const prepare = (command: ListCommand, io: Io): Either.Either<Inputs.Prepared, Cli.UsageError> => {
  const raw = command._tag === "Search" ? command.keywords : command.urls
  const fail = (message: string) => Either.left(new Cli.UsageError({ message, json: command.json }))
  if (raw.includes("-") && io.stdin === undefined) return fail("'-' reads standard input, which is not available here")
  const expanded = Inputs.expandStdin(raw, io.stdin ?? (() => ""))
  const prepared = command._tag === "Search" ? Inputs.prepareKeywords(expanded) : Inputs.prepareUrls(expanded)
  if (prepared.inputs.length > 0) return Either.right(prepared)
  if (prepared.refused.length === 0)
    return fail(`standard input held no ${command._tag === "Search" ? "KEYWORD" : "URL"}`)
  return fail(
    `no input can be sent: ${prepared.refused.map((failure) => Layout.oneLine(failure.message, 300)).join("; ")}`
  )
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
  // With provider modules, stdout carries only what websearch prints: a module's own writes go to stderr.
  if (ProviderModules.paths(io.env).length === 0) return runWith(argv, io, options)
  return StdoutGuard.around(runWith(argv, { ...io, stdout: StdoutGuard.passThrough(io.stdout) }, options))
}

const runWith = (argv: ReadonlyArray<string>, io: Io, options: RunOptions): Effect.Effect<number> => {
  const parsed = Cli.parse(argv)
  if (Either.isLeft(parsed)) {
    const usage = parsed.left
    return Effect.sync(() => usageError(io, usage))
  }
  const command = parsed.right
  const look = Render.look({ isTTY: io.stdoutIsTTY, columns: io.columns }, io.env)
  const errLook = Render.look({ isTTY: io.stderrIsTTY }, io.env)
  switch (command._tag) {
    case "Help":
      return Effect.sync(() => {
        io.stdout(Cli.helpOutput(command, look.colour))
        return ExitCode.ok
      })
    case "Version":
      return Effect.sync(() => {
        io.stdout(
          command.json ? `${JSON.stringify({ ok: true, response: { version: version() } })}\n` : `${version()}\n`
        )
        return ExitCode.ok
      })
    case "Completions":
      return Effect.sync(() => {
        const script = Cli.completions(command.shell)
        io.stdout(command.json ? `${Render.jsonSuccess({ shell: command.shell, script })}\n` : script)
        return ExitCode.ok
      })
    case "ProvidersManage": {
      // A local add is judged by the registry the other commands build, so a type, option or endpoint it could not
      // use fails now, naming the field, rather than at the instance's first search (the server judges its own).
      const judge = (instance: ProviderInstance.ProviderInstance) =>
        Effect.scoped(
          Effect.flatMap(Layer.build(Live.layer(command, io.env, options.providers ?? providers)), (context) =>
            Either.match(Context.get(context, ProviderRegistry.ProviderRegistry).checkInstance(instance), {
              onLeft: (error) => Effect.fail(WebSearchError.requestFailed("invalid_input", error.message)),
              onRight: () => Effect.void
            })
          )
        )
      return Effect.flatMap(
        Effect.promise(() => import("./internal/providersCommand.js")),
        (ProvidersCommand) => ProvidersCommand.run(command, io, judge)
      )
    }
    case "ConfigPath":
    case "ConfigInit":
      return Effect.flatMap(
        Effect.promise(() => import("./internal/configCommand.js")),
        (ConfigCommand) => ConfigCommand.run(command, io)
      )
    case "Doctor":
      return Effect.flatMap(
        Effect.promise(() => import("./internal/doctor.js")),
        (Doctor) =>
          Effect.map(Doctor.run(command, io.env, options.providers ?? providers), (report) => {
            io.stdout(command.json ? `${Render.jsonSuccess(report)}\n` : Doctor.render(report))
            return report.ok ? ExitCode.ok : ExitCode.failed
          })
        // Its table is the report: the failures it finds are not logged again (--verbose logs them).
      ).pipe(logs(command.verbose))
    case "Map":
    case "Crawl":
      // Pages are printed as a crawl finds them, so these commands print themselves (see `siteCommand`).
      return Effect.flatMap(
        Effect.promise(() => import("./internal/siteCommand.js")),
        (SiteCommand) =>
          SiteCommand.run(command, {
            io,
            live: Live.layer(command, io.env, options.providers ?? CommandLayers.oneShot),
            signal: options.signal,
            look,
            errLook
          })
      ).pipe(logs(command.verbose))
  }
  let inputs: ReadonlyArray<string> = []
  let refused: ReadonlyArray<WebSearchError.InputFailure> = []
  if (command._tag === "Search" || command._tag === "Fetch") {
    const prepared = prepare(command, io)
    if (Either.isLeft(prepared)) {
      const usage = prepared.left
      return Effect.sync(() => usageError(io, usage))
    }
    inputs = prepared.right.inputs
    refused = prepared.right.refused
  }
  const list = command._tag === "Search" || command._tag === "Fetch"
  const recorder = list ? Recorder.make() : undefined
  const live = Live.layer(
    command,
    io.env,
    options.providers ?? (command._tag === "Mcp" || command._tag === "Serve" ? providers : CommandLayers.oneShot),
    // `serve` keeps its cache, quotas and per-token limits in memory, or on Redis when REDIS_URL is set.
    command._tag === "Serve"
      ? CommandLayers.sharedStores
      : recorder === undefined
        ? undefined
        : CommandLayers.cacheStores(command as ListCommand, io.env, recorder)
  )
  const rendered = command.render !== undefined && command.render !== "never"
  const withRefused = (error: WebSearchError.WebSearchError): WebSearchError.WebSearchError =>
    refused.length === 0 ? error : WebSearchError.annotate(error, { failures: [...refused, ...(error.failures ?? [])] })
  const report = (failure: WebSearchError.WebSearchError): number => {
    const error = withRefused(failure)
    // Ctrl-C: what was already received is printed before the interruption is reported.
    const partial =
      error._tag === "Aborted" && recorder !== undefined
        ? recorder.partial(command._tag === "Search" ? "searchKeywords" : "fetchUrls", inputs)
        : undefined
    if (command.json) {
      io.stdout(`${Render.jsonFailure(error, partial)}\n`)
    } else {
      if (partial !== undefined)
        io.stdout(Render.response(partial, { format: command.format === "markdown" ? "markdown" : "text", look }))
      io.stderr(Render.error(error, { look: errLook, rendered }))
      const failures = error.failures ?? []
      // One failure is the error line itself; the closing line is for several.
      if (failures.length > 1 && command.quiet !== true && list) {
        io.stderr(Render.summary(refused.length + inputs.length, failures, errLook))
      }
    }
    return error._tag === "Aborted" ? ExitCode.interrupted : ExitCode.failed
  }
  const output: Output = {
    format: command.format === "markdown" ? "markdown" : "text",
    look,
    errLook,
    refused
  }
  return program(command, io, live, inputs, output).pipe(
    Effect.provide(live),
    // Multi-input runs show each input as it finishes; scripts (--json) read failures from the one object.
    Progress.withReporter({
      inputFinished: (event) =>
        Effect.sync(() => {
          if (!command.json && command.quiet !== true && event.total > 1) io.stderr(Render.progress(event))
        })
    }),
    Effect.raceFirst(Abort.on(options.signal)),
    Effect.map((outcome) => {
      io.stdout(outcome.stdout)
      if (outcome.stderr !== undefined && outcome.stderr !== "") io.stderr(outcome.stderr)
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
    logs(command.verbose)
  )
}

// Logs go to stderr, and only with --verbose: what a command finds is in its answer.
const logs =
  (verbose: boolean) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    effect.pipe(
      Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger))),
      Logger.withMinimumLogLevel(verbose ? LogLevel.Debug : LogLevel.None)
    )
