/**
 * Progress of a multi-input request, for callers that show it (a CLI's stderr, a UI's tool block). The
 * pipeline reports each input as it finishes; the default reporter does nothing. Progress is a side channel:
 * results and failures still arrive in the response.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import type { ListCapability } from "./Capability.js"
import type { ProviderId } from "./ProviderId.js"
import type { WebSearchError } from "./WebSearchError.js"

/**
 * One input of a request has finished: with its result count, or with its error.
 *
 * @since 0.1.0
 * @category models
 */
export interface InputFinished {
  readonly capability: ListCapability
  readonly providerId: ProviderId
  readonly input: string
  /** How many inputs of this request have finished, this one included. */
  readonly finished: number
  readonly total: number
  readonly outcome:
    | { readonly _tag: "Succeeded"; readonly results: number }
    | { readonly _tag: "Failed"; readonly error: WebSearchError }
}

/**
 * The progress reporter in context; the default ignores every event.
 *
 * @since 0.1.0
 * @category services
 */
export class Progress extends Context.Reference<Progress>()("@websearch/core/Progress", {
  defaultValue: (): Progress.Service => silent
}) {}

/**
 * The reporter that ignores every event: the default, which the pipeline recognises to skip building events
 * nobody reads.
 *
 * @since 0.2.0
 * @category constructors
 */
export const silent: Progress.Service = { inputFinished: () => Effect.void }

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace Progress {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Called once per input, in completion order; it must not fail. */
    readonly inputFinished: (event: InputFinished) => Effect.Effect<void>
  }
}

/**
 * Runs an effect with a progress reporter.
 *
 * @since 0.1.0
 * @category combinators
 */
export const withReporter: {
  (reporter: Progress.Service): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, reporter: Progress.Service): Effect.Effect<A, E, R>
} = dual(2, <A, E, R>(self: Effect.Effect<A, E, R>, reporter: Progress.Service): Effect.Effect<A, E, R> =>
  Effect.provideService(self, Progress, reporter)
)
