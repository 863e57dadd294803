import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Fiber from "effect/Fiber"
import { fanOut } from "../src/internal/fanOut.js"

// Each item yields a number of times before answering, so items finish in an order unrelated to theirs.
const item = (yields: number) => Effect.as(Effect.repeatN(Effect.yieldNow(), yields), yields)

describe("internal fanOut", () => {
  it.effect.prop(
    "returns every item's value in the items' order, never running more than `concurrency` at once",
    {
      yields: FastCheck.array(FastCheck.integer({ min: 0, max: 20 }), { maxLength: 30 }),
      concurrency: FastCheck.integer({ min: 1, max: 40 })
    },
    ({ concurrency, yields }) =>
      Effect.gen(function* () {
        let running = 0
        let most = 0
        const tracked = (n: number) =>
          Effect.acquireUseRelease(
            Effect.sync(() => {
              running++
              most = Math.max(most, running)
            }),
            () => item(n),
            () => Effect.sync(() => void running--)
          )
        const values = yield* fanOut(yields, tracked, concurrency)
        expect(values).toEqual(yields)
        expect(most).toBeLessThanOrEqual(concurrency)
        if (yields.length > 0) expect(most).toBeGreaterThanOrEqual(Math.min(concurrency, yields.length, 2))
        expect(running).toBe(0)
      })
  )

  it.effect.prop(
    "fails fast with the first failure; every other item is interrupted and its finalizer has run",
    {
      count: FastCheck.integer({ min: 2, max: 12 }),
      failing: FastCheck.nat(),
      concurrency: FastCheck.integer({ min: 1, max: 12 })
    },
    ({ concurrency, count, failing }) =>
      Effect.gen(function* () {
        // The failing item is among the first `concurrency`: the others never end, so a later one would never start.
        const bad = failing % Math.min(count, concurrency)
        const started: Array<number> = []
        const finalized: Array<number> = []
        const run = (i: number) =>
          Effect.suspend(() => {
            started.push(i)
            return i === bad ? Effect.fail(`item ${i}`) : Effect.never
          }).pipe(Effect.onExit(() => Effect.sync(() => void finalized.push(i))))
        const exit = yield* Effect.exit(
          fanOut(
            Array.from({ length: count }, (_, i) => i),
            run,
            concurrency
          )
        )
        expect(exit).toEqual(Exit.fail(`item ${bad}`))
        // Every item that started was finalized, once: at least the first `concurrency`, and any that took a
        // permit the failed item gave back before the interruption landed.
        expect([...finalized].sort((a, b) => a - b)).toEqual([...started].sort((a, b) => a - b))
        for (let i = 0; i < Math.min(count, concurrency); i++) expect(finalized).toContain(i)
      })
  )

  it.effect("interrupting the caller interrupts every item, and their finalizers run before the caller resumes", () =>
    Effect.gen(function* () {
      const started = yield* Deferred.make<void>()
      let begun = 0
      const finalized: Array<number> = []
      const run = (i: number) =>
        Effect.zipRight(
          Effect.suspend(() => (++begun === 3 ? Deferred.succeed(started, undefined) : Effect.void)),
          Effect.never
        ).pipe(Effect.onInterrupt(() => Effect.sync(() => void finalized.push(i))))
      const caller = yield* Effect.fork(fanOut([0, 1, 2], run, 3))
      yield* Deferred.await(started)
      const exit = yield* Fiber.interrupt(caller)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect([...finalized].sort()).toEqual([0, 1, 2])
    })
  )

  it.effect("no items: an empty list at once", () =>
    Effect.gen(function* () {
      expect(yield* fanOut([], () => Effect.die("never called"), 5)).toEqual([])
    })
  )
})
