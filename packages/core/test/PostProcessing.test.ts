import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Compression from "../src/Compression.js"
import * as ContentBudget from "../src/ContentBudget.js"
import * as PostProcessing from "../src/internal/postProcessing.js"
import type { WebSearchResult } from "../src/WebSearchResponse.js"

const result = (url: string, content: string, title = url): WebSearchResult => ({
  title,
  content,
  url,
  sourceInput: "query"
})

const noBudget = ContentBudget.defaultBudget
const noCompression: Compression.Compression = { method: "none" }

/** URLs drawn from a small pool with spelling variants, so duplicates are common. */
const url = FastCheck.tuple(
  FastCheck.constantFrom("example.com", "EXAMPLE.com", "docs.example.org"),
  FastCheck.constantFrom("", "/", "/a", "/a/", "/?q=1"),
  FastCheck.constantFrom("", "#top", "#"),
  FastCheck.constantFrom("", ":443")
).map(([host, path, fragment, port]) => `https://${host}${port}${path}${fragment}`)

const anyUrl = FastCheck.oneof(url, FastCheck.constantFrom("not a url", "NOT A URL", ""), FastCheck.webUrl())

// A failure on large unicode inputs can take minutes to shrink; report the counterexample found by then.
const shrinkBriefly = { fastCheck: { interruptAfterTimeLimit: 15_000 } }

