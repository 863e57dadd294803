/**
 * The extraction pool's worker threads: spawned on demand per lane (heavy or ordinary jobs), parked when done with
 * a job, ended after `idleMillis` idle (an idle worker holds its own heap and the extractor's modules), and all
 * ended when the pool's scope closes. A worker is ref'd only while it runs a job, so idle workers and their timers
 * never keep the process alive.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { Worker } from "node:worker_threads"
import type * as ExtractJob from "./extractJob.js"

/** Where the worker code lives and how to start it. */
export interface Entry {
  readonly url: URL
  readonly execArgv: ReadonlyArray<string>
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

/** One worker of the pool. */
export interface Slot {
  readonly worker: Worker
  /** Whether it runs heavy jobs (at the lowest priority) or ordinary ones. */
  readonly heavy: boolean
  ready: boolean
  /** Ends the worker once it has been idle for `idleMillis`; set while the slot is idle. */
  retire: ReturnType<typeof setTimeout> | undefined
}

/** The workers of one pool. */
export interface Slots {
  /** The most recently parked worker of the lane, or a new one (which may throw: an entry Node cannot load). */
  readonly take: (heavy: boolean) => Slot
  /** A worker done with its job waits for the next one, and exits when none comes in time. */
  readonly park: (slot: Slot) => void
  /** Ends a worker and forgets it. */
  readonly discard: (slot: Slot) => void
  /** How many workers exist now. */
  readonly size: () => number
  /** Whether the pool's scope has closed. */
  readonly closed: () => boolean
}

/** The workers of a pool started from `entry`; they all end when the scope closes. */
export const make: (entry: Entry, idleMillis: number) => Effect.Effect<Slots, never, Scope.Scope> = Effect.fnUntraced(
  function* (entry: Entry, idleMillis: number) {
    const all = new Set<Slot>()
    const idle: Array<Slot> = []
    let closed = false

    const discard = (slot: Slot) => {
      clearTimeout(slot.retire)
      slot.retire = undefined
      all.delete(slot)
      const at = idle.indexOf(slot)
      if (at !== -1) idle.splice(at, 1)
      void slot.worker.terminate()
    }

    const park = (slot: Slot) => {
      slot.worker.unref()
      if (closed) return
      idle.push(slot)
      slot.retire = setTimeout(() => discard(slot), idleMillis)
      // The timer must not keep the process alive either.
      slot.retire.unref()
    }

    // The most recently parked worker of the lane (the others age out under light load), or none.
    const unpark = (heavy: boolean): Slot | undefined => {
      for (let at = idle.length - 1; at >= 0; at--) {
        const slot = idle[at]!
        if (slot.heavy !== heavy) continue
        idle.splice(at, 1)
        clearTimeout(slot.retire)
        slot.retire = undefined
        return slot
      }
      return undefined
    }

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closed = true
        for (const slot of [...all]) discard(slot)
      })
    )

    const spawn = (heavy: boolean): Slot => {
      const worker = new Worker(entry.url, {
        execArgv: [...entry.execArgv],
        workerData: { lane: heavy ? "heavy" : "light" } satisfies ExtractJob.WorkerData,
        resourceLimits: { maxOldGenerationSizeMb, maxYoungGenerationSizeMb },
        stdout: false,
        stderr: false
      })
      // Idle workers must not keep the process alive; a worker is ref'd only while it runs a job.
      worker.unref()
      const slot: Slot = { worker, heavy, ready: false, retire: undefined }
      all.add(slot)
      // A worker that dies while idle leaves the pool, and an error it raises then has a listener, so it never
      // becomes an uncaught exception; a running job has listeners of its own.
      worker.on("error", () => {})
      worker.once("exit", () => discard(slot))
      return slot
    }

    return {
      take: (heavy) => unpark(heavy) ?? spawn(heavy),
      park,
      discard,
      size: () => all.size,
      closed: () => closed
    }
  }
)
