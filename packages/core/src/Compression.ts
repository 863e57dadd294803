/**
 * Optional compression of result content before it reaches a model. `rank` keeps, per result, only the chunks
 * most relevant to the query, in their original order; what is kept is always verbatim source text.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Composition from "./Composition.js"
import * as Bm25 from "./internal/bm25.js"
import type { WebSearchResult } from "./WebSearchResponse.js"

/**
 * Compression settings. `none` passes content through; `rank` splits each result into chunks of about
 * `chunkSize` characters (200–8000, default 1000) and keeps its `topChunks` best (1–50, default 3), scored by
 * the composed `ChunkRanker` (BM25 when none is composed, or when `ranker` is `"bm25"`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Compression = Schema.Union(
  Schema.Struct({ method: Schema.Literal("none") }),
  Schema.Struct({
    method: Schema.Literal("rank"),
    chunkSize: Schema.optionalWith(Schema.Int.pipe(Schema.between(200, 8000)), { default: () => 1000 }),
    topChunks: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 50)), { default: () => 3 }),
    // "bm25" ranks with BM25 even when another ranker is composed (an embedding ranker kept for other uses).
    ranker: Schema.optional(Schema.Literal("composed", "bm25"))
  })
).annotations({ identifier: "Compression" })

/**
 * Compression settings as decoded (defaults filled in).
 *
 * @since 0.1.0
 * @category models
 */
export type Compression = typeof Compression.Type

/**
 * What `rank` puts between two kept chunks that were not next to each other in the source, so a model can
 * tell that text was left out there. Neighbouring kept chunks are emitted as the one source span they form.
 *
 * @since 0.1.0
 * @category constants
 */
export const chunkSeparator = "\n\n[...]\n\n"

/**
 * Scores chunks against a query; higher is more relevant. The default is BM25 over the chunks given, so the
 * whole response's chunks are passed in one call; compose another (embeddings, a reranker) as a part,
 * `WebSearch.layer(..., Compression.layerChunkRanker({ rank }))` (this reference serves direct calls of `compress`).
 *
 * @since 0.1.0
 * @category combinators
 */
export class ChunkRanker extends Context.Reference<ChunkRanker>()("@websearch/core/ChunkRanker", {
  defaultValue: (): ChunkRanker.Service => bm25Ranker
}) {}

/**
 * A part of `WebSearch.layer(...)` that ranks chunks with another ranker (embeddings, a reranker).
 *
 * @since 0.2.0
 * @category layers
 */
export const layerChunkRanker = (ranker: ChunkRanker.Service): Layer.Layer<never, never, Composition.Composition> =>
  Composition.service("chunkRanker", ranker)

// This module's entry in the composition's typed record of optional services (see `Composition.Services`).
declare module "./Composition.js" {
  interface Services {
    /** The ranker compression scores chunks with: `Compression.layerChunkRanker`. */
    readonly chunkRanker: ChunkRanker.Service
  }
}

/**
 * Types that belong to {@link ChunkRanker}.
 *
 * @since 0.1.0
 * @category combinators
 */
