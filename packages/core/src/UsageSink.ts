/**
 * Usage accounting, out of band: every paid provider call (a hosted research run) reports one usage fact — the
 * model, its tokens, the hosted tool calls it ran and the price from the provider's catalogue — to the
 * `UsageSink` in context. Usage never appears in a response: a model reading the answer must not see billing
 * data. The identity of a fact is the call, never the caller's turn, so several research calls in one turn are
 * several facts. A sink that fails or dies is logged and never fails the research: the caller is owed the
 * answer it paid for.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import type * as Layer from "effect/Layer"
import * as Composition from "./Composition.js"
import * as Facts from "./internal/usageFact.js"

/**
 * The price of one call, in US dollars, split by meter.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UsageCost = Facts.UsageCost

/**
 * @since 0.1.0
 * @category models
 */
export type UsageCost = Facts.UsageCost

/**
 * One usage fact: what one provider call consumed.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UsageFact = Facts.UsageFact

/**
 * @since 0.1.0
 * @category models
 */
export type UsageFact = Facts.UsageFact

const logFact = (fact: UsageFact): Effect.Effect<void> =>
  Effect.logDebug("websearch usage").pipe(
    Effect.annotateLogs({
      callId: fact.callId,
      providerId: fact.providerId,
      capability: fact.capability,
      model: fact.model,
      inputTokens: fact.inputTokens,
      cachedInputTokens: fact.cachedInputTokens,
      outputTokens: fact.outputTokens,
      toolCalls: fact.toolCalls,
      outcome: fact.outcome,
      costUsd: fact.cost?.total
    })
  )

/**
 * The usage sink in context; the default logs each fact at debug level.
 *
 * @since 0.1.0
 * @category services
 */
export class UsageSink extends Context.Reference<UsageSink>()("@websearch/core/UsageSink", {
  defaultValue: (): UsageSink.Service => defaultSink
}) {}

/**
 * The sink used when none is composed: each fact logged at debug level.
 *
 * @since 0.2.0
 * @category constructors
 */
export const defaultSink: UsageSink.Service = { report: (fact) => logFact(fact) }

/**
 * A part of `WebSearch.layer(...)` that sends usage facts to a sink of the application's (billing, metering).
 *
 * @since 0.2.0
 * @category layers
 */
export const layer = (sink: UsageSink.Service): Layer.Layer<never, never, Composition.Composition> =>
  Composition.service("usageSink", sink)

// This module's entry in the composition's typed record of optional services (see `Composition.Services`).
declare module "./Composition.js" {
  interface Services {
    /** Where usage facts go: `UsageSink.layer`. */
    readonly usageSink: UsageSink.Service
  }
}

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace UsageSink {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service extends Facts.Reporter {}
}

/**
 * Longest a sink may take before the fact is given up on (and logged as unrecorded): a stuck billing backend
 * must not hold a finished research answer hostage.
 *
 * @since 0.1.0
 * @category constants
 */
export const reportTimeout: Duration.Duration = Duration.seconds(10)

/**
 * Reports a fact to `sink` (a driver passes its context's `usageSink`, the composed one), else to the sink in
 * context. Never fails: a sink failure, defect or timeout is logged at error level (with the fact's identity and
 * figures, so it can be recorded by hand) and swallowed.
 *
 * @since 0.1.0
 * @category accessors
 */
export const report = (fact: UsageFact, sink?: UsageSink.Service | undefined): Effect.Effect<void> =>
  (sink === undefined ? UsageSink : Effect.succeed(sink)).pipe(
    Effect.flatMap((chosen) => Effect.suspend(() => chosen.report(fact))),
    Effect.timeoutFail({ duration: reportTimeout, onTimeout: () => "the usage sink did not answer in time" }),
    // Error handlers do not run when the caller interrupts, so every cause seen here is the sink's own failure.
    Effect.catchAllCause((cause) =>
      Effect.logError(`websearch usage unrecorded: ${firstLine(cause)}`).pipe(
        Effect.annotateLogs({
          callId: fact.callId,
          providerId: fact.providerId,
          model: fact.model,
          inputTokens: fact.inputTokens,
          cachedInputTokens: fact.cachedInputTokens,
          outputTokens: fact.outputTokens,
          toolCalls: fact.toolCalls,
          costUsd: fact.cost?.total
        })
      )
    ),
    Effect.withSpan("websearch.usage.report", {
      captureStackTrace: false,
      attributes: { "websearch.provider": fact.providerId, "websearch.usage.call": fact.callId }
    })
  )

// A sink's error may be anything (an Error, a string, a tagged error); one line of it is enough for the log.
const firstLine = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.squash(cause)
  const text = failure instanceof Error ? failure.message : String(failure)
  return text.split("\n")[0].slice(0, 300)
}

/**
 * Runs an effect with a usage sink.
 *
 * @since 0.1.0
 * @category combinators
 */
export const withSink: {
  (sink: UsageSink.Service): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, sink: UsageSink.Service): Effect.Effect<A, E, R>
} = dual(2, <A, E, R>(self: Effect.Effect<A, E, R>, sink: UsageSink.Service): Effect.Effect<A, E, R> =>
  Effect.provideService(self, UsageSink, sink)
)
