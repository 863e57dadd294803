/**
 * The outermost stage of one input's call: the capability's timeout, defects, and the context every failure
 * carries. The driver's defects (marked by `driverCall`) become `ResponseInvalid/parse_failed`, the input's
 * failure; a defect of our own (the cache, the quota, the result check) stays a defect. Either is logged, and
 * neither the log nor what goes on quotes a secret: the defect itself (message and stack) may hold a key.
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redaction from "../redaction.js"
import * as WebSearchError from "../../WebSearchError.js"
import * as Deadline from "../deadline.js"
import { DriverDefect } from "./driverCall.js"
import type { InputCall } from "./inputCall.js"

// A defect may be anything, including a value whose conversion to text throws.
const describeDefect = (defect: unknown): string => {
  try {
    return String(defect instanceof Error ? defect.message : defect)
  } catch {
    return "a value that cannot be shown"
  }
}

const scrubText = (call: InputCall, text: string): string =>
  Redaction.scrub(
    text,
    call.resolved.secrets.flatMap((secret) => Redaction.forms(secret))
  )

// The driver's bug is the input's failure, with only the scrubbed message logged.
const driverFailed = (call: InputCall, defect: unknown): Effect.Effect<never, WebSearchError.ResponseInvalid> => {
  const error = WebSearchError.scrub(
    WebSearchError.responseInvalid(
      "parse_failed",
      `the ${call.resolved.provider.name} driver failed unexpectedly on "${call.input}": ${describeDefect(defect)}`
    ),
    call.resolved.secrets
  )
  return Effect.logError(`websearch driver defect: ${error.message}`).pipe(Effect.zipRight(Effect.fail(error)))
}

// Our own bug goes on as a defect: the same error, its message and stack scrubbed.
const ownDefect = (call: InputCall, defect: unknown): Effect.Effect<never> => {
  const scrubbed = new Error(scrubText(call, describeDefect(defect)))
  if (defect instanceof Error) {
    scrubbed.name = defect.name
    if (defect.stack !== undefined) scrubbed.stack = scrubText(call, defect.stack)
  }
  const where = scrubText(call, `${call.capability} of "${call.input}" on ${call.resolved.provider.name}`)
  return Effect.logError(`websearch defect in ${where}: ${scrubbed.message}`, Cause.die(scrubbed)).pipe(
    Effect.zipRight(Effect.die(scrubbed))
  )
}

/**
 * Runs one input's call under the capability's timeout, handling defects as above and attaching the provider,
 * capability and input to whatever fails. Secrets are scrubbed from messages.
 */
export const callGuard = <A>(
  call: InputCall,
  timeout: Duration.Duration,
  effect: Effect.Effect<A, WebSearchError.WebSearchError>
): Effect.Effect<A, WebSearchError.WebSearchError> => {
  const { capability, input, resolved } = call
  const attach = (error: WebSearchError.WebSearchError) =>
    WebSearchError.scrub(
      WebSearchError.annotate(named(resolved, error), {
        providerId: resolved.providerId,
        capability,
        input,
        // A driver's empty message would leave the caller with nothing but the reason.
        ...(error.message.trim() === ""
          ? {
              message: `${resolved.provider.name} failed ${capability} for "${input}": ${error._tag}/${error.reason}`
            }
          : {})
      }),
      resolved.secrets
    )
  return Deadline.timeoutFail(effect, timeout, () =>
    WebSearchError.requestFailed(
      "timeout",
      `${resolved.provider.name} did not answer ${capability} for "${input}" within ${Duration.format(timeout)}`
    )
  ).pipe(
    // `catchAllDefect` then `mapError` in one handler (one frame on the way out instead of two): a defect is
    // handled as above, the driver's with its error attached; any other failure gets the context attached.
    Effect.catchAllCause((cause) =>
      Option.match(Cause.dieOption(cause), {
        onNone: () =>
          Either.match(Cause.failureOrCause(cause), {
            onLeft: (error) => Effect.fail(attach(error)),
            onRight: Effect.failCause
          }),
        onSome: (defect) =>
          defect instanceof DriverDefect
            ? Effect.catchAll(driverFailed(call, defect.defect), (error) => Effect.fail(attach(error)))
            : ownDefect(call, defect)
      })
    ),
    // A stack trace per span costs more than the rest of the pipeline's own work; the span name locates it.
    Effect.withSpan(`websearch.provider.${capability}`, {
      captureStackTrace: false,
      attributes: { "websearch.provider": resolved.providerId, "websearch.capability": capability }
    })
  )
}

// A driver names its errors by its type's id; the caller named an instance, and the error names what it named.
const named = (resolved: InputCall["resolved"], error: WebSearchError.WebSearchError): WebSearchError.WebSearchError =>
  resolved.provider.instanceOf !== undefined && error.providerId === resolved.provider.instanceOf
    ? WebSearchError.annotate(error, { providerId: resolved.providerId }, false)
    : error
