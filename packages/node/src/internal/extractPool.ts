/**
 * A small pool of worker threads that run the extractor on big bodies, so one huge page cannot stall the event
 * loop of the process that fetched it. Workers start on first use, run one job at a time, are terminated when a
 * job's fiber is interrupted (a hostile page that takes forever stops costing CPU once its timeout fires), exit
 * after `idleMillis` without a job (each holds tens of MiB of heap; the next job starts one again), and all
 * terminate when the pool's scope closes. At most `size` jobs run at once. Heavy jobs (a body of `heavyBytes` or
 * more, a PDF) run on workers of their own and never hold more than `size - 1` turns (the one turn when `size` is
 * 1), so with two workers or more an ordinary page always has one; on Linux the heavy workers run at the lowest
 * priority, so an ordinary page also wins the CPU from a heavy one. While both kinds arrive, up to `2 × size - 1`
 * workers exist (2 when `size` is 1).
 *
 * The worker entry sits beside the running module with the running module's extension: `extractWorker.ts` from
 * sources (started with the tsx loader), `extractWorker.js` from a tsc build, and `extractWorker.mjs` beside the
 * CLI's esbuild bundle, which builds it as a second entry point.
 */
import type * as Extract from "@websearch/extract/Extract"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as ContentKind from "@websearch/extract/internal/contentKind"
import * as ExtractPlain from "@websearch/extract/internal/extractPlain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Scope from "effect/Scope"
import { createRequire } from "node:module"
import { availableParallelism } from "node:os"
import { pathToFileURL } from "node:url"
import * as ExtractJob from "./extractJob.js"
import * as TransportError from "./transportError.js"
import * as WorkerSlots from "./workerSlots.js"
import * as WorkerTurns from "./workerTurns.js"

/** What the pool sends a worker (see `extractJob`). */
export type Job = ExtractJob.Job

/** What a worker answers (see `extractJob`). */
export type Reply = ExtractJob.Reply

/** How an extraction fails: the body is unreadable, or (a PDF bomb) decodes to more than is allowed. */
export type Failure = WebSearchError.ResponseInvalid | WebSearchError.RequestFailed

/**
 * A PDF refused by `PdfBudget` (its streams decode to more than `PdfBudget.maxDecodedBytes`, or hide what they
 * decode to); `why` completes "the PDF at … was not read:".
 */
export const tooLarge = (url: string, why: string): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed("too_large", `the PDF at ${TransportError.describe(url)} was not read: ${why}`)

/** Where the worker code lives and how to start it. */
export type Entry = WorkerSlots.Entry

