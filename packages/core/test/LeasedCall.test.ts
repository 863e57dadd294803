import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as LeasedCall from "../src/internal/leasedCall.js"

describe("single flight across processes: the lease", () => {
  // The store takes the lease at once (as Redis does when SET NX lands), but its answer comes back late: a caller
  // interrupted meanwhile must still free the lease it took, or other replicas wait out its time to live.
  it.live("a caller interrupted while its lease is being taken still frees it", () =>
    Effect.gen(function* () {
      const answer = yield* Deferred.make<void>()
      let held = 0
      let released = 0
      const leases: LeasedCall.Leases<never> = {
        acquire: () =>
          Effect.sync(() => held++).pipe(
            Effect.zipRight(Deferred.await(answer)),
            Effect.as(Option.some({ renew: Effect.succeed(true), release: Effect.sync(() => void released++) }))
          )
      }
      const fiber = yield* Effect.fork(
        LeasedCall.run({
          key: "k",
          leases,
          timing: { timeToLive: Duration.seconds(3), maxWait: Duration.seconds(10) },
          guard: (_operation, effect) => Effect.asSome(effect),
          lookup: Effect.succeedNone,
          call: Effect.never,
          shared: () => Effect.never
        })
      )
      yield* Effect.yieldNow()
      expect(held).toBe(1)
      const interrupted = yield* Effect.fork(Fiber.interrupt(fiber))
      yield* Deferred.succeed(answer, undefined)
      yield* Fiber.join(interrupted)
      expect(released).toBe(1)
    })
  )
})
