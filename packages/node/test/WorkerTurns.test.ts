import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Fiber from "effect/Fiber"
import * as WorkerTurns from "../src/internal/workerTurns.js"

interface Job {
  readonly id: number
  readonly group: string
  readonly heavy: boolean
  readonly done: Deferred.Deferred<void>
  readonly fiber: Fiber.RuntimeFiber<void>
}

// Lets every fiber that can run, run: a turn granted on release resumes its waiter in the same tick.
const settle = Effect.repeatN(Effect.yieldNow(), 20)

/** A pool of `size` turns whose jobs run until the test finishes them; `running` is what holds a turn now. */
const harness = (size: number) =>
  Effect.sync(() => {
    const turns = WorkerTurns.make(size)
    const running = new Set<Job>()
    const jobs: Array<Job> = []
    const arrive = (group: string, heavy: boolean) =>
      Effect.gen(function* () {
        const done = yield* Deferred.make<void>()
        const job = { id: jobs.length, group, heavy, done } as Omit<Job, "fiber"> as Job
        const body = Effect.acquireUseRelease(
          Effect.sync(() => running.add(job)),
          () => Deferred.await(done),
          () => Effect.sync(() => running.delete(job))
        )
        ;(job as { fiber: Fiber.RuntimeFiber<void> }).fiber = yield* Effect.fork(turns.withTurn(group, heavy, body))
        jobs.push(job)
        yield* settle
        return job
      })
    const finish = (job: Job) => Effect.zipRight(Deferred.succeed(job.done, undefined), settle)
    const waiting = () => jobs.filter((job) => !running.has(job) && job.fiber.unsafePoll() === null)
    return { running, jobs, arrive, finish, waiting }
  })

describe("worker turns", () => {
  it.effect("heavy jobs never hold the last worker: an ordinary page goes at once while a big one waits", () =>
    Effect.gen(function* () {
      const pool = yield* harness(2)
      const big1 = yield* pool.arrive("a", true)
      const big2 = yield* pool.arrive("b", true)
      // One worker is free, and it stays free for an ordinary page.
      expect([...pool.running]).toEqual([big1])
      const small = yield* pool.arrive("c", false)
      expect(new Set(pool.running)).toEqual(new Set([big1, small]))
      yield* pool.finish(big1)
      expect(new Set(pool.running)).toEqual(new Set([big2, small]))
      yield* pool.finish(small)
      yield* pool.finish(big2)
      expect(pool.running.size).toBe(0)
    })
  )

  it.effect("ordinary jobs go past a heavy one waiting for its share, their own request's included", () =>
    Effect.gen(function* () {
      const pool = yield* harness(2)
      const big = yield* pool.arrive("a", true)
      const blocked = yield* pool.arrive("a", true)
      // The same request's ordinary page, behind its waiting heavy one, takes the free worker.
      const light = yield* pool.arrive("a", false)
      expect(new Set(pool.running)).toEqual(new Set([big, light]))
      expect(pool.waiting()).toEqual([blocked])
      yield* pool.finish(light)
      const other = yield* pool.arrive("b", false)
      expect(new Set(pool.running)).toEqual(new Set([big, other]))
      // Interrupting the waiting heavy job takes it out of the queue.
      yield* Fiber.interrupt(blocked.fiber)
      yield* pool.finish(big)
      yield* pool.finish(other)
      expect(pool.running.size).toBe(0)
      expect(pool.waiting()).toEqual([])
    })
  )

  it.effect.prop(
    "never more turns than workers nor heavy turns than size - 1 (one with one worker), no job waits that could run, and no turn is lost to an interruption",
    [
      FastCheck.integer({ min: 1, max: 4 }),
      FastCheck.array(
        FastCheck.oneof(
          FastCheck.record({ group: FastCheck.constantFrom("a", "b", "c"), heavy: FastCheck.boolean() }),
          FastCheck.record({ finish: FastCheck.nat({ max: 7 }) }),
          FastCheck.record({ interrupt: FastCheck.nat({ max: 15 }) }),
          // A job ends and, in the same tick, the waiter its turn goes to is interrupted.
          FastCheck.record({ race: FastCheck.nat({ max: 7 }) })
        ),
        { maxLength: 40 }
      )
    ],
    ([size, steps]) =>
      Effect.gen(function* () {
        const pool = yield* harness(size)
        const heavyCap = Math.max(1, size - 1)
        const check = () => {
          const running = [...pool.running]
          const heavy = running.filter((job) => job.heavy).length
          expect(running.length).toBeLessThanOrEqual(size)
          expect(heavy).toBeLessThanOrEqual(heavyCap)
          // Work conserving: no waiting job could run.
          for (const job of pool.waiting()) {
            expect(running.length < size && (!job.heavy || heavy < heavyCap)).toBe(false)
          }
        }
        for (const step of steps) {
          const running = [...pool.running]
          if ("group" in step) {
            yield* pool.arrive(step.group, step.heavy)
          } else if ("finish" in step) {
            if (running.length > 0) yield* pool.finish(running[step.finish % running.length]!)
          } else if ("interrupt" in step) {
            const live = pool.jobs.filter((job) => job.fiber.unsafePoll() === null)
            if (live.length > 0) {
              yield* Fiber.interrupt(live[step.interrupt % live.length]!.fiber)
              yield* settle
            }
          } else {
            const waiting = pool.waiting()
            if (running.length > 0 && waiting.length > 0) {
              yield* Deferred.succeed(running[step.race % running.length]!.done, undefined)
              yield* Fiber.interruptFork(waiting[0]!.fiber)
              yield* settle
            }
          }
          check()
        }
        for (const job of pool.jobs) yield* Deferred.succeed(job.done, undefined)
        yield* settle
        expect(pool.running.size).toBe(0)
        expect(pool.waiting()).toEqual([])
        // No turn leaked: as many jobs as workers, heavy ones up to their share, all run at once.
        const fresh = []
        for (let i = 0; i < size; i++) fresh.push(yield* pool.arrive("z", i < heavyCap && size > 1))
        expect(pool.running.size).toBe(size)
        for (const job of fresh) yield* pool.finish(job)
      })
  )
})
