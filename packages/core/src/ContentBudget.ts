/**
 * The content budget: how much result content, in characters or tokens, one response may hand to a model.
 * The budget is shared fairly across results and every cut keeps a prefix of the original content, so what
 * the model reads is always text the source really contained.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import type * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Composition from "./Composition.js"
import * as ContentLimits from "./internal/contentLimits.js"
import type { WebSearchResult } from "./WebSearchResponse.js"

/**
 * Budget settings. `none` applies only the hard cap; `cutoff` shares `limit` (in `unit`) across the results.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ContentBudget = Schema.Struct({
  method: Schema.Literal("none", "cutoff"),
  unit: Schema.Literal("tokens", "chars"),
  limit: Schema.Int.pipe(Schema.positive())
}).annotations({ identifier: "ContentBudget" })

/**
 * Budget settings as decoded.
 *
 * @since 0.1.0
 * @category models
 */
export type ContentBudget = typeof ContentBudget.Type

/**
 * The budget used when none is configured: no cutoff, only the hard cap.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultBudget: ContentBudget = { method: "none", unit: "chars", limit: 100_000 }

/**
 * Most characters (UTF-16 code units) of content one response may carry in total, whatever the settings say.
 * It applies even under `method: "none"` so a misbehaving provider cannot flood a model's context.
 *
 * @since 0.1.0
 * @category constants
 */
export const hardCapChars: number = ContentLimits.hardCapChars

// Ranges rather than a `\p{Script=...}` regex: the estimator runs inside a binary search over long contents.
const cjkRanges: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x11ff], // Hangul Jamo
  [0x2e80, 0x2fdf], // CJK radicals
  [0x3000, 0x30ff], // CJK punctuation, Hiragana, Katakana
  [0x3130, 0x318f], // Hangul compatibility Jamo
  [0x31f0, 0x31ff], // Katakana extensions
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xac00, 0xd7af], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xff66, 0xff9f], // half-width Katakana
  [0x20000, 0x3134f] // CJK extensions B-G
]

const isCjk = (code: number): boolean => cjkRanges.some(([from, to]) => code >= from && code <= to)

/**
 * A conservative token estimate that needs no tokenizer: ASCII counts a quarter token per character, other
 * BMP characters half a token, CJK ideographs, kana and hangul one token each, and other astral code points
 * (emoji) two. It never under-counts `chars / 4` and never decreases as a prefix grows, which token truncation
 * relies on.
 *
 * @since 0.1.0
 * @category utils
 */
export const estimateTokens = (text: string): number => {
  // Quarter-token units keep the sum exact in integers; one ceiling at the end keeps prefixes monotonic.
  let quarters = 0
  for (let at = 0; at < text.length; at++) {
    const code = text.codePointAt(at) ?? 0
    if (code < 0x80) quarters += 1
    else if (isCjk(code)) quarters += 4
    else quarters += code > 0xffff ? 8 : 2
    if (code > 0xffff) at++
  }
  return Math.ceil(quarters / 4)
}

/**
 * Counts the tokens of a text. The default is {@link estimateTokens}; provide a real tokenizer to websearch as a part,
 * `WebSearch.layer(..., ContentBudget.layerTokenCounter({ count }))` (this reference serves direct calls of `enforce`). Truncation assumes `count("")` is 0 and that counts never
 * decrease as a prefix grows.
 *
 * @since 0.1.0
 * @category utils
 */
export class TokenCounter extends Context.Reference<TokenCounter>()("@websearch/core/TokenCounter", {
  defaultValue: (): TokenCounter.Service => defaultTokenCounter
}) {}

/**
 * The estimating counter ({@link estimateTokens}), used when no other is composed.
 *
 * @since 0.2.0
 * @category utils
 */
export const defaultTokenCounter: TokenCounter.Service = { count: estimateTokens }

/**
 * A part of `WebSearch.layer(...)` that counts tokens with a real tokenizer for the content budget.
 *
 * @since 0.2.0
 * @category layers
 */
export const layerTokenCounter = (counter: TokenCounter.Service): Layer.Layer<never, never, Composition.Composition> =>
  Composition.service("tokenCounter", counter)

// This module's entry in the composition's typed record of optional services (see `Composition.Services`).
declare module "./Composition.js" {
  interface Services {
    /** The token counter of the content budget: `ContentBudget.layerTokenCounter`. */
    readonly tokenCounter: TokenCounter.Service
  }
}

/**
 * Types that belong to {@link TokenCounter}.
 *
 * @since 0.1.0
 * @category utils
 */
export declare namespace TokenCounter {
  /**
   * What a token counter provides: the number of tokens a text takes.
   *
   * @since 0.1.0
   * @category utils
   */
  export interface Service {
    readonly count: (text: string) => number
  }
}

/**
 * Shares `limit` across items of the given sizes by water-filling: items at or below the fair share keep
 * their size, and what they leave is shared evenly among the larger ones. Returns one allowance per item, in
 * order; the allowances never sum above `limit`, and any indivisible remainder goes to the earliest large items.
 *
 * @since 0.1.0
 * @category combinators
 */
