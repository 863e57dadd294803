/**
 * Reciprocal rank fusion: how the rankings of several providers for one query become one. Each result scores
 * `1 / (k + rank)` in every ranking it is in (rank from 1, k = 60 by default), the scores are summed, and results
 * are ordered by their sum: a result several providers found ranks above one only one of them found at the same
 * place, and among the results only one provider found, that provider's own order is kept. Results are the same
 * when their URLs are (`PostProcessing.normalizeUrlForDedupe`); the best-ranked occurrence's title and content
 * are kept, and `providers` lists who found it, best-ranked first. The answer does not depend on the order the
 * rankings are given in.
 *
 * @since 0.2.0
 */
import { normalizeUrlForDedupe } from "./internal/postProcessing.js"
import type { ProviderId } from "./ProviderId.js"
import type { WebSearchResult } from "./WebSearchResponse.js"

/**
 * The rank constant of reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): large enough that the first
 * few places of one ranking do not drown the agreement of the others.
 */
const defaultK = 60

/**
 * One provider's ranking for one query, best first.
 *
 * @since 0.2.0
 * @category models
 */
export interface Ranking {
  readonly providerId: ProviderId
  readonly results: ReadonlyArray<WebSearchResult>
}

/**
 * Options of `reciprocalRankFusion`.
 *
 * @since 0.2.0
 * @category models
 */
export interface FusionOptions {
  /** The rank constant; default {@link defaultK}. */
  readonly k?: number | undefined
}

interface Hit {
  readonly providerId: ProviderId
  readonly rank: number
  readonly result: WebSearchResult
}

const byRankThenProvider = (a: Hit, b: Hit): number =>
  a.rank - b.rank || (a.providerId < b.providerId ? -1 : a.providerId > b.providerId ? 1 : 0)

/**
 * Fuses rankings into one, best first, each result once, with the providers that found it.
 *
 * @example
 * ```ts
 * import * as Fusion from "@websearch/core/Fusion"
 * import * as Effect from "effect/Effect"
 *
 * const result = (url: string) => ({ title: url, content: "", url, sourceInput: "effect" })
 * const fused = Fusion.reciprocalRankFusion([
 *   { providerId: "tavily", results: [result("https://a.example/"), result("https://b.example/")] },
 *   { providerId: "brave", results: [result("https://b.example/"), result("https://c.example/")] }
 * ])
 * // b.example first: both found it. Then a.example (rank 1 of one), then c.example (rank 2 of one).
 * Effect.runPromise(Effect.log(fused.map((r) => [r.url, r.providers])))
 * ```
 *
 * @since 0.2.0
 * @category combinators
 */
export const reciprocalRankFusion = (
  rankings: ReadonlyArray<Ranking>,
  options?: FusionOptions
): Array<WebSearchResult> => {
  const k = options?.k ?? defaultK
  const hits = new Map<string, Array<Hit>>()
  for (const { providerId, results } of rankings) {
    // A URL a provider lists twice counts once, at its better place; ranks count distinct URLs.
    const seen = new Set<string>()
    for (const result of results) {
      const key = normalizeUrlForDedupe(result.url)
      if (seen.has(key)) continue
      seen.add(key)
      const hit = { providerId, rank: seen.size, result }
      const found = hits.get(key)
      if (found === undefined) hits.set(key, [hit])
      else found.push(hit)
    }
  }
  const fused = Array.from(hits, ([key, found]) => {
    // Summed best rank first, so the same rankings in another order give the very same floating-point sum.
    const sorted = found.sort(byRankThenProvider)
    let score = 0
    for (const hit of sorted) score += 1 / (k + hit.rank)
    const providers = Array.from(new Set(sorted.map((hit) => hit.providerId)))
    return { key, score, best: sorted[0], result: { ...sorted[0].result, providers } }
  })
  fused.sort((a, b) => b.score - a.score || a.best.rank - b.best.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return fused.map((entry) => entry.result)
}
