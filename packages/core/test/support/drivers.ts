/**
 * Shared test doubles for the capability pipeline: a scripted provider driver that records every call, and a
 * layer builder that composes drivers with `WebSearch.layer` and settings. A script says, per input, whether the
 * driver call succeeds with N results, fails with a given error, dies, waits first, or never finishes; every
 * call records when it starts, completes or is interrupted, and how many calls were in flight at once.
 */
import * as Cause from "effect/Cause"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as TestServices from "effect/TestServices"
import type { Capability } from "../../src/Capability.js"
import * as Composition from "../../src/Composition.js"
import type * as Preset from "../../src/Preset.js"
import type { DriverContext, DriverResult, ProviderDriver } from "../../src/ProviderDriver.js"
import * as ProviderQuota from "../../src/ProviderQuota.js"
import * as ProviderRegistry from "../../src/ProviderRegistry.js"
import * as Settings from "../../src/Settings.js"
import * as WebSearch from "../../src/WebSearch.js"
import type * as WebSearchError from "../../src/WebSearchError.js"
import type { ResearchResponse } from "../../src/WebSearchResponse.js"
import * as Presets from "./presets.js"

// --- Scripts ----------------------------------------------------------------------------------------------

/** What one driver call does. `delay` (when given) is slept first, so it follows the TestClock in `it.effect`. */
export type Script =
  | {
      readonly _tag: "Succeed"
      readonly count: number
      readonly results: ReadonlyArray<DriverResult> | undefined
      readonly delay: Duration.DurationInput | undefined
    }
  | {
      readonly _tag: "Fail"
      readonly error: WebSearchError.WebSearchError
      readonly delay: Duration.DurationInput | undefined
    }
  | { readonly _tag: "Die"; readonly defect: unknown; readonly delay: Duration.DurationInput | undefined }
  | { readonly _tag: "Never" }

interface Timing {
  readonly delay?: Duration.DurationInput | undefined
}

/** Succeeds with `count` generated results (search) or one page (fetch). */
export const succeed = (count = 1, options?: Timing): Script => ({
  _tag: "Succeed",
  count,
  results: undefined,
  delay: options?.delay
})

/** Succeeds with exactly these results (fetch uses the first). */
export const results = (items: ReadonlyArray<DriverResult>, options?: Timing): Script => ({
  _tag: "Succeed",
  count: items.length,
  results: items,
  delay: options?.delay
})

/** Fails with a typed error. */
export const fail = (error: WebSearchError.WebSearchError, options?: Timing): Script => ({
  _tag: "Fail",
  error,
  delay: options?.delay
})

/** Dies with a defect (a driver bug). */
export const die = (defect: unknown, options?: Timing): Script => ({ _tag: "Die", defect, delay: options?.delay })

/** Never finishes; only interruption ends it (and is recorded). */
export const never: Script = { _tag: "Never" }

/** A script chosen per input, from a fixed script, a table (with a fallback) or a function. */
export type Scripted = Script | ((input: string, ctx: DriverContext) => Script)

/** Picks a script by input, falling back to `fallback` (one result by default). */
export const byInput =
  (table: Readonly<Record<string, Script>>, fallback: Script = succeed(1)) =>
  (input: string): Script =>
    table[input] ?? fallback

// --- Results ----------------------------------------------------------------------------------------------

/** The URL of a generated search result: stable per input and position. */
export const resultUrl = (input: string, index: number): string =>
  `https://results.example/${encodeURIComponent(input)}/${index + 1}`

/** The generated search results for an input. */
export const searchResults = (input: string, count: number): ReadonlyArray<DriverResult> =>
  Array.from({ length: count }, (_, index) => ({
    title: `${input} result ${index + 1}`,
    content: `Content ${index + 1} for ${input}.`,
    url: resultUrl(input, index)
  }))

/** The generated page of a fetched URL. */
export const fetchedPage = (url: string): DriverResult => ({ title: `Page ${url}`, content: `Content of ${url}`, url })

// --- Recording --------------------------------------------------------------------------------------------

/** One driver call as the driver saw it. */
export interface Call {
  readonly capability: Capability
  readonly input: string
  readonly apiKey: string | undefined
  readonly apiHost: string | undefined
  readonly maxResults: number
}

/** Everything a scripted driver observed, in order. Mutated by the driver; read by tests. */
export interface Recorder {
  readonly calls: Array<Call>
  readonly started: Array<string>
  readonly completed: Array<string>
  readonly interrupted: Array<string>
  readonly finalized: Array<string>
  inFlight: number
  maxInFlight: number
}

