/**
 * A `ChunkRanker` backed by an `@effect/ai` `EmbeddingModel`: the query and every chunk are embedded in one batch
 * and each chunk is scored by its cosine similarity to the query, so compression keeps the chunks closest in
 * meaning, not only those sharing words. Compose it as a part, `WebSearch.layer(..., EmbeddingRanker.layer)`, with
 * an `EmbeddingModel` provided, and set `compression: { method: "rank" }`; BM25 stays the default without it,
 * and `compression.ranker: "bm25"` selects BM25 while it is composed. Chunks keep their order and their source:
 * the ranker only scores, and compression keeps the best chunks in source order within their own result.
 *
 * @since 0.2.0
 */
import * as EmbeddingModel from "@effect/ai/EmbeddingModel"
import * as Compression from "@websearch/core/Compression"
import type * as Composition from "@websearch/core/Composition"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The cosine similarity of two vectors; 0 when either is all zeros, NaN when their lengths differ (compression
 * then counts the chunk as irrelevant).
 */
const cosine = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  if (a.length !== b.length) return Number.NaN
  let dot = 0
  let normA = 0
  let normB = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    normA += a[i] * a[i]
    normB += b[i] * b[i]
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}

/**
 * A ranker over an embedding model. A failed embedding call is logged and the chunks are ranked with BM25
 * instead, so a model outage degrades compression rather than failing the request.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (model: EmbeddingModel.Service): Compression.ChunkRanker.Service => ({
  rank: (query, chunks) =>
    model.embedMany([query, ...chunks]).pipe(
      Effect.map(([target, ...vectors]) => vectors.map((vector) => cosine(target ?? [], vector))),
      Effect.catchAll((error) =>
        Effect.logWarning(`websearch embedding ranker: the model failed (${error._tag}); ranking with BM25`).pipe(
          Effect.zipRight(Compression.bm25Ranker.rank(query, chunks))
        )
      ),
      Effect.withSpan("websearch.ai.embeddingRanker", {
        captureStackTrace: false,
        attributes: { "websearch.chunks": chunks.length }
      })
    )
})

/**
 * A part of `WebSearch.layer(...)` that ranks chunks with the `EmbeddingModel` in context.
 *
 * @since 0.2.0
 * @category layers
 */
export const layer: Layer.Layer<never, never, Composition.Composition | EmbeddingModel.EmbeddingModel> =
  Layer.unwrapEffect(Effect.map(EmbeddingModel.EmbeddingModel, (model) => Compression.layerChunkRanker(make(model))))
