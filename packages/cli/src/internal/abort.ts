/**
 * Ctrl-C as an Effect: the binary aborts a signal on SIGINT, and what races this stops every in-flight call and
 * reports `Aborted`.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"

/** Fails with `Aborted` when the signal is aborted; never completes without one. */
export const on = (signal: AbortSignal | undefined): Effect.Effect<never, WebSearchError.Aborted> =>
  signal === undefined
    ? Effect.never
    : Effect.async<never, WebSearchError.Aborted>((resume) => {
        const onAbort = () => resume(Effect.fail(WebSearchError.aborted("interrupted by the user")))
        if (signal.aborted) onAbort()
        else signal.addEventListener("abort", onAbort, { once: true })
        return Effect.sync(() => signal.removeEventListener("abort", onAbort))
      })
