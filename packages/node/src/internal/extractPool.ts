/**
 * A small pool of worker threads that run the extractor on big bodies, so one huge page cannot stall the event
 * loop of the process that fetched it. Workers start on first use, run one job at a time, are terminated when a
 * job's fiber is interrupted (a hostile page that takes forever stops costing CPU once its timeout fires), exit
 * after `idleMillis` without a job (each holds tens of MiB of heap; the next job starts one again), and all
 * terminate when the pool's scope closes.
 *
 * The worker entry sits beside the running module with the running module's extension: `extractWorker.ts` from
 * sources (started with the tsx loader), `extractWorker.js` from a tsc build, and `extractWorker.mjs` beside the
 * CLI's esbuild bundle, which builds it as a second entry point.
 */
import type * as Extract from "@websearch/extract/Extract"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createRequire } from "node:module"
import { availableParallelism } from "node:os"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import * as ExtractJob from "./extractJob.js"
import * as PdfBudget from "./pdfBudget.js"
import * as TransportError from "./transportError.js"

/** What the pool sends a worker (see `extractJob`). */
export type Job = ExtractJob.Job

/** What a worker answers (see `extractJob`). */
export type Reply = ExtractJob.Reply

/** How an extraction fails: the body is unreadable, or (a PDF bomb) decodes to more than is allowed. */
export type Failure = WebSearchError.ResponseInvalid | WebSearchError.RequestFailed

/** A PDF whose compressed streams decode to more than `PdfBudget.maxDecodedBytes`. */
export const tooLarge = (url: string): WebSearchError.RequestFailed =>
  WebSearchError.requestFailed(
    "too_large",
    `the PDF at ${TransportError.describe(url)} decodes to more than ${PdfBudget.maxDecodedBytes} bytes; it was not read`
  )

/** Where the worker code lives and how to start it. */
export interface Entry {
  readonly url: URL
  readonly execArgv: ReadonlyArray<string>
}

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

/** A worker's heap limit: a page that explodes in memory kills its worker, not the process. */
const maxOldGenerationSizeMb = 1024

/**
 * A worker's young generation, MiB. V8 sizes it for a main thread (up to 3 × 16 MiB), and a worker extracting
 * page after page grows it to that, each worker on its own: 60–70 MiB of heap for 20–35 MiB live. At 8 MiB a
 * worker's heap stays near 40 MiB; extraction's garbage dies young either way, so the extra scavenges cost about
 * 5% of its CPU (measured on the bench article, 300 extractions).
 */
const maxYoungGenerationSizeMb = 8

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

interface Slot {
  readonly worker: Worker
  ready: boolean
  /** Ends the worker once it has been idle for `idleMillis`; set while the slot is idle. */
  retire: ReturnType<typeof setTimeout> | undefined
}

/** Extraction on the calling thread: small bodies, or when workers cannot start here. */
export const inline = (job: Job): Effect.Effect<Extract.Document, Failure> =>
  Effect.flatMap(
    Effect.promise(() => isPdfBomb(job)),
    (bomb) => (bomb ? Effect.fail(tooLarge(job.url)) : inlineExtract(job))
  )

/** Whether a job is a PDF whose streams decode beyond the budget (checked before PDF.js sees it). */
export const isPdfBomb = ExtractJob.isPdfBomb

// The extractor (its DOM, Readability, the markdown rules: about 20 MiB of a server's idle RSS) loads on the first
// job extracted on this thread: a server whose pages all go to workers never loads it here.
let extractor: Promise<typeof Extract> | undefined
const loadExtractor = () => (extractor ??= import("@websearch/extract/Extract"))

const pick = ({ contentType, url }: Job) => ({ contentType, url })