export declare namespace ChunkRanker {
  /**
   * What a chunk ranker provides: one score per chunk, in the chunks' order.
   *
   * @since 0.1.0
   * @category combinators
   */
  export interface Service {
    readonly rank: (query: string, chunks: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<number>>
  }
}

/**
 * BM25 (k1 = 1.2, b = 0.75) over lower-cased Unicode words, with IDF taken over the chunks of one call.
 *
 * @since 0.1.0
 * @category combinators
 */
export const bm25Ranker: ChunkRanker.Service = {
  rank: (query, chunks) => Effect.sync(() => Bm25.score(query, chunks))
}

interface Span {
  readonly start: number
  readonly end: number
}

const paragraphBreak = /\n[^\S\n]*\n\s*/gu
const sentenceEnd = /[.!?\u3002\uff01\uff1f]+["'\u201d\u2019)\]]*\s*/gu
const whitespace = /\s/u

const matchEnds = (content: string, pattern: RegExp): Array<number> =>
  Array.from(content.matchAll(pattern), (match) => (match.index ?? 0) + match[0].length)

// A punctuation pattern rather than Intl.Segmenter's sentence mode: the segmenter costs about as much as all
// of ranking, and a chunk boundary only needs a plausible sentence end, not a linguistically exact one.
const sentenceStarts = (content: string): Array<number> => matchEnds(content, sentenceEnd)

/** The largest boundary in `(low, high]`, from an ascending list. */
const lastWithin = (boundaries: ReadonlyArray<number>, low: number, high: number): number | undefined => {
  let lo = 0
  let hi = boundaries.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (boundaries[mid] <= high) lo = mid + 1
    else hi = mid
  }
  return lo > 0 && boundaries[lo - 1] > low ? boundaries[lo - 1] : undefined
}

const splitsPair = (content: string, at: number): boolean => {
  const before = content.charCodeAt(at - 1)
  const after = content.charCodeAt(at)
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff
}

/**
 * Cuts content into consecutive spans of at most `chunkSize` code units, each ending at the last paragraph
 * break, else sentence end, else white space in its second half, else at `chunkSize` on a code-point boundary.
 * Spans are then trimmed and empty ones dropped.
 */
const chunkSpans = (content: string, chunkSize: number): Array<Span> => {
  const size = Math.max(2, Math.floor(chunkSize))
  const paragraphs = matchEnds(content, paragraphBreak)
  // Contents that fit in one chunk never need sentence boundaries.
  const sentences = content.length > size ? sentenceStarts(content) : []
  const spans: Array<Span> = []
  let start = 0
  while (start < content.length) {
    let end = content.length
    if (content.length - start > size) {
      const limit = start + size
      const half = start + Math.floor(size / 2)
      end = lastWithin(paragraphs, half, limit) ?? lastWithin(sentences, half, limit) ?? limit
      if (end === limit && !whitespace.test(content[limit])) {
        for (let at = limit - 1; at > half; at--) {
          if (whitespace.test(content[at])) {
            end = at + 1
            break
          }
        }
      }
      if (splitsPair(content, end)) end--
    }
    let from = start
    let to = end
    while (from < to && whitespace.test(content[from])) from++
    while (to > from && whitespace.test(content[to - 1])) to--
    if (to > from) spans.push({ start: from, end: to })
    start = end
  }
  return spans
}

/**
 * Splits content into chunks of about `chunkSize` characters at paragraph, then sentence, then word
 * boundaries, never inside a surrogate pair. Each chunk is a trimmed, non-empty substring of `content`, and the
 * chunks appear in source order.
 *
 * @since 0.1.0
 * @category combinators
 */
export const chunkContent = (content: string, chunkSize: number): Array<string> =>
  chunkSpans(content, chunkSize).map((span) => content.slice(span.start, span.end))

const keep = (content: string, spans: ReadonlyArray<Span>, scores: ReadonlyArray<number>, top: number): string => {
  // Ties go to the earlier chunk so the outcome is deterministic (and, with no signal, keeps the lead).
  const kept = spans
    .map((_, index) => index)
    .sort((a, b) => scores[b] - scores[a] || a - b)
    .slice(0, top)
    .sort((a, b) => a - b)
  const parts: Array<string> = []
  let runStart = kept[0]
  for (let position = 0; position < kept.length; position++) {
    const index = kept[position]
    const next = kept[position + 1]
    if (next === index + 1) continue
    parts.push(content.slice(spans[runStart].start, spans[index].end))
    runStart = next
  }
  return parts.join(chunkSeparator)
}

/**
 * Compresses results for `query`. Under `rank`, every chunk of every result is scored in one
 * {@link ChunkRanker} call, and each result with more than `topChunks` chunks keeps its best `topChunks`, in
 * source order, joined by {@link chunkSeparator}; other results are returned unchanged. Ranks with `ranker`
 * (websearch passes the composed one), else the {@link ChunkRanker} in context; `ranker: "bm25"` in the settings
 * always ranks with BM25.
 *
 * @since 0.1.0
 * @category combinators
 */
export const compress = (
  results: ReadonlyArray<WebSearchResult>,
  query: string,
  compression: Compression,
  ranker?: ChunkRanker.Service | undefined
): Effect.Effect<ReadonlyArray<WebSearchResult>> => {
  if (compression.method === "none") return Effect.succeed(results)
  const { chunkSize, topChunks } = compression
  const spans = results.map((result) => chunkSpans(result.content, chunkSize))
  if (spans.every((list) => list.length <= topChunks)) return Effect.succeed(results)
  const chunks = results.flatMap((result, index) =>
    spans[index].map((span) => result.content.slice(span.start, span.end))
  )
  const chosen =
    compression.ranker === "bm25"
      ? Effect.succeed(bm25Ranker)
      : ranker === undefined
        ? ChunkRanker
        : Effect.succeed(ranker)
  return Effect.flatMap(chosen, (scorer) => scorer.rank(query, chunks)).pipe(
    Effect.map((scores) => {
      let offset = 0
      return results.map((result, index) => {
        const own = spans[index]
        // A plugged-in ranker may return too few scores or NaN; treat those chunks as irrelevant.
        const ownScores = own.map((_, i) => {
          const value = scores[offset + i]
          return typeof value === "number" && Number.isFinite(value) ? value : Number.NEGATIVE_INFINITY
        })
        offset += own.length
        return own.length <= topChunks
          ? result
          : { ...result, content: keep(result.content, own, ownScores, topChunks) }
      })
    })
  )
}
