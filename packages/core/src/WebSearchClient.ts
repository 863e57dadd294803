/**
 * The promise boundary, for code that is not written with Effect: a client built from a Layer whose methods
 * return promises and take an `AbortSignal`. Aborting rejects with `Aborted` and interrupts every in-flight
 * provider call; `dispose` (or `await using`) aborts what is still running and releases the Layer's resources.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import type * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as FetchUrls from "./FetchUrls.js"
import * as ProviderChecks from "./ProviderChecks.js"
import * as Research from "./Research.js"
import * as SearchKeywords from "./SearchKeywords.js"
import * as WebSearchError from "./WebSearchError.js"
import type * as WebSearchRequest from "./WebSearchRequest.js"
import type { ResearchResponse, WebSearchResponse } from "./WebSearchResponse.js"

/**
 * Options of every client call.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallOptions {
  /** Aborting it interrupts the call, which then rejects with `Aborted`. */
  readonly signal?: AbortSignal | undefined
}

/**
 * The promise client. Every method resolves with the response or rejects with one of the four websearch errors
 * (`Unavailable`, `RequestFailed`, `ResponseInvalid`, `Aborted`), each an `Error` with `_tag` and `reason`.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebSearchClient extends AsyncDisposable {
  readonly searchKeywords: (
    request: typeof WebSearchRequest.SearchKeywordsRequest.Encoded,
    options?: CallOptions
  ) => Promise<WebSearchResponse>
  readonly fetchUrls: (
    request: typeof WebSearchRequest.FetchUrlsRequest.Encoded,
    options?: CallOptions
  ) => Promise<WebSearchResponse>
  readonly research: (
    request: typeof WebSearchRequest.ResearchRequest.Encoded,
    options?: CallOptions
  ) => Promise<ResearchResponse>
  readonly check: (providerId: string, options?: CallOptions) => Promise<ProviderChecks.ProviderCheck>
  /** Aborts in-flight calls and releases the Layer's resources; later calls reject with `Aborted`. */
  readonly dispose: () => Promise<void>
}

/**
 * What the client's Layer must provide.
 *
 * @since 0.1.0
 * @category models
 */
export type Services =
  SearchKeywords.SearchKeywords | FetchUrls.FetchUrls | Research.Research | ProviderChecks.ProviderChecks

const toError = (cause: Cause.Cause<unknown>, aborted: () => boolean): WebSearchError.WebSearchError | Error => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    if (WebSearchError.isWebSearchError(error)) return error
    return error instanceof Error ? error : new Error(String(error))
  }
  if (Cause.isInterruptedOnly(cause) || aborted()) {
    return WebSearchError.aborted("the request was aborted by the caller")
  }
  return Cause.squash(cause) as Error
}

/**
 * Builds a client from a Layer that provides the capability services (typically `WebSearch.layer` with
 * providers and settings). The Layer is built on first use; a Layer failure (invalid settings) rejects that
 * call with its `Unavailable` error.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <E>(layer: Layer.Layer<Services, E>): WebSearchClient => {
  const runtime = ManagedRuntime.make(layer)
  const inFlight = new Set<AbortController>()
  let disposed = false

  const run = <A>(effect: Effect.Effect<A, WebSearchError.WebSearchError, Services>, options?: CallOptions) => {
    if (disposed) return Promise.reject(WebSearchError.aborted("the client was disposed"))
    // A JavaScript caller may pass anything as the signal; one that cannot be listened to is refused, not thrown.
    if (options?.signal != null && typeof options.signal.addEventListener !== "function") {
      return Promise.reject(
        WebSearchError.requestFailed("invalid_input", "options.signal must be an AbortSignal (or left out)")
      )
    }
    if (options?.signal?.aborted === true) {
      return Promise.reject(WebSearchError.aborted("the request was aborted by the caller before it started"))
    }
    const controller = new AbortController()
    const onAbort = () => controller.abort()
    options?.signal?.addEventListener("abort", onAbort, { once: true })
    inFlight.add(controller)
    return runtime.runPromiseExit(effect, { signal: controller.signal }).then((exit) => {
      inFlight.delete(controller)
      options?.signal?.removeEventListener("abort", onAbort)
      if (Exit.isSuccess(exit)) return exit.value
      throw toError(exit.cause, () => controller.signal.aborted)
    })
  }

  const dispose = async () => {
    if (disposed) return
    disposed = true
    for (const controller of inFlight) controller.abort()
    await runtime.dispose()
  }

  return {
    searchKeywords: (request, options) => run(SearchKeywords.searchKeywords(request), options),
    fetchUrls: (request, options) => run(FetchUrls.fetchUrls(request), options),
    research: (request, options) => run(Research.research(request), options),
    check: (providerId, options) => run(ProviderChecks.check(providerId), options),
    dispose,
    [Symbol.asyncDispose]: dispose
  }
}
