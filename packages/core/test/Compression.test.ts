import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as Compression from "../src/Compression.js"
import type { WebSearchResult } from "../src/WebSearchResponse.js"

const result = (content: string, index = 0): WebSearchResult => ({
  title: `title ${index}`,
  content,
  url: `https://example.com/${index}`,
  sourceInput: "query"
})

/** A paragraph of 100–200 characters, so with `chunkSize: 200` every paragraph is one chunk. */
const filler = (topic: string, n: number): string =>
  `Paragraph ${n} is about ${topic}. It carries a few sentences of filler text so that it takes up some room.`

/** Asserts `parts` occur in `content` one after the other, without overlap. */
const expectInOrder = (content: string, parts: ReadonlyArray<string>) => {
  let from = 0
  for (const part of parts) {
    const at = content.indexOf(part, from)
    expect(at).toBeGreaterThanOrEqual(0)
    from = at + part.length
  }
}

const sentence = FastCheck.oneof(
  FastCheck.string({ unit: "grapheme", maxLength: 80 }),
  FastCheck.fullUnicodeString({ maxLength: 80 }),
  FastCheck.array(FastCheck.constantFrom("alpha", "beta", "gamma", "日本語", "😀", "delta.", "x"), {
    maxLength: 40
  }).map((words) => words.join(" "))
)

const document = FastCheck.array(FastCheck.array(sentence, { maxLength: 8 }), { maxLength: 8 }).map((paragraphs) =>
  paragraphs.map((sentences) => sentences.join(". ")).join("\n\n")
)

// A failure on large unicode inputs can take minutes to shrink; report the counterexample found by then.
const shrinkBriefly = { fastCheck: { interruptAfterTimeLimit: 15_000 } }

const rank = (chunkSize: number, topChunks: number): Compression.Compression => ({
  method: "rank",
  chunkSize,
  topChunks
})

