/**
 * Runs one effect per item, at most `concurrency` at once, failing fast: what a concurrent `Effect.forEach` does,
 * without its per-worker FiberRefs merge, which on a request path costs more than a fast provider call itself.
 *
 * Every item runs in a fiber forked by the caller, so interrupting the caller (or a sibling's failure) interrupts
 * that fiber directly and reaches whatever it is waiting on, and its finalizers have run before this returns.
 * FiberRef changes made inside an item are not carried back: an item's outcome is its value.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"

/**
 * The items' values in the items' order, or the first failure (every other item interrupted and awaited).
 */
export const fanOut = <I, A, E>(
  items: ReadonlyArray<I>,
  f: (item: I) => Effect.Effect<A, E>,
  concurrency: number
): Effect.Effect<Array<A>, E> =>
  items.length === 0
    ? Effect.succeed([])
    : Effect.uninterruptibleMask((restore) =>
        Effect.gen(function* () {
          const bounded = concurrency < items.length ? yield* Effect.makeSemaphore(concurrency) : undefined
          const fibers: Array<Fiber.RuntimeFiber<Exit.Exit<A, E>>> = []
          for (const item of items) {
            const work = bounded === undefined ? f(item) : bounded.withPermits(1)(f(item))
            // The fiber ends with the item's Exit as its value: a failed fiber nobody joins would be reported by the
            // runtime with its raw cause.
            fibers.push(yield* Effect.fork(Effect.exit(restore(work))))
          }
          return yield* restore(
            Effect.async<Array<A>, E>((resume) => {
              const values: Array<A> = new Array(items.length)
              let remaining = items.length
              let settled = false
              fibers.forEach((fiber, index) =>
                fiber.addObserver((outer) => {
                  if (settled) return
                  const exit = Exit.flatten(outer)
                  if (Exit.isSuccess(exit)) {
                    values[index] = exit.value
                    if (--remaining === 0) {
                      settled = true
                      resume(Effect.succeed(values))
                    }
                    return
                  }
                  settled = true
                  resume(Effect.zipRight(Fiber.interruptAll(fibers), Effect.failCause(exit.cause)))
                })
              )
              // The caller was interrupted: so is every item, and their finalizers run before the caller goes on.
              return Fiber.interruptAll(fibers)
            })
          )
        })
      )