const makeRecorder = (): Recorder => ({
  calls: [],
  started: [],
  completed: [],
  interrupted: [],
  finalized: [],
  inFlight: 0,
  maxInFlight: 0
})

/** A driver and what it recorded. */
export interface TestDriver {
  readonly driver: ProviderDriver
  readonly recorder: Recorder
}

/** The behaviour of each capability a test driver implements; absent capabilities are not implemented. */
export interface DriverOptions {
  readonly searchKeywords?: Scripted
  readonly fetchUrls?: Scripted
  readonly research?: Scripted
}

const pick = (scripted: Scripted, input: string, ctx: DriverContext): Script =>
  typeof scripted === "function" ? scripted(input, ctx) : scripted

const presetOf = (id: string): Preset.Preset => {
  const preset = Presets.byId.get(id)
  if (preset === undefined) throw new Error(`test driver: no preset "${id}"`)
  return preset
}

/**
 * Builds a scripted driver for a built-in preset. Only the capabilities given in `options` are implemented,
 * whatever the preset declares, so a test can also build a driver that lacks a declared capability.
 */
export const makeDriver = (providerId: string, options: DriverOptions): TestDriver => {
  const recorder = makeRecorder()
  const run = <A>(
    capability: Capability,
    input: string,
    ctx: DriverContext,
    scripted: Scripted,
    onSuccess: (script: Extract<Script, { _tag: "Succeed" }>) => A
  ): Effect.Effect<A, WebSearchError.WebSearchError> =>
    Effect.suspend(() => {
      recorder.calls.push({
        capability,
        input,
        apiKey: Option.getOrUndefined(Option.map(ctx.apiKey, Redacted.value)),
        apiHost: Option.getOrUndefined(ctx.apiHost),
        maxResults: ctx.maxResults
      })
      recorder.started.push(input)
      recorder.inFlight += 1
      recorder.maxInFlight = Math.max(recorder.maxInFlight, recorder.inFlight)
      const script = pick(scripted, input, ctx)
      const wait = (delay: Duration.DurationInput | undefined) =>
        delay === undefined ? Effect.void : Effect.sleep(delay)
      const body: Effect.Effect<A, WebSearchError.WebSearchError> =
        script._tag === "Never"
          ? Effect.never
          : script._tag === "Succeed"
            ? Effect.as(wait(script.delay), onSuccess(script))
            : script._tag === "Fail"
              ? Effect.zipRight(wait(script.delay), Effect.fail(script.error))
              : Effect.zipRight(wait(script.delay), Effect.die(script.defect))
      return body.pipe(
        Effect.onExit((exit) =>
          Effect.sync(() => {
            if (Exit.isInterrupted(exit)) recorder.interrupted.push(input)
            else recorder.completed.push(input)
          })
        ),
        Effect.ensuring(
          Effect.sync(() => {
            recorder.inFlight -= 1
            recorder.finalized.push(input)
          })
        )
      )
    })
  const driver: {
    -readonly [K in keyof ProviderDriver]: ProviderDriver[K]
  } = { preset: presetOf(providerId) }
  const search = options.searchKeywords
  if (search !== undefined) {
    driver.searchKeywords = (keyword, ctx) =>
      run("searchKeywords", keyword, ctx, search, (s) => s.results ?? searchResults(keyword, s.count))
  }
  const fetch = options.fetchUrls
  if (fetch !== undefined) {
    driver.fetchUrls = (url, ctx) => run("fetchUrls", url, ctx, fetch, (s) => s.results?.[0] ?? fetchedPage(url))
  }
  const research = options.research
  if (research !== undefined) {
    driver.research = (request, ctx) =>
      run("research", request.query, ctx, research, (s): Omit<ResearchResponse, "providerId" | "query"> => ({
        report: `A report on ${request.query}`,
        queries: [request.query],
        sources: (s.results ?? searchResults(request.query, s.count)).map((r) => ({ title: r.title, url: r.url })),
        images: []
      }))
  }
  return { driver, recorder }
}

/** Waits (by yielding, so it works under the TestClock) until the recorder has seen `count` calls start. */
export const awaitStarted = (recorder: Recorder, count: number): Effect.Effect<void> =>
  Effect.gen(function* () {
    for (let attempt = 0; attempt < 10_000; attempt++) {
      if (recorder.started.length >= count) return
      yield* Effect.yieldNow()
    }
    return yield* Effect.dieMessage(`expected ${count} driver calls to start, saw ${recorder.started.length}`)
  })

/**
 * Joins a fiber, but dies if it has not finished within `within` of real time (the TestClock does not move on
 * its own, so a regression that hangs fails fast with a clear message instead of hitting the test timeout).
 */