const inlineExtract = (job: Job): Effect.Effect<Extract.Document, Failure> =>
  Effect.flatMap(Effect.promise(loadExtractor), (loaded) =>
    loaded.extract(
      // A Node Buffer is a Uint8Array, but PDF.js refuses one: hand the extractor a plain view of the same bytes.
      { body: new Uint8Array(job.body.buffer, job.body.byteOffset, job.body.byteLength), ...pick(job) },
      job.maxChars === undefined ? undefined : { maxChars: job.maxChars }
    )
  )

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
export const make = (options: Options): Effect.Effect<Pool, never, Scope.Scope> =>
  Effect.gen(function* () {
    const all = new Set<Slot>()
    const idle: Array<Slot> = []
    let unusable: string | undefined
    let closed = false
    const turns = makeTurns(Math.max(1, options.size))
    const idleMillis = options.idleMillis ?? defaultIdleMillis

    const discard = (slot: Slot) => {
      clearTimeout(slot.retire)
      slot.retire = undefined
      all.delete(slot)
      const at = idle.indexOf(slot)
      if (at !== -1) idle.splice(at, 1)
      void slot.worker.terminate()
    }

    /** A worker done with its job waits for the next one, and exits when none comes in time. */
    const park = (slot: Slot) => {
      slot.worker.unref()
      if (closed) return
      idle.push(slot)
      slot.retire = setTimeout(() => discard(slot), idleMillis)
      // The timer must not keep the process alive either.
      slot.retire.unref()
    }

    /** The most recently parked worker (the others age out under light load), or none. */
    const unpark = (): Slot | undefined => {
      const slot = idle.pop()
      if (slot !== undefined) {
        clearTimeout(slot.retire)
        slot.retire = undefined
      }
      return slot
    }

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closed = true
        for (const slot of [...all]) discard(slot)
      })
    )

    const spawn = (): Slot => {
      const worker = new Worker(options.entry.url, {
        execArgv: [...options.entry.execArgv],
        resourceLimits: { maxOldGenerationSizeMb, maxYoungGenerationSizeMb },
        stdout: false,
        stderr: false
      })
      // Idle workers must not keep the process alive; a worker is ref'd only while it runs a job.
      worker.unref()
      const slot: Slot = { worker, ready: false, retire: undefined }
      all.add(slot)
      // A worker that dies while idle leaves the pool, and an error it raises then has a listener, so it never
      // becomes an uncaught exception; a running job has listeners of its own.
      worker.on("error", () => {})
      worker.once("exit", () => discard(slot))
      return slot
    }

    const runOn = (slot: Slot, job: Job): Effect.Effect<Extract.Document, Failure> =>
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
              park(slot)
              return finish(Effect.succeed(reply.document))
            case "Invalid":
              park(slot)
              return finish(Effect.fail(WebSearchError.responseInvalid(reply.reason, reply.message)))
            case "TooLarge":
              park(slot)
              return finish(Effect.fail(tooLarge(job.url)))
            case "Defect":
              // The extractor never throws for a page (its failures are `Invalid`): a throw is a bug of ours, and
              // stays a defect rather than passing for an unreadable page.
              discard(slot)
              return finish(
                Effect.die(
                  new ExtractorDefect(`the extractor threw on ${TransportError.describe(job.url)}: ${reply.message}`)
                )
              )
          }
        }
        const onError = (error: Error) => {
          const starting = !slot.ready
          discard(slot)
          finish(
            Effect.fail(
              starting
                ? new StartFailed(error.message)
                : failed(`the extraction worker for ${job.url} failed: ${error.message}`)
            )
          )
        }
        const onExit = (code: number) => {
          discard(slot)
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
          discard(slot)
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

    const next = (job: Job) =>
      Effect.suspend(() => {
        let slot: Slot
        try {
          slot = unpark() ?? spawn()
        } catch (error) {
          // An entry Node cannot even try to load (a bad URL, a missing file on some versions) throws here.
          return fallBack(job, error instanceof Error ? error.message : "unknown error")
        }
        return runOn(slot, job)
      })

    const extract = (job: Job) =>
      Effect.suspend(() =>
        unusable !== undefined || closed
          ? inline(job)
          : turns.withTurn(
              job.group,
              Effect.zipRight(
                Effect.logDebug(`websearch: extracting ${job.body.length} bytes of ${job.url} on a worker thread`),
                next(job)
              )
            )
      ).pipe(
        Effect.withSpan("websearch.fetch.extract.worker", {
          captureStackTrace: false,
          attributes: { "websearch.bytes": job.body.length }
        })
      )

    return { extract, size: () => all.size }
  })

class StartFailed {
  readonly _tag = "StartFailed"
  constructor(readonly message: string) {}
}

interface Group {
  readonly queue: Array<Waiter>
  running: number
  /** When this group was last given a turn (a counter); -1 for never. */
  served: number
}

interface Waiter {
  resume: (() => void) | undefined
  group: Group | undefined
}

/**
 * Turns on the workers, shared fairly: when a worker is free, the waiting group served least recently goes next
 * (a group that never had a turn first), each group in the order its jobs came. A request that sends many slow
 * pages then delays another request's page by the jobs already running, not by its whole backlog. A wait is
 * interruptible (a job whose deadline passes while queued leaves the queue); a turn granted to a fiber
 * interrupted at that moment is given back.
 */
const makeTurns = (size: number) => {
  let busy = 0
  let waiting = 0
  let clock = 0
  const groups = new Map<unknown, Group>()

  const grant = (group: Group, waiter: Waiter) => {
    busy++
    group.running++
    group.served = clock++
    waiter.group = group
  }

  const forget = (key: unknown, group: Group) => {
    if (group.running === 0 && group.queue.length === 0) groups.delete(key)
  }

  const dispatch = () => {
    while (busy < size && waiting > 0) {
      let next: Group | undefined
      for (const group of groups.values()) {
        if (group.queue.length > 0 && (next === undefined || group.served < next.served)) next = group
      }
      const waiter = next!.queue.shift()!
      waiting--
      grant(next!, waiter)
      waiter.resume?.()
    }
  }

  const acquire = (key: unknown, waiter: Waiter) =>
    Effect.async<void>((resume) => {
      let group = groups.get(key)
      if (group === undefined) {
        group = { queue: [], running: 0, served: -1 }
        groups.set(key, group)
      }
      if (busy < size && waiting === 0) {
        grant(group, waiter)
        return resume(Effect.void)
      }
      waiter.resume = () => resume(Effect.void)
      group.queue.push(waiter)
      waiting++
      const queued = group
      return Effect.sync(() => {
        if (waiter.group !== undefined) return
        const at = queued.queue.indexOf(waiter)
        if (at === -1) return
        queued.queue.splice(at, 1)
        waiting--
        forget(key, queued)
      })
    })

  const release = (key: unknown, waiter: Waiter) =>
    Effect.sync(() => {
      const group = waiter.group
      if (group === undefined) return
      waiter.group = undefined
      busy--
      group.running--
      forget(key, group)
      dispatch()
    })

  const withTurn = <A, E, R>(group: unknown, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) => {
      const waiter: Waiter = { resume: undefined, group: undefined }
      // A job without a group is a group of its own.
      const key = group === undefined ? waiter : group
      return restore(acquire(key, waiter)).pipe(
        // Interrupted just as the turn came: give it back.
        Effect.onInterrupt(() => release(key, waiter)),
        Effect.zipRight(Effect.ensuring(restore(effect), release(key, waiter)))
      )
    })

  return { withTurn }
}