describe("Compression", () => {
  describe("properties", () => {
    it.prop(
      "chunks are non-empty substrings in source order, at most chunkSize long, never splitting a pair",
      [document, FastCheck.integer({ min: 200, max: 800 })],
      ([content, chunkSize]) => {
        const chunks = Compression.chunkContent(content, chunkSize)
        expectInOrder(content, chunks)
        for (const chunk of chunks) {
          expect(chunk.length).toBeGreaterThan(0)
          expect(chunk.length).toBeLessThanOrEqual(chunkSize)
          expect(chunk.trim()).toBe(chunk)
          expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/u.test(chunk)).toBe(false)
        }
        expect(chunks.join("").replace(/\s/gu, "")).toBe(content.replace(/\s/gu, ""))
      },
      shrinkBriefly
    )

    it.effect.prop(
      "rank keeps at most topChunks chunks, in source order, each a substring of the original",
      [
        FastCheck.array(document, { minLength: 1, maxLength: 4 }),
        FastCheck.constantFrom("alpha", "gamma delta", "日本語", ""),
        FastCheck.integer({ min: 200, max: 600 }),
        FastCheck.integer({ min: 1, max: 5 })
      ],
      ([contents, query, chunkSize, topChunks]) => {
        const input = contents.map(result)
        return Effect.map(Compression.compress(input, query, rank(chunkSize, topChunks)), (output) => {
          expect(output.map((r) => r.url)).toEqual(input.map((r) => r.url))
          output.forEach((r, i) => {
            const chunks = Compression.chunkContent(input[i].content, chunkSize)
            if (chunks.length <= topChunks) {
              expect(r).toBe(input[i])
              return
            }
            const parts = r.content.split(Compression.chunkSeparator)
            expect(parts.length).toBeLessThanOrEqual(topChunks)
            expectInOrder(input[i].content, parts)
          })
        })
      },
      shrinkBriefly
    )

    it.effect.prop(
      "a plugged-in ranker decides which chunks stay",
      [FastCheck.integer({ min: 4, max: 12 }), FastCheck.integer({ min: 1, max: 3 })],
      ([paragraphs, topChunks]) => {
        const content = Array.from({ length: paragraphs }, (_, n) => filler("nothing", n)).join("\n\n")
        const chunks = Compression.chunkContent(content, 200)
        // Favour the last chunks: the output must be exactly the tail, as one contiguous span.
        const byPosition: Compression.ChunkRanker.Service = {
          rank: (_query, all) => Effect.succeed(all.map((_, i) => i))
        }
        return Compression.compress([result(content)], "q", rank(200, topChunks)).pipe(
          Effect.provideService(Compression.ChunkRanker, byPosition),
          Effect.map(([only]) => {
            const tail = chunks.slice(-topChunks)
            expect(only.content.startsWith(tail[0])).toBe(true)
            expect(only.content.endsWith(tail[tail.length - 1])).toBe(true)
            expect(only.content.includes(Compression.chunkSeparator)).toBe(false)
          })
        )
      },
      shrinkBriefly
    )
  })

  describe("examples", () => {
    it.effect("BM25 keeps the chunk containing the query terms", () =>
      Effect.gen(function* () {
        const paragraphs = Array.from({ length: 12 }, (_, n) =>
          filler(n === 7 ? "quantum entanglement between photons" : "growing tomatoes in the garden", n)
        )
        const content = paragraphs.join("\n\n")
        const [output] = yield* Compression.compress([result(content)], "Quantum Entanglement", rank(200, 1))
        expect(output.content).toBe(paragraphs[7])
      })
    )

    it.effect("IDF spans every result of the response", () =>
      Effect.gen(function* () {
        // Within the first result both terms occur once; only across results is "habitat" the common one.
        const topic = (n: number) => (n === 1 ? "habitat loss" : n === 4 ? "zebra stripes" : "common words")
        const first = Array.from({ length: 6 }, (_, n) => filler(topic(n), n)).join("\n\n")
        const second = Array.from({ length: 6 }, (_, n) => filler("habitat loss", n)).join("\n\n")
        const output = yield* Compression.compress([result(first, 0), result(second, 1)], "zebra habitat", rank(200, 1))
        expect(output[0].content).toBe(filler("zebra stripes", 4))
        expect(output[1].content).toBe(filler("habitat loss", 0))
      })
    )

    it.effect("ranks CJK text by its words", () =>
      Effect.gen(function* () {
        const other = "今日は天気が良いので、公園を散歩しました。".repeat(12)
        const target = "量子コンピュータは量子ビットを使って計算します。".repeat(9)
        const content = [other, target, other].join("\n\n")
        const [output] = yield* Compression.compress([result(content)], "量子", rank(200, 1))
        expect(output.content).toContain("量子")
        expect(content).toContain(output.content)
      })
    )

    it.effect("joins kept chunks that were apart with the separator", () =>
      Effect.gen(function* () {
        const paragraphs = Array.from({ length: 8 }, (_, n) =>
          filler(n === 1 || n === 6 ? "volcanic eruptions" : "knitting patterns", n)
        )
        const [output] = yield* Compression.compress(
          [result(paragraphs.join("\n\n"))],
          "volcanic eruptions",
          rank(200, 2)
        )
        expect(output.content).toBe(`${paragraphs[1]}${Compression.chunkSeparator}${paragraphs[6]}`)
      })
    )

    it.effect("leaves short results and method none alone", () =>
      Effect.gen(function* () {
        const short = [result("A short page. It fits in one chunk.")]
        expect(yield* Compression.compress(short, "page", rank(200, 1))).toBe(short)
        const long = [result(Array.from({ length: 20 }, (_, n) => filler("x", n)).join("\n\n"))]
        expect(yield* Compression.compress(long, "x", { method: "none" })).toBe(long)
      })
    )

    it("decodes settings with defaults and bounds", () => {
      const decode = Schema.decodeUnknownEither(Compression.Compression)
      expect(decode({ method: "rank" })).toEqual(Either.right({ method: "rank", chunkSize: 1000, topChunks: 3 }))
      expect(decode({ method: "none" })).toEqual(Either.right({ method: "none" }))
      expect(Either.isLeft(decode({ method: "rank", chunkSize: 100 }))).toBe(true)
      expect(Either.isLeft(decode({ method: "rank", topChunks: 51 }))).toBe(true)
      expect(Either.isLeft(decode({ method: "rank", chunkSize: 500.5 }))).toBe(true)
    })
  })
})
