/**
 * The innermost stage: the driver's own call. A driver is foreign code (a provider module, possibly plain
 * JavaScript): it may throw instead of returning an effect, die, or fail with a value that is not one of the four
 * errors. Its failures are made typed here; its defects are marked as the driver's (`DriverDefect`) and stay
 * defects while they pass the quota and the cache (which never stores one), until `callGuard` reports them as
 * `ResponseInvalid/parse_failed`. A defect without the mark is ours, and stays a defect.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as WebSearchError from "../../WebSearchError.js"
import type { InputCall } from "./inputCall.js"

/** A defect raised by a driver (a throw, a die, or reading a value it returned), as opposed to one of ours. */
export class DriverDefect {
  constructor(readonly defect: unknown) {}
}

const errorClasses = [
  WebSearchError.Unavailable,
  WebSearchError.RequestFailed,
  WebSearchError.ResponseInvalid,
  WebSearchError.Aborted
]
const decodeError = Schema.decodeUnknownEither(WebSearchError.WebSearchError)

// An error of ours is kept, one of another copy of this package (or its JSON form) is rebuilt from its fields,
// anything else is the driver's bug, reported before the quota, cache or scrubbing could trip over it.
const typed = (call: InputCall, error: unknown): WebSearchError.WebSearchError => {
  try {
    if (errorClasses.some((errorClass) => error instanceof errorClass)) return error as WebSearchError.WebSearchError
    const decoded = decodeError(error)
    if (Either.isRight(decoded)) return decoded.right
  } catch {
    // Reading the value threw: it is not an error of ours either.
  }
  return WebSearchError.responseInvalid(
    "parse_failed",
    `the ${call.resolved.provider.name} driver failed on "${call.input}" with a value that is not a websearch error`
  )
}

/**
 * Runs the driver's method for the call, in the context of the composed services a driver reaches through the
 * public API (`PipelineEnv.make`): its failures typed, its defects marked as the driver's.
 */
export const driverCall = <A>(
  call: InputCall,
  run: () => Effect.Effect<A, WebSearchError.WebSearchError>
): Effect.Effect<A, WebSearchError.WebSearchError> =>
  // `mapError` then `catchAllDefect` in one handler (one frame on the way out instead of two), in that order: a
  // failure is typed (a defect beside it goes, as `mapError` drops it), a cause without one has its defect marked.
  Effect.catchAllCause(
    call.env.driverServices === undefined
      ? Effect.suspend(run)
      : Effect.provide(Effect.suspend(run), call.env.driverServices),
    (cause) =>
      Either.match(Cause.failureOrCause(cause), {
        onLeft: (error: unknown) => Effect.fail(typed(call, error)),
        onRight: (other) =>
          Option.match(Cause.dieOption(other), {
            onNone: () => Effect.failCause(other),
            onSome: (defect) => Effect.die(new DriverDefect(defect))
          })
      })
  )