export const allocate = (sizes: ReadonlyArray<number>, limit: number): Array<number> => {
  const total = sizes.reduce((sum, size) => sum + size, 0)
  if (total <= limit) return [...sizes]
  // A stable sort by size keeps the result deterministic when sizes tie.
  const order = sizes.map((_, index) => index).sort((a, b) => sizes[a] - sizes[b] || a - b)
  const allowances = sizes.map(() => 0)
  let remaining = Math.max(0, Math.floor(limit))
  for (let position = 0; position < order.length; position++) {
    const index = order[position]
    const left = order.length - position
    if (sizes[index] * left <= remaining) {
      allowances[index] = sizes[index]
      remaining -= sizes[index]
      continue
    }
    const large = order.slice(position).sort((a, b) => a - b)
    const share = Math.floor(remaining / left)
    const extra = remaining - share * left
    large.forEach((i, rank) => {
      allowances[i] = share + (rank < extra ? 1 : 0)
    })
    break
  }
  return allowances
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff

const isWhitespace = /\s/u

/** Moves a cut left until the prefix does not end in a high surrogate, so no surrogate pair is ever split. */
const codePointCut = (content: string, cut: number): number => {
  let at = Math.max(0, Math.min(cut, content.length))
  if (at === content.length) return at
  while (at > 0 && isHighSurrogate(content.charCodeAt(at - 1))) at--
  return at
}

/**
 * Prefers a word boundary: if the cut lands inside a word and white space occurs within the last tenth of the
 * prefix, the cut moves back to it. Only ever moves left, so the prefix stays within its allowance.
 */
const wordCut = (content: string, cut: number): number => {
  if (cut >= content.length || cut === 0) return cut
  if (isWhitespace.test(content[cut]) || isWhitespace.test(content[cut - 1])) return cut
  const floor = cut - Math.ceil(cut / 10)
  for (let at = cut - 1; at > floor && at > 0; at--) {
    if (isWhitespace.test(content[at])) return at
  }
  return cut
}

const finish = (content: string, cut: number): string =>
  cut >= content.length ? content : content.slice(0, cut).trimEnd()

/**
 * The longest prefix of `content` with at most `maxChars` UTF-16 code units, cut at white space when some lies
 * in the last tenth, never inside a surrogate pair, and with trailing white space removed.
 *
 * @since 0.1.0
 * @category combinators
 */
export const truncateChars = (content: string, maxChars: number): string =>
  content.length <= maxChars ? content : finish(content, wordCut(content, codePointCut(content, maxChars)))

/**
 * The longest prefix of `content` that `counter` puts at or below `maxTokens`, found by binary search over
 * code-point boundaries, then moved back to white space in the last tenth when there is some.
 */
const truncateTokens = (content: string, maxTokens: number, counter: TokenCounter.Service): string => {
  if (counter.count(content) <= maxTokens) return content
  // Invariant: the prefix ending at `low` fits, the one ending at `high` does not.
  let low = 0
  let high = content.length
  while (high - low > 1) {
    const mid = low + Math.floor((high - low) / 2)
    if (counter.count(content.slice(0, codePointCut(content, mid))) <= maxTokens) low = mid
    else high = mid
  }
  const cut = codePointCut(content, low)
  if (cut === 0 || counter.count(content.slice(0, cut)) > maxTokens) return ""
  return finish(content, wordCut(content, cut))
}

const share = (
  results: ReadonlyArray<WebSearchResult>,
  limit: number,
  size: (content: string) => number,
  truncate: (content: string, allowance: number) => string
): ReadonlyArray<WebSearchResult> => {
  const sizes = results.map((result) => size(result.content))
  const allowances = allocate(sizes, limit)
  return results.map((result, index) =>
    sizes[index] <= allowances[index] ? result : { ...result, content: truncate(result.content, allowances[index]) }
  )
}

const byChars = (results: ReadonlyArray<WebSearchResult>, limit: number) =>
  share(results, limit, (content) => content.length, truncateChars)

/**
 * Applies a budget to results: the total content never exceeds `limit` in the budget's unit (per `counter`
 * for tokens) nor {@link hardCapChars} characters. Results keep their order; cut contents are prefixes.
 *
 * @since 0.1.0
 * @category combinators
 */
export const apply: {
  (
    budget: ContentBudget,
    counter: TokenCounter.Service
  ): (results: ReadonlyArray<WebSearchResult>) => ReadonlyArray<WebSearchResult>
  (
    results: ReadonlyArray<WebSearchResult>,
    budget: ContentBudget,
    counter: TokenCounter.Service
  ): ReadonlyArray<WebSearchResult>
} = dual(
  3,
  (
    results: ReadonlyArray<WebSearchResult>,
    budget: ContentBudget,
    counter: TokenCounter.Service
  ): ReadonlyArray<WebSearchResult> => {
    // The hard cap goes first: cuts only ever shrink content, so it still holds afterwards, and it bounds the
    // text a (possibly slow, real) tokenizer has to count.
    const capped = byChars(results, hardCapChars)
    if (budget.method === "none") return capped
    return budget.unit === "chars"
      ? byChars(capped, budget.limit)
      : share(capped, budget.limit, counter.count, (content, allowance) => truncateTokens(content, allowance, counter))
  }
)

/**
 * {@link apply} as an Effect that counts tokens with the {@link TokenCounter} in context.
 *
 * @since 0.1.0
 * @category combinators
 */
export const enforce: {
  (budget: ContentBudget): (results: ReadonlyArray<WebSearchResult>) => Effect.Effect<ReadonlyArray<WebSearchResult>>
  (results: ReadonlyArray<WebSearchResult>, budget: ContentBudget): Effect.Effect<ReadonlyArray<WebSearchResult>>
} = dual(
  2,
  (results: ReadonlyArray<WebSearchResult>, budget: ContentBudget): Effect.Effect<ReadonlyArray<WebSearchResult>> =>
    Effect.map(TokenCounter, (counter) => apply(results, budget, counter))
)
