/**
 * The facts a usage sink records, apart from the sink: a driver's context carries the composed sink
 * (`ProviderDriver.DriverContext.usageSink`), and `ProviderDriver` cannot import `UsageSink` (whose part imports
 * `Composition`, which imports `ProviderDriver`) without a cycle.
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Capability } from "../Capability.js"

const Count = Schema.Int.pipe(Schema.nonNegative())

/**
 * The price of one call, in US dollars, split by meter.
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

/** The price of one call. */
export type UsageCost = typeof UsageCost.Type

/**
 * One usage fact: what one provider call consumed.
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

/** One usage fact. */
export type UsageFact = typeof UsageFact.Type

/** Where facts go: what `UsageSink.UsageSink.Service` is, and what a driver's context carries. */
export interface Reporter {
  /** Records one fact. It may fail; the failure is logged and the call it accounts for still succeeds. */
  readonly report: (fact: UsageFact) => Effect.Effect<void, unknown>
}