/** The default entry (see the module documentation). */
export const defaultEntry = (): Entry => {
  const here = import.meta.url
  const extension = /\.(ts|mts|js|mjs|cjs)$/.exec(new URL(here).pathname)?.[1] ?? "js"
  const url = new URL(`./extractWorker.${extension}`, here)
  if (extension !== "ts" && extension !== "mts") return { url, execArgv: [] }
  // Sources run under a TypeScript loader (vitest, tsx), and the worker needs one too. On Node 20 a worker's
  // `--import` hooks register too late for its own entry, so a small bootstrap registers tsx, then imports it.
  // The worker resolves the workspace packages to their sources too (their `@websearch/source` export condition).
  const require = createRequire(here)
  const manifestPath = require.resolve("tsx/package.json")
  const manifest = require(manifestPath) as { exports: Record<string, { import: { default: string } }> }
  const api = new URL(manifest.exports["./esm/api"].import.default, pathToFileURL(manifestPath)).href
  const bootstrap = `import { register } from ${JSON.stringify(api)}; register(); await import(${JSON.stringify(url.href)});`
  return {
    url: new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`),
    execArgv: ["--conditions=@websearch/source"]
  }
}

/**
 * The default number of workers: one fewer than the CPUs, between 2 and 4. Never one: a single worker is one
 * hostile page away from making every other caller wait for its deadline.
 */
export const defaultSize = (): number => Math.min(4, Math.max(2, availableParallelism() - 1))

/**
 * How long a worker may wait for a job before it exits: 30 s. An idle worker holds 45–55 MiB (its own heap and
 * the extractor's modules) for nothing; a server between bursts gives that back, and the next burst pays one
 * worker start (a few hundred ms), once per worker.
 */
export const defaultIdleMillis = 30_000

/**
 * @since 0.1.0
 */
export interface Options {
  readonly size: number
  readonly entry: Entry
  /** How long a worker may sit idle before it exits; `defaultIdleMillis` when absent. */
  readonly idleMillis?: number | undefined
}

/**
 * @since 0.1.0
 */
export interface Pool {
  /** Extracts in a worker; falls back to the calling thread when workers cannot start here. */
  readonly extract: (job: Job) => Effect.Effect<Extract.Document, Failure>
  /** How many workers exist now (for tests and metrics). */
  readonly size: () => number
}

/**
 * Extraction on the calling thread: small bodies, or when workers cannot start here. Text, markdown and JSON go
 * through `ExtractPlain`, which never loads the DOM extractor (compiling it would stall this event loop for tens
 * of milliseconds in the middle of serving); anything else loads the whole extractor.
 */
export const inline = (job: Job): Effect.Effect<Extract.Document, Failure> =>
  Effect.suspend(() => {
    if (ExtractPlain.isPlain(kindOf(job))) {
      return Either.mapLeft(ExtractPlain.extractSync(view(job), options(job)), (failure) =>
        WebSearchError.responseInvalid(failure.reason, failure.message, { input: job.url })
      ).pipe(withExtractSpan(job))
    }
    const refusal = pdfRefusal(job)
    return refusal === undefined ? inlineExtract(job) : Effect.fail(tooLarge(job.url, refusal))
  })

/** The span `Extract.extract` gives an extraction, for the ones on this thread that go around it. */
export const withExtractSpan =
  (job: Job) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withSpan(effect, "websearch.extract", {
      captureStackTrace: false,
      attributes: {
        "websearch.content_type": ContentKind.mediaType(job.contentType) ?? "",
        "websearch.bytes": job.body.length
      }
    })

// `undefined` when classifying throws: the whole extractor then says why.
const kindOf = (job: Job): ContentKind.Kind | undefined => {
  try {
    return ContentKind.classify(job.contentType, job.body, job.url)
  } catch {
    return undefined
  }
}

/**
 * Bodies of at least this many bytes are heavy: 1 MiB. Extracting one holds a worker for a tenth of a second or
 * more (a 3 MiB page with one huge attribute: about 90 ms of extraction, after its copy and decoding), where an
 * ordinary page takes around 10 ms.
 */
export const heavyBytes = 1024 * 1024

/**
 * Whether a job is heavy: a body of {@link heavyBytes} or more, or any PDF (PDF.js is slow on big documents, and
 * its bomb check walks every compressed stream). Heavy jobs never hold every turn of two or more (see `workerTurns`).
 */
export const isHeavy = (job: Job): boolean => job.body.length >= heavyBytes || kindOf(job) === "pdf"

/** Why a job's PDF is refused before PDF.js sees it; `undefined` when it is not (see `ExtractJob.pdfRefusal`). */
export const pdfRefusal = ExtractJob.pdfRefusal

// The extractor (its DOM, Readability, the markdown rules: about 20 MiB of a server's idle RSS) loads on the first
// job extracted on this thread: a server whose pages all go to workers never loads it here.
let extractor: Promise<typeof Extract> | undefined
/** The whole extractor, loaded once on this thread. */
export const loadExtractor = (): Promise<typeof Extract> => (extractor ??= import("@websearch/extract/Extract"))

/** What the extractor is given for a job: a Node Buffer is a Uint8Array, but PDF.js refuses one, so a plain view. */
export const view = (job: Job): Extract.Input => ({
  body: new Uint8Array(job.body.buffer, job.body.byteOffset, job.body.byteLength),
  contentType: job.contentType,
  url: job.url
})

/** The extractor's options for a job. */
export const options = (job: Job): Extract.Options | undefined =>
  job.maxChars === undefined ? undefined : { maxChars: job.maxChars }

const inlineExtract = (job: Job): Effect.Effect<Extract.Document, Failure> =>
  Effect.flatMap(Effect.promise(loadExtractor), (loaded) => loaded.extract(view(job), options(job)))

/** A throw inside the extractor in a worker: a bug of ours, raised as a defect. */
export class ExtractorDefect extends Error {
  readonly _tag = "ExtractorDefect"
  constructor(message: string) {
    super(message)
    this.name = "ExtractorDefect"
  }
}

// A worker that crashes or exits mid-job ran out of its heap or was killed on a page: the page is unreadable.
const failed = (message: string) => WebSearchError.responseInvalid("parse_failed", message)

/** Builds a pool; nothing starts until the first job. */
export const make: (options: Options) => Effect.Effect<Pool, never, Scope.Scope> = Effect.fnUntraced(function* (
  options: Options
) {
  const slots = yield* WorkerSlots.make(options.entry, options.idleMillis ?? defaultIdleMillis)
  let unusable: string | undefined
  const turns = WorkerTurns.make(Math.max(1, options.size))

  const runOn = (slot: WorkerSlots.Slot, job: Job): Effect.Effect<Extract.Document, Failure> =>
    Effect.async<Extract.Document, Failure | StartFailed>((resume) => {
      const { worker } = slot
      let settled = false
      const finish = (outcome: Effect.Effect<Extract.Document, Failure | StartFailed>) => {
        if (settled) return
        settled = true
        worker.off("message", onMessage)
        worker.off("error", onError)
        worker.off("exit", onExit)
        resume(outcome)
      }
      const onMessage = (reply: Reply) => {
        switch (reply._tag) {
          case "Ready":
            slot.ready = true
            return
          case "Done":
            slots.park(slot)
            return finish(Effect.succeed(reply.document))
          case "Invalid":
            slots.park(slot)
            return finish(Effect.fail(WebSearchError.responseInvalid(reply.reason, reply.message)))
          case "TooLarge":
            slots.park(slot)
            return finish(Effect.fail(tooLarge(job.url, reply.message)))
          case "Defect":
            // The extractor never throws for a page (its failures are `Invalid`): a throw is a bug of ours, and
            // stays a defect rather than passing for an unreadable page.
            slots.discard(slot)
            return finish(
              Effect.die(
                new ExtractorDefect(`the extractor threw on ${TransportError.describe(job.url)}: ${reply.message}`)
              )
            )
        }
      }
      const onError = (error: Error) => {
        const starting = !slot.ready
        slots.discard(slot)
        finish(
          Effect.fail(
            starting
              ? new StartFailed(error.message)
              : failed(`the extraction worker for ${job.url} failed: ${error.message}`)
          )
        )
      }
      const onExit = (code: number) => {
        slots.discard(slot)
        finish(Effect.fail(failed(`the extraction worker for ${job.url} exited (code ${code})`)))
      }
      worker.on("message", onMessage)
      worker.on("error", onError)
      worker.on("exit", onExit)
      worker.ref()
      // A copy of exactly the body is transferred: the response body may be a Buffer, whose slice() is a view
      // into memory shared with other buffers, and transferring that would detach them all.
      const body = new Uint8Array(job.body)
      const message: Job = { body, contentType: job.contentType, url: job.url, maxChars: job.maxChars }
      worker.postMessage(message, [body.buffer])
      return Effect.sync(() => {
        settled = true
        slots.discard(slot)
      })
    }).pipe(
      Effect.catchIf(
        (error): error is StartFailed => error instanceof StartFailed,
        (error) => fallBack(job, error.message)
      )
    )

  const fallBack = (job: Job, message: string) => {
    if (unusable === undefined) unusable = message
    return Effect.logWarning(
      `websearch: extraction workers cannot start (${message}); extracting on the main thread`
    ).pipe(Effect.zipRight(inline(job)))
  }

  const next = (job: Job, heavy: boolean) =>
    Effect.suspend(() => {
      let slot: WorkerSlots.Slot
      try {
        slot = slots.take(heavy)
      } catch (error) {
        // An entry Node cannot even try to load (a bad URL, a missing file on some versions) throws here.
        return fallBack(job, error instanceof Error ? error.message : "unknown error")
      }
      return runOn(slot, job)
    })

  const extract = (job: Job) =>
    Effect.suspend(() => {
      if (unusable !== undefined || slots.closed()) return inline(job)
      const heavy = isHeavy(job)
      return turns.withTurn(
        job.group,
        heavy,
        Effect.zipRight(
          Effect.logDebug(`websearch: extracting ${job.body.length} bytes of ${job.url} on a worker thread`),
          next(job, heavy)
        )
      )
    }).pipe(
      Effect.withSpan("websearch.fetch.extract.worker", {
        captureStackTrace: false,
        attributes: { "websearch.bytes": job.body.length }
      })
    )

  return { extract, size: slots.size }
})

class StartFailed {
  readonly _tag = "StartFailed"
  constructor(readonly message: string) {}
}
