/**
 * The embedding ranker with a deterministic local embedding model (a test layer: words hashed into a small
 * vector, synonyms folded onto one dimension, so similarity follows meaning the words alone do not share).
 */
import * as EmbeddingModel from "@effect/ai/EmbeddingModel"
import { describe, expect, it } from "@effect/vitest"
import * as Compression from "@websearch/core/Compression"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as EmbeddingRanker from "../src/EmbeddingRanker.js"
import { drivers } from "./support/fixtures.js"

// Words of one meaning share a dimension; every other word hashes to one of the rest.
const synonyms: Record<string, string> = { photovoltaic: "solar", modules: "panels", panel: "panels", sun: "solar" }
const dimensions = 64
const embed = (text: string): Array<number> => {
  const vector = Array.from({ length: dimensions }, () => 0)
  for (const raw of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const word = synonyms[raw] ?? raw
    let hash = 0
    for (const c of word) hash = (hash * 31 + c.charCodeAt(0)) % dimensions
    vector[hash] += 1
  }
  return vector
}

const calls: Array<number> = []
const LocalEmbeddings = Layer.effect(
  EmbeddingModel.EmbeddingModel,
  EmbeddingModel.make({
    embedMany: (inputs) =>
      Effect.sync(() => {
        calls.push(inputs.length)
        return inputs.map((input, index) => ({ index, embeddings: embed(input) }))
      })
  })
)

const chunks = [
  // Each about 150 characters, so with chunkSize 200 each paragraph is one chunk.
  "The village held its annual harvest festival with music and dancing in the square, and the band played until late at night.",
  "Photovoltaic modules on the roof now cover most of the school's electricity needs, the head teacher told the parents' evening.",
  "Local bakers sold bread and pastries from stalls along the river all afternoon long, and the queues reached the old bridge."
]
const content = chunks.join("\n\n")
const url = "https://village.example/news"
const query = "solar panels"

const live = (settings: Settings.SettingsInput, withEmbeddings: boolean) => {
  const [search] = drivers({ search: { [query]: [{ title: "News", url, content }] } }).drivers
  return WebSearch.layer(
    ProviderRegistry.register(search),
    ProviderRegistry.proposeDefaults("test", { searchKeywords: "duckduckgo" }),
    withEmbeddings ? EmbeddingRanker.layer : Layer.empty
  ).pipe(
    Layer.provide(LocalEmbeddings),
    Layer.provideMerge(Settings.layer({ defaults: { research: null }, ...settings }))
  )
}

const rank = (topChunks: number) => ({ method: "rank", chunkSize: 200, topChunks }) as const

const read = (settings: Settings.SettingsInput, withEmbeddings: boolean) =>
  Effect.provide(
    Effect.map(SearchKeywords.searchKeywords({ keywords: [query] }), (r) => r.results[0]),
    live(settings, withEmbeddings)
  )

describe("EmbeddingRanker", () => {
  it.effect("the chunk closest in meaning to the query ranks first, with no word in common", () =>
    Effect.gen(function* () {
      const model = yield* EmbeddingModel.EmbeddingModel
      const scores = yield* EmbeddingRanker.make(model).rank(query, chunks)
      expect(scores.indexOf(Math.max(...scores))).toBe(1)
      // BM25 sees no shared word, so no chunk scores above another.
      const bm25 = yield* Compression.bm25Ranker.rank(query, chunks)
      expect(new Set(bm25).size).toBe(1)
    }).pipe(Effect.provide(LocalEmbeddings))
  )

  it.effect("composed, compression keeps the chunk closest in meaning; BM25 without it, or by setting", () =>
    Effect.gen(function* () {
      const before = calls.length
      const embedded = yield* read({ compression: rank(1) }, true)
      expect(embedded.content).toBe(chunks[1])
      // One batch: the query and the three chunks.
      expect(calls.slice(before)).toEqual([4])
      expect([embedded.url, embedded.sourceInput, embedded.title]).toEqual([url, query, "News"])
      // Without a signal BM25 keeps the lead chunk: the default, and the "bm25" setting with the ranker composed.
      expect((yield* read({ compression: rank(1) }, false)).content).toBe(chunks[0])
      expect((yield* read({ compression: { ...rank(1), ranker: "bm25" } }, true)).content).toBe(chunks[0])
      expect(calls.length).toBe(before + 1)
    })
  )

  it.effect("kept chunks stay in source order", () =>
    Effect.gen(function* () {
      const kept = (yield* read({ compression: rank(2) }, true)).content.split(Compression.chunkSeparator)
      const positions = kept.flatMap((chunk) => chunk.split("\n\n")).map((chunk) => chunks.indexOf(chunk))
      expect(positions).toHaveLength(2)
      expect(positions).toContain(1)
      expect(positions.every((p) => p >= 0)).toBe(true)
      expect([...positions].sort()).toEqual(positions)
    })
  )
})
