/**
 * The price catalogue of the OpenAI models the `openai` research provider may run, and the pricing of one
 * research call from its usage. A model outside this catalogue is refused before any paid call
 * (`Unavailable/unpriced_model`): spending first and failing to bill afterwards is the failure this prevents.
 *
 * Provenance of the figures (catalogue `openai-2025-09`): standard-tier USD prices per 1M tokens as published on
 * https://openai.com/api/pricing (text tokens table) from August 2025 (GPT-5 launch) through at least early 2026,
 * cross-checked against third-party copies of that table; the hosted `web_search` tool at $10 per 1,000 calls
 * for every model (the generally available tool bills search content tokens at model rates, which the reported
 * usage already counts), per the pricing page's built-in tools table as quoted by OpenAI staff on
 * community.openai.com and by modelcostwatch.com ("last checked March 12, 2026"). This session had no access to
 * the live page, so none of these figures was verified against OpenAI directly on the day they were written
 * (2026-11-29); entries marked `verified: false` are the ones we are least sure of. Update the catalogue (and its
 * name) whenever OpenAI changes a price.
 *
 * @since 0.1.0
 */
import type * as UsageSink from "@websearch/core/UsageSink"

/**
 * The rates of one model.
 *
 * @since 0.1.0
 * @category models
 */
export interface ModelPrice {
  /** USD per 1M uncached input tokens. */
  readonly input: number
  /** USD per 1M cached input tokens. */
  readonly cachedInput: number
  /** USD per 1M output tokens (reasoning tokens included). */
  readonly output: number
  /** USD per hosted `web_search` call. */
  readonly webSearchCall: number
  /** Whether the figures were cross-checked against more than one copy of OpenAI's table. */
  readonly verified: boolean
}

/**
 * The name of this catalogue, carried on every priced usage fact.
 *
 * @since 0.1.0
 * @category constants
 */
export const catalogueName = "openai-2025-09"

const webSearchCall = 10 / 1000

/**
 * Every priced model, by its bare OpenAI model id. Only models that run the hosted `web_search` tool in the
 * Responses API are listed (gpt-4o-mini and gpt-4.1-mini are left out on purpose: OpenAI bills them a fixed
 * 8,000 input tokens per search call that the reported usage does not show, so we could not price them honestly).
 *
 * @since 0.1.0
 * @category constants
 */
export const models: ReadonlyMap<string, ModelPrice> = new Map<string, ModelPrice>([
  ["gpt-5", { input: 1.25, cachedInput: 0.125, output: 10, webSearchCall, verified: true }],
  ["gpt-5-mini", { input: 0.25, cachedInput: 0.025, output: 2, webSearchCall, verified: true }],
  ["gpt-5-nano", { input: 0.05, cachedInput: 0.005, output: 0.4, webSearchCall, verified: true }],
  // Launched after the table we could cross-check; OpenAI announced it at GPT-5's rates.
  ["gpt-5.1", { input: 1.25, cachedInput: 0.125, output: 10, webSearchCall, verified: false }],
  ["gpt-4.1", { input: 2, cachedInput: 0.5, output: 8, webSearchCall, verified: true }],
  ["gpt-4o", { input: 2.5, cachedInput: 1.25, output: 10, webSearchCall, verified: true }],
  ["o3", { input: 2, cachedInput: 0.5, output: 8, webSearchCall, verified: true }],
  ["o4-mini", { input: 1.1, cachedInput: 0.275, output: 4.4, webSearchCall, verified: true }]
])

/**
 * The model research runs when the settings name none: cheap, fast, and a reasoning model, so it plans its own
 * searches well.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultModel = "gpt-5-mini"

/**
 * The rates of a model, if it is priced.
 *
 * @since 0.1.0
 * @category accessors
 */
export const lookup = (model: string): ModelPrice | undefined => models.get(model)

/**
 * What one call consumed, as the provider reports it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Usage {
  readonly inputTokens: number
  readonly cachedInputTokens: number
  readonly outputTokens: number
  readonly toolCalls: number
}

// Fractions of a cent add up over many calls; rounding to micro-dollars keeps sums exact enough and readable.
const round = (usd: number): number => Math.round(usd * 1_000_000) / 1_000_000

/**
 * Prices one call: uncached input, cached input and output tokens at the model's rates, plus each hosted search
 * call. Cached tokens are part of the input count, so they are billed once, at the cached rate.
 *
 * @since 0.1.0
 * @category utils
 */
export const price = (rates: ModelPrice, usage: Usage): UsageSink.UsageCost => {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens)
  const tokens =
    ((usage.inputTokens - cached) * rates.input + cached * rates.cachedInput + usage.outputTokens * rates.output) /
    1_000_000
  const toolCalls = usage.toolCalls * rates.webSearchCall
  return {
    currency: "USD",
    tokens: round(tokens),
    toolCalls: round(toolCalls),
    total: round(tokens + toolCalls),
    catalogue: catalogueName
  }
}