describe("PostProcessing", () => {
  describe("normalizeUrlForDedupe", () => {
    it("folds host case, default port, fragment and the root slash", () => {
      const same = [
        "https://Example.COM",
        "https://example.com/",
        "https://example.com:443/#top",
        "HTTPS://EXAMPLE.COM/#"
      ].map(PostProcessing.normalizeUrlForDedupe)
      expect(new Set(same)).toEqual(new Set(["https://example.com"]))
      expect(PostProcessing.normalizeUrlForDedupe("https://example.com/?q=1#x")).toBe("https://example.com?q=1")
    })

    it("keeps what can change the resource", () => {
      const normalize = PostProcessing.normalizeUrlForDedupe
      expect(normalize("https://example.com/docs/")).not.toBe(normalize("https://example.com/docs"))
      expect(normalize("https://example.com/Docs")).not.toBe(normalize("https://example.com/docs"))
      expect(normalize("http://example.com/")).not.toBe(normalize("https://example.com/"))
      expect(normalize("https://example.com:8443/")).not.toBe(normalize("https://example.com/"))
      expect(normalize("https://example.com/?a=1")).not.toBe(normalize("https://example.com/?a=2"))
    })

    it("compares unparseable URLs by their raw string", () => {
      expect(PostProcessing.normalizeUrlForDedupe("not a url")).toBe("not a url")
      expect(PostProcessing.normalizeUrlForDedupe("NOT A URL")).toBe("NOT A URL")
    })

    it.prop("is idempotent", [anyUrl], ([raw]) => {
      const once = PostProcessing.normalizeUrlForDedupe(raw)
      expect(PostProcessing.normalizeUrlForDedupe(once)).toBe(once)
    })
  })

  describe("dedupe", () => {
    it.prop(
      "keeps the first occurrence of each URL and preserves order",
      [FastCheck.array(anyUrl, { maxLength: 30 })],
      ([urls]) => {
        const input = urls.map((u, i) => result(u, `content ${i}`, `#${i}`))
        const output = PostProcessing.dedupeByUrl(input)
        const keys = input.map((r) => PostProcessing.normalizeUrlForDedupe(r.url))
        const expected = input.filter((_, i) => keys.indexOf(keys[i]) === i)
        expect(output).toEqual(expected)
        expect(new Set(output.map((r) => PostProcessing.normalizeUrlForDedupe(r.url))).size).toBe(output.length)
      }
    )

    it.effect("run drops later duplicates before anything else", () =>
      Effect.gen(function* () {
        const input = [
          result("https://example.com/", "first", "a"),
          result("https://b.example/", "other", "b"),
          result("https://EXAMPLE.com/#again", "second", "c")
        ]
        const output = yield* PostProcessing.run(input, { query: "q", budget: noBudget, compression: noCompression })
        expect(output.map((r) => r.title)).toEqual(["a", "b"])
      })
    )
  })

  describe("run", () => {
    const paragraph = (topic: string, n: number) =>
      `Paragraph ${n} is about ${topic}. It carries a few sentences of filler text so that it takes up some room.`

    it.effect("compresses first, then the budget caps what is left", () =>
      Effect.gen(function* () {
        const paragraphs = Array.from({ length: 10 }, (_, n) =>
          paragraph(n === 8 ? "deep sea hydrothermal vents" : "local bakery opening hours", n)
        )
        const input = [result("https://a.example/", paragraphs.join("\n\n")), result("https://b.example/", "tiny")]
        const output = yield* PostProcessing.run(input, {
          query: "hydrothermal vents",
          budget: { method: "cutoff", unit: "chars", limit: 80 },
          compression: { method: "rank", chunkSize: 200, topChunks: 1 }
        })
        // Had the budget run first, the vents paragraph (the ninth) would have been cut away before ranking.
        expect(output[0].content).toBe(paragraphs[8].slice(0, output[0].content.length))
        expect(output[0].content.startsWith("Paragraph 8 is about deep sea")).toBe(true)
        expect(output[1].content).toBe("tiny")
        expect(output.reduce((n, r) => n + r.content.length, 0)).toBeLessThanOrEqual(80)
        // The cut says the length of the page before ranking, not of the chunk ranking kept.
        expect(output[0].lengthBeforeCut).toBe(input[0].content.length)
        expect(output[1].lengthBeforeCut).toBeUndefined()
      })
    )

    it.effect("ranking alone shortening a page is a cut too, and says so", () =>
      Effect.gen(function* () {
        const content = Array.from({ length: 10 }, (_, n) => paragraph(n === 3 ? "vents" : "bakery", n)).join("\n\n")
        const [page] = yield* PostProcessing.run([result("https://a.example/", content)], {
          query: "vents",
          budget: noBudget,
          compression: { method: "rank", chunkSize: 200, topChunks: 1 }
        })
        expect(page.content.length).toBeLessThan(content.length)
        expect(page.lengthBeforeCut).toBe(content.length)
      })
    )

    it.effect("the budget holds even when a plugged-in ranker returns garbage", () =>
      Effect.gen(function* () {
        const content = Array.from({ length: 30 }, (_, n) => paragraph("anything", n)).join("\n\n")
        const output = yield* PostProcessing.run([result("https://a.example/", content)], {
          query: "q",
          budget: { method: "cutoff", unit: "tokens", limit: 50 },
          compression: { method: "rank", chunkSize: 200, topChunks: 5 }
        }).pipe(
          Effect.provideService(Compression.ChunkRanker, { rank: () => Effect.succeed([Number.NaN, 3]) }),
          Effect.provideService(ContentBudget.TokenCounter, { count: (text) => text.length })
        )
        expect(output[0].content.length).toBeLessThanOrEqual(50)
        expect(output[0].content.length).toBeGreaterThan(0)
      })
    )

    it.effect.prop(
      "output never exceeds the budget, the hard cap, or its input",
      [
        FastCheck.array(FastCheck.tuple(url, FastCheck.string({ unit: "grapheme", maxLength: 3000 })), {
          maxLength: 6
        }),
        FastCheck.integer({ min: 1, max: 2000 }),
        FastCheck.boolean()
      ],
      ([pairs, limit, ranked]) => {
        const input = pairs.map(([u, content]) => result(u, content))
        return PostProcessing.run(input, {
          query: "alpha",
          budget: { method: "cutoff", unit: "chars", limit },
          compression: ranked ? { method: "rank", chunkSize: 200, topChunks: 2 } : noCompression
        }).pipe(
          Effect.map((output) => {
            const total = output.reduce((n, r) => n + r.content.length, 0)
            expect(total).toBeLessThanOrEqual(Math.min(limit, ContentBudget.hardCapChars))
            expect(output).toHaveLength(PostProcessing.dedupeByUrl(input).length)
            if (!ranked) {
              const deduped = PostProcessing.dedupeByUrl(input)
              output.forEach((r, i) => expect(deduped[i].content.startsWith(r.content)).toBe(true))
            }
          })
        )
      },
      shrinkBriefly
    )
  })

  describe("every cut is visible", () => {
    const budget = (limit: number): ContentBudget.ContentBudget => ({ method: "cutoff", unit: "chars", limit })
    const contents = FastCheck.array(FastCheck.string({ maxLength: 400 }), { minLength: 1, maxLength: 6 })

    it.effect.prop(
      "a result the budget cut says its length before the cut; one left whole says nothing",
      [contents, FastCheck.integer({ min: 1, max: 1200 })],
      ([texts, limit]) =>
        Effect.gen(function* () {
          const input = texts.map((text, i) => result(`https://a.example/${i}`, text))
          const output = yield* PostProcessing.run(input, {
            query: "q",
            budget: budget(limit),
            compression: noCompression
          })
          output.forEach((out, i) => {
            if (out.content === input[i].content) expect(out.lengthBeforeCut).toBeUndefined()
            else {
              expect(out.lengthBeforeCut).toBe(input[i].content.length)
              expect(input[i].content.startsWith(out.content)).toBe(true)
            }
            expect(out.nextStartIndex).toBeUndefined()
          })
        })
    )

    it.effect("a verbatim page the budget cut reads on instead (continuable); a snippet cannot", () =>
      Effect.gen(function* () {
        const page = result("https://a.example/", "word ".repeat(400))
        const options = { query: "q", budget: budget(100), compression: noCompression }
        const [fetched] = yield* PostProcessing.run([page], { ...options, continuable: true })
        expect(fetched.nextStartIndex).toBe(fetched.content.length)
        expect(fetched.totalLength).toBe(2000)
        expect(fetched.lengthBeforeCut).toBeUndefined()
        const [snippet] = yield* PostProcessing.run([page], options)
        expect(snippet.lengthBeforeCut).toBe(2000)
        expect(snippet.nextStartIndex).toBeUndefined()
      })
    )
  })
})
