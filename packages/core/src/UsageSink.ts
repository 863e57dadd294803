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
import * as Schema from "effect/Schema"
import * as Composition from "./Composition.js"
import { Capability } from "./Capability.js"

const Count = Schema.Int.pipe(Schema.nonNegative())

/**
 * The price of one call, in US dollars, split by meter.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UsageCost = Schema.Struct({
  currency: Schema.Literal("USD"),
  /** Input (uncached and cached) and output tokens at the model's rates. */
  tokens: Schema.Number,
  /** Hosted tool calls at the tool's per-call rate. */
  toolCalls: Schema.Number,
  total: Schema.Number,
  /** Where the rates came from (catalogue name and date), so a bill can be traced to its figures. */
  catalogue: Schema.String
}).annotations({ identifier: "UsageCost" })

/**
 * @since 0.1.0
 * @category models
 */
export type UsageCost = typeof UsageCost.Type

/**
 * One usage fact: what one provider call consumed.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UsageFact = Schema.Struct({
  /** Unique per call: a fact's identity is the call, not the turn it belongs to. */
  callId: Schema.String,
  providerId: Schema.String,
  capability: Capability,
  /** The model id we asked for (the priced one), not the dated snapshot the provider echoes. */
  model: Schema.String,
  /** The provider's own id of the run (`resp_…`), when it sent one. */
  providerCallId: Schema.optional(Schema.String),
  /** Every input token, cached ones included. */
  inputTokens: Count,
  cachedInputTokens: Count,
  /** Every output token, reasoning ones included. */
  outputTokens: Count,
  reasoningTokens: Schema.optional(Count),
  /** Hosted tool calls the provider ran (billed per call on top of tokens). */
  toolCalls: Count,
  /** How the call ended: reported before the evidence gate, so a billed run that then fails is still counted. */
  outcome: Schema.Literal("succeeded", "failed"),
  cost: Schema.optional(UsageCost)
}).annotations({ identifier: "UsageFact" })

/**
 * @since 0.1.0
 * @category models
 */
export type UsageFact = typeof UsageFact.Type

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

/**
 * @since 0.1.0
 * @category models
 */
export declare namespace UsageSink {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Records one fact. It may fail; the failure is logged and the call it accounts for still succeeds. */
    readonly report: (fact: UsageFact) => Effect.Effect<void, unknown>
  }
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
 * Reports a fact to the sink in context. Never fails: a sink failure, defect or timeout is logged at error
 * level (with the fact's identity and figures, so it can be recorded by hand) and swallowed.
 *
 * @since 0.1.0
 * @category accessors
 */
export const report = (fact: UsageFact): Effect.Effect<void> =>
  Effect.flatMap(UsageSink, (sink) => Effect.suspend(() => sink.report(fact))).pipe(
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
