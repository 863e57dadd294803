/**
 * A small pool of worker threads that run the extractor on big bodies, so one huge page cannot stall the event
 * loop of the process that fetched it. Workers start on first use, run one job at a time, are terminated when a
 * job's fiber is interrupted (a hostile page that takes forever stops costing CPU once its timeout fires), and
 * all terminate when the pool's scope closes.
 *
 * The worker entry sits beside the running module with the running module's extension: `extractWorker.ts` from
 * sources (started with the tsx loader), `extractWorker.js` from a tsc build, and `extractWorker.mjs` beside the
 * CLI's esbuild bundle, which builds it as a second entry point.
 */
import * as Extract from "@websearch/extract/Extract"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createRequire } from "node:module"
import { availableParallelism } from "node:os"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"

/** What the pool sends a worker. */
export interface Job {
  readonly body: Uint8Array
  readonly contentType: string | undefined
  readonly url: string
  readonly maxChars: number | undefined
}

/** What a worker answers: once `Ready` after its modules loaded, then one reply per job. */
export type Reply =
  | { readonly _tag: "Ready" }
  | { readonly _tag: "Done"; readonly document: Extract.Document }
  | { readonly _tag: "Invalid"; readonly reason: WebSearchError.ResponseInvalidReason; readonly message: string }
  | { readonly _tag: "Defect"; readonly message: string }

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

/** The default number of workers: one fewer than the CPUs, between 1 and 4. */
export const defaultSize = (): number => Math.min(4, Math.max(1, availableParallelism() - 1))

/**
 * @since 0.1.0
 */
export interface Options {
  readonly size: number
  readonly entry: Entry
}

/**
 * @since 0.1.0
 */
export interface Pool {
  /** Extracts in a worker; falls back to the calling thread when workers cannot start here. */
  readonly extract: (job: Job) => Effect.Effect<Extract.Document, WebSearchError.ResponseInvalid>
  /** How many workers exist now (for tests and metrics). */
  readonly size: () => number
}

interface Slot {
  readonly worker: Worker
  ready: boolean
}

/** Extraction on the calling thread: small bodies, or when workers cannot start here. */
export const inline = (job: Job): Effect.Effect<Extract.Document, WebSearchError.ResponseInvalid> =>
  Extract.extract(
    // A Node Buffer is a Uint8Array, but PDF.js refuses one: hand the extractor a plain view of the same bytes.
    {
      body: new Uint8Array(job.body.buffer, job.body.byteOffset, job.body.byteLength),
      contentType: job.contentType,
      url: job.url
    },
    job.maxChars === undefined ? undefined : { maxChars: job.maxChars }
  )

const failed = (message: string) => WebSearchError.responseInvalid("parse_failed", message)

/** Builds a pool; nothing starts until the first job. */
export const make = (options: Options): Effect.Effect<Pool, never, Scope.Scope> =>
  Effect.gen(function* () {
    const all = new Set<Slot>()
    const idle: Array<Slot> = []
    let unusable: string | undefined
    let closed = false
    const permits = yield* Effect.makeSemaphore(Math.max(1, options.size))

    const discard = (slot: Slot) => {
      all.delete(slot)
      const at = idle.indexOf(slot)
      if (at !== -1) idle.splice(at, 1)
      void slot.worker.terminate()
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
        resourceLimits: { maxOldGenerationSizeMb },
        stdout: false,
        stderr: false
      })
      // Idle workers must not keep the process alive; a worker is ref'd only while it runs a job.
      worker.unref()
      const slot: Slot = { worker, ready: false }
      all.add(slot)
      // A worker that dies while idle leaves the pool, and an error it raises then has a listener, so it never
      // becomes an uncaught exception; a running job has listeners of its own.
      worker.on("error", () => {})
      worker.once("exit", () => discard(slot))
      return slot
    }

    const runOn = (slot: Slot, job: Job): Effect.Effect<Extract.Document, WebSearchError.ResponseInvalid> =>
      Effect.async<Extract.Document, WebSearchError.ResponseInvalid | StartFailed>((resume) => {
        const { worker } = slot
        let settled = false
        const finish = (outcome: Effect.Effect<Extract.Document, WebSearchError.ResponseInvalid | StartFailed>) => {
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
              worker.unref()
              if (!closed) idle.push(slot)
              return finish(Effect.succeed(reply.document))
            case "Invalid":
              worker.unref()
              if (!closed) idle.push(slot)
              return finish(Effect.fail(WebSearchError.responseInvalid(reply.reason, reply.message)))
            case "Defect":
              discard(slot)
              return finish(Effect.fail(failed(`the extractor failed on ${job.url}: ${reply.message}`)))
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
        worker.postMessage({ ...job, body } satisfies Job, [body.buffer])
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
          slot = idle.pop() ?? spawn()
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
          : permits.withPermits(1)(
              Effect.zipRight(
                Effect.logDebug(`websearch: extracting ${job.body.length} bytes of ${job.url} on a worker thread`),
                next(job)
              )
            )
      ).pipe(Effect.withSpan("websearch.fetch.extract.worker", { attributes: { "websearch.bytes": job.body.length } }))

    return { extract, size: () => all.size }
  })

class StartFailed {
  readonly _tag = "StartFailed"
  constructor(readonly message: string) {}
}
