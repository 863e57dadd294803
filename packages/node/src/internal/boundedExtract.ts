/**
 * Extraction of a small page on the calling thread within a time limit, for one-shot programs
 * (`Fetch.WorkerOptions.inlineMillis`): starting an extraction worker costs more than extracting a small page (a
 * thread with its own heap, and the extractor loaded into it: about 50 ms of CPU and 20 MiB), and such a program has
 * no event loop to keep free for others. Readability's time is not linear in the page, so no size of HTML is cheap
 * by itself: the call runs under `node:vm`'s watchdog, which stops the running JavaScript when the time is up, and
 * the page then goes to a worker as if it had gone there first (its deadline and interruption as before). Memory is
 * bounded by the size limit.
 *
 * A stop leaves whatever the extractor was changing as it was (a cache mid-update, a regular expression's position),
 * so after one, nothing more is extracted on this thread: every later page goes to the workers.
 */
import type * as Extract from "@websearch/extract/Extract"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { createContext, Script } from "node:vm"
import * as ExtractPool from "./extractPool.js"

/** Which pages are extracted on the calling thread, and for how long at most. */
export interface Limits {
  /** Bodies of more bytes go to a worker. */
  readonly maxBytes: number
  /** Wall-clock milliseconds one extraction may take before it is stopped and handed to a worker (1 at least). */
  readonly maxMillis: number
}

// Set by the first stop, for the life of the process: the extractor's module state is shared by every caller.
let stopped = false

// The watchdog runs a script; the script calls whatever `job` holds. One context serves every call.
interface Runner {
  readonly context: { job: (() => unknown) | undefined }
  readonly script: Script
}
let runner: Runner | undefined

const makeRunner = (): Runner => {
  const context: Runner["context"] = { job: undefined }
  createContext(context)
  return { context, script: new Script("job()") }
}

/** `f()` within `millis`, or none when it was stopped (or anything else escaped the call). */
const within = <A>(millis: number, f: () => A): Option.Option<A> => {
  runner ??= makeRunner()
  const { context, script } = runner
  context.job = f
  try {
    // The watchdog takes a whole number of milliseconds, 1 at least.
    return Option.some(script.runInContext(context, { timeout: Math.max(1, Math.ceil(millis)) }) as A)
  } catch {
    return Option.none()
  } finally {
    context.job = undefined
  }
}

// Whether a job may be tried on the calling thread: small enough, and not a PDF (parsed asynchronously, on a worker).
const eligible = (job: ExtractPool.Job, limits: Limits): boolean =>
  !stopped && job.body.length <= limits.maxBytes && !ExtractPool.isHeavy(job)

/**
 * Extracts an eligible job on the calling thread within `limits.maxMillis`, else with `otherwise` (the worker pool):
 * when the job is not eligible, when the time ran out, and from then on.
 */
export const extract = (
  job: ExtractPool.Job,
  limits: Limits,
  otherwise: (job: ExtractPool.Job) => Effect.Effect<Extract.Document, ExtractPool.Failure>
): Effect.Effect<Extract.Document, ExtractPool.Failure> =>
  Effect.suspend(() => {
    if (!eligible(job, limits)) return otherwise(job)
    return Effect.flatMap(attempt(job, limits.maxMillis), (done) => {
      if (Option.isSome(done)) return Either.match(done.value, { onLeft: Effect.fail, onRight: Effect.succeed })
      stopped = true
      return Effect.zipRight(
        Effect.logDebug(
          `websearch: extracting ${job.body.length} bytes of ${job.url} took over ${limits.maxMillis} ms on the ` +
            "calling thread; it and every later page go to a worker thread"
        ),
        otherwise(job)
      )
    })
  })

// One try on the calling thread, under the span the extractor gives every kind (`Extract.extract`).
const attempt = (job: ExtractPool.Job, millis: number) =>
  Effect.flatMap(Effect.promise(ExtractPool.loadExtractor), (extractor) =>
    Effect.sync(() => within(millis, () => extractor.extractSync(ExtractPool.view(job), ExtractPool.options(job))))
  ).pipe(ExtractPool.withExtractSpan(job))