export const joinPromptly = <A, E>(
  fiber: Fiber.Fiber<A, E>,
  within: Duration.DurationInput = "5 seconds"
): Effect.Effect<A, E> =>
  TestServices.provideWithLive(Fiber.join(fiber), (join) =>
    Effect.timeoutFailCause(join, {
      duration: within,
      onTimeout: () => Cause.die(new Error(`the request did not finish within ${String(within)} of real time`))
    })
  )

// --- Layers -----------------------------------------------------------------------------------------------

type Driverish = ProviderDriver | TestDriver

const toDriver = (d: Driverish): ProviderDriver => ("driver" in d ? d.driver : d)

/** Parts registering drivers, for `WebSearch.layer(...)`. */
export const registerAll = (drivers: ReadonlyArray<Driverish>): Layer.Layer<never, never, Composition.Composition> =>
  // In order, so the composed ids are listed in the order the test gives them.
  Composition.sequence(...drivers.map((d) => ProviderRegistry.register(toDriver(d))))

/** A quota part, or "default" for the registry's own in-memory quota. */
export type QuotaPart = Layer.Layer<never, never, Composition.Composition> | "default"

/**
 * The whole of websearch with these drivers (and any other parts) over a given settings layer; exposes
 * `Settings` too.
 */
export const layerWith = <E, R>(
  drivers: ReadonlyArray<Driverish>,
  settings: Layer.Layer<Settings.Settings, E, R>,
  // The pipeline tests run under the TestClock, where a published budget's wait would never end; the quota's own
  // tests (ProviderQuota.test.ts) pass theirs, or "default" for the registry's in-memory one.
  quota: QuotaPart = ProviderQuota.layerService(ProviderQuota.unlimited),
  parts: ReadonlyArray<Layer.Layer<never, never, Composition.Composition>> = []
): Layer.Layer<WebSearch.WebSearch | Settings.Settings, E | WebSearchError.Unavailable, R> =>
  WebSearch.layer(
    registerAll(drivers),
    bundleDefaults(drivers),
    quota === "default" ? Layer.empty : quota,
    ...parts
  ).pipe(Layer.provideMerge(settings))

/** The defaults the CLI's bundle proposes (DuckDuckGo for search, the local fetcher for URLs), when composed. */
const bundleDefaults = (drivers: ReadonlyArray<Driverish>): Layer.Layer<never, never, Composition.Composition> => {
  const ids = new Set(drivers.map((d) => toDriver(d).preset.id))
  return ProviderRegistry.proposeDefaults("test bundle", {
    ...(ids.has("duckduckgo") ? { searchKeywords: "duckduckgo" } : {}),
    ...(ids.has("fetch") ? { fetchUrls: "fetch" } : {})
  })
}

/** The whole of websearch with these drivers and settings from code. */
export const layer = (
  drivers: ReadonlyArray<Driverish>,
  settings: Settings.SettingsInput = {},
  quota?: QuotaPart,
  parts?: ReadonlyArray<Layer.Layer<never, never, Composition.Composition>>
): Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable> =>
  layerWith(drivers, Settings.layer(settings), quota, parts)

// --- Logs -------------------------------------------------------------------------------------------------

/** One captured log entry: its level, message text, annotations and a full text rendering. */
export interface LogEntry {
  readonly level: LogLevel.LogLevel["label"]
  readonly message: string
  readonly annotations: Readonly<Record<string, unknown>>
  /** Everything the entry carries, rendered as text (logfmt line, message parts with stacks, cause). */
  readonly text: string
}

const renderPart = (part: unknown): string =>
  part instanceof Error ? `${part.name}: ${part.message}\n${part.stack ?? ""}` : String(part)

/**
 * A logger that captures every entry (at every level) into `entries`, replacing the default logger.
 * Provide `capture.layer` to the effect under test.
 */
export const captureLogs = (): { readonly entries: Array<LogEntry>; readonly layer: Layer.Layer<never> } => {
  const entries: Array<LogEntry> = []
  const logger = Logger.make<unknown, void>((options) => {
    const parts = Array.isArray(options.message) ? (options.message as ReadonlyArray<unknown>) : [options.message]
    const annotations = Object.fromEntries(HashMap.toEntries(options.annotations))
    entries.push({
      level: options.logLevel.label,
      message: parts.map(renderPart).join(" "),
      annotations,
      text: [
        Logger.logfmtLogger.log(options),
        ...parts.map(renderPart),
        JSON.stringify(annotations),
        Cause.isEmpty(options.cause) ? "" : Cause.pretty(options.cause)
      ].join("\n")
    })
  })
  return {
    entries,
    layer: Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(LogLevel.All))
  }
}
