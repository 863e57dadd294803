/**
 * Runs `map` and `crawl`. A map answers at once (its URLs on stdout, its summary on stderr, or one JSON object).
 * A crawl prints each page as it arrives — on stdout, with progress and failures on stderr, or one JSON object per
 * event under `--json` — and closes with its summary. Ctrl-C stops every fetch; what was printed stays, and a
 * closing summary (a `CrawlDone` line whose cut is `interrupted` under `--json`) says so, with exit code 130.
 */
import * as CrawlSite from "@websearch/core/CrawlSite"
import * as MapSite from "@websearch/core/MapSite"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import type * as Settings from "@websearch/core/Settings"
import * as SiteRequest from "@websearch/core/SiteRequest"
import type * as SiteResponse from "@websearch/core/SiteResponse"
import type * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Abort from "./abort.js"
import type * as Cli from "./cli.js"
import type * as CommandIo from "./io.js"
import * as Render from "./render.js"
import * as SiteArgs from "./siteArgs.js"
import * as SiteOutput from "./siteOutput.js"
import type * as Terminal from "./terminal.js"

/** A `map` or `crawl` command line. */
export type SiteCommand = Extract<Cli.Command, { _tag: "Map" | "Crawl" }>

/** What a site command runs on and where it prints. */
export interface Context {
  readonly io: CommandIo.Io
  readonly live: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable>
  readonly signal: AbortSignal | undefined
  readonly look: Terminal.Look
  readonly errLook: Terminal.Look
}

const exitCodes = { ok: 0, failed: 1, interrupted: 130 } as const

const providerOf = (command: SiteCommand) => (command.provider === undefined ? {} : { providerId: command.provider })

// A failure before anything was printed: the error (in flag words, as the request's fields came from flags).
const report = (command: SiteCommand, context: Context, failure: WebSearchError.WebSearchError): number => {
  const error = WebSearchError.annotate(failure, { message: SiteArgs.inFlagWords(failure.message) })
  if (command.json) context.io.stdout(`${Render.jsonFailure(error)}\n`)
  else context.io.stderr(Render.error(error, { look: context.errLook }))
  return error._tag === "Aborted" ? exitCodes.interrupted : exitCodes.failed
}

const unexpected = (cause: Cause.Cause<unknown>) =>
  WebSearchError.responseInvalid("parse_failed", `websearch failed unexpectedly: ${Cause.pretty(cause).split("\n")[0]}`)

const runMap = (command: Extract<SiteCommand, { _tag: "Map" }>, context: Context): Effect.Effect<number> =>
  MapSite.mapSite({ ...SiteArgs.request(command.site), ...providerOf(command) }).pipe(
    Effect.provide(context.live),
    Effect.raceFirst(Abort.on(context.signal)),
    Effect.map((map) => {
      if (command.json) context.io.stdout(`${Render.jsonSuccess(map)}\n`)
      else {
        context.io.stdout(SiteOutput.mapText(map, context.look))
        if (command.quiet !== true) context.io.stderr(SiteOutput.mapSummary(map, context.errLook))
      }
      return exitCodes.ok
    }),
    Effect.catchAll((error) => Effect.sync(() => report(command, context, error))),
    Effect.catchAllCause((cause) => Effect.sync(() => report(command, context, unexpected(cause))))
  )

const runCrawl = (command: Extract<SiteCommand, { _tag: "Crawl" }>, context: Context): Effect.Effect<number> =>
  Effect.suspend(() => {
    const { io } = context
    const state = { providerId: command.provider ?? "unknown", url: command.site.url, pages: 0, failed: 0 }
    const max = command.site.maxPages ?? SiteRequest.crawlLimits.defaultPages
    // On a terminal the pages themselves show the progress; when they go elsewhere (a file, a pipe), stderr does.
    const progress = !command.json && command.quiet !== true && io.stdoutIsTTY !== true
    const print = (event: SiteResponse.CrawlEvent) =>
      Effect.sync(() => {
        if (command.json) {
          if (event._tag === "CrawlPage") state.pages++
          if (event._tag === "CrawlFailure") state.failed++
          io.stdout(SiteOutput.eventLine(event))
          return
        }
        switch (event._tag) {
          case "CrawlPage":
            state.pages++
            io.stdout(SiteOutput.pageText(event, state.pages, context.look))
            if (progress) io.stderr(SiteOutput.progressText(event, state.pages + state.failed, max))
            return
          case "CrawlFailure":
            state.failed++
            io.stderr(SiteOutput.failureText(event, context.errLook))
            return
          case "CrawlDone":
            if (command.quiet !== true) io.stderr(SiteOutput.doneText(event, context.errLook))
        }
      })
    const crawl = Effect.gen(function* () {
      const registry = yield* ProviderRegistry.ProviderRegistry
      state.providerId = command.provider ?? registry.defaults.crawlSite ?? "unknown"
      yield* Stream.runForEach(
        CrawlSite.crawlSite({ ...SiteArgs.request(command.site), ...providerOf(command) }),
        print
      )
    })
    return crawl.pipe(
      Effect.provide(context.live),
      Effect.raceFirst(Abort.on(context.signal)),
      Effect.as(exitCodes.ok),
      Effect.catchAll((error) =>
        Effect.sync(() => {
          if (error._tag !== "Aborted") return report(command, context, error)
          // Ctrl-C: the pages already printed stay; the closing line says the crawl was stopped.
          if (command.json) io.stdout(SiteOutput.interruptedLine(state))
          else io.stderr(SiteOutput.interruptedText(state, context.errLook))
          return exitCodes.interrupted
        })
      ),
      Effect.catchAllCause((cause) => Effect.sync(() => report(command, context, unexpected(cause))))
    )
  })

/** Runs a `map` or `crawl` command line and returns its exit code. */
export const run = (command: SiteCommand, context: Context): Effect.Effect<number> =>
  command._tag === "Map" ? runMap(command, context) : runCrawl(command, context)
