/**
 * How a list request's per-input failures are reported: each logged as a warning, and when every input failed,
 * one error (the first input's) listing them all.
 */
import * as Effect from "effect/Effect"
import * as WebSearchError from "../WebSearchError.js"

/** Logs one input's failure, annotated with where it failed. */
export const logFailure = (error: WebSearchError.WebSearchError): Effect.Effect<void> =>
  Effect.logWarning(`websearch input failed: ${error.message}`).pipe(
    Effect.annotateLogs({
      providerId: error.providerId,
      capability: error.capability,
      input: error.input,
      tag: error._tag,
      reason: error.reason,
      retryable: error.retryable
    })
  )

/** The error of a request whose inputs all failed: the first one's, listing every input's failure. */
export const allFailed = (
  failures: ReadonlyArray<readonly [string, WebSearchError.WebSearchError]>
): WebSearchError.WebSearchError => {
  const [, first] = failures[0]
  const summary = failures.map(([input, e]) => `"${input}": ${e._tag}/${e.reason} (${e.message})`).join("; ")
  return WebSearchError.annotate(first, {
    message: `all ${failures.length} input${failures.length === 1 ? "" : "s"} failed: ${summary}`,
    failures: failures.map(([input, error]) => WebSearchError.toInputFailure(input, error))
  })
}
