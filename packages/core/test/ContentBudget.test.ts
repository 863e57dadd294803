import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as ContentBudget from "../src/ContentBudget.js"
import type { WebSearchResult } from "../src/WebSearchResponse.js"

const result = (content: string, index = 0): WebSearchResult => ({
  title: `title ${index}`,
  content,
  url: `https://example.com/${index}`,
  sourceInput: "query"
})

const results = (contents: ReadonlyArray<string>): Array<WebSearchResult> => contents.map(result)

const unicodeText = FastCheck.oneof(
  FastCheck.string({ unit: "grapheme", maxLength: 200 }),
  FastCheck.fullUnicodeString({ maxLength: 200 }),
  FastCheck.string({ unit: "binary", maxLength: 200 }),
  FastCheck.array(FastCheck.constantFrom("word", " ", "😀", "👩‍👩‍👧", "日本語", "\n", "é", "𠀀"), { maxLength: 80 }).map(
    (parts) => parts.join("")
  )
)

const contents = FastCheck.array(unicodeText, { maxLength: 8 })

const estimator: ContentBudget.TokenCounter.Service = { count: ContentBudget.estimateTokens }

const endsWithHighSurrogate = (text: string): boolean => {
  const last = text.charCodeAt(text.length - 1)
  return last >= 0xd800 && last <= 0xdbff
}

const expectPrefixesInOrder = (input: ReadonlyArray<WebSearchResult>, output: ReadonlyArray<WebSearchResult>) => {
  expect(output.map((r) => r.url)).toEqual(input.map((r) => r.url))
  output.forEach((r, i) => {
    expect(input[i].content.startsWith(r.content)).toBe(true)
    if (r.content !== input[i].content) expect(endsWithHighSurrogate(r.content)).toBe(false)
  })
}

const sum = (values: ReadonlyArray<number>): number => values.reduce((a, b) => a + b, 0)

describe("ContentBudget", () => {
  describe("properties", () => {
    it.prop(
      "a chars cutoff never exceeds the limit and keeps prefixes",
      [contents, FastCheck.integer({ min: 1, max: 600 })],
      ([texts, limit]) => {
        const input = results(texts)
        const output = ContentBudget.apply(input, { method: "cutoff", unit: "chars", limit }, estimator)
        expect(sum(output.map((r) => r.content.length))).toBeLessThanOrEqual(limit)
        expectPrefixesInOrder(input, output)
      }
    )

    it.prop(
      "a tokens cutoff never exceeds the limit per the counter and keeps prefixes",
      [contents, FastCheck.integer({ min: 1, max: 300 })],
      ([texts, limit]) => {
        const input = results(texts)
        const output = ContentBudget.apply(input, { method: "cutoff", unit: "tokens", limit }, estimator)
        expect(sum(output.map((r) => ContentBudget.estimateTokens(r.content)))).toBeLessThanOrEqual(limit)
        expectPrefixesInOrder(input, output)
      }
    )

    it.effect.prop(
      "a provided TokenCounter is the one the budget obeys",
      [contents, FastCheck.integer({ min: 1, max: 100 })],
      ([texts, limit]) => {
        const codePoints = (text: string) => Array.from(text).length
        const input = results(texts)
        return ContentBudget.enforce(input, { method: "cutoff", unit: "tokens", limit }).pipe(
          Effect.provideService(ContentBudget.TokenCounter, { count: codePoints }),
          Effect.map((output) => {
            expect(sum(output.map((r) => codePoints(r.content)))).toBeLessThanOrEqual(limit)
            expectPrefixesInOrder(input, output)
          })
        )
      }
    )

    it.prop(
      "no cut content ends in a lone high surrogate",
      [contents, FastCheck.integer({ min: 1, max: 60 })],
      ([texts, limit]) => {
        for (const unit of ["chars", "tokens"] as const) {
          const output = ContentBudget.apply(results(texts), { method: "cutoff", unit, limit }, estimator)
          for (const r of output) expect(endsWithHighSurrogate(r.content)).toBe(false)
        }
      }
    )

    it.prop(
      "the hard cap holds under method none",
      [
        FastCheck.array(
          FastCheck.tuple(
            FastCheck.fullUnicodeString({ minLength: 1, maxLength: 4 }),
            FastCheck.integer({ min: 0, max: 40_000 })
          ),
          { minLength: 1, maxLength: 6 }
        ),
        FastCheck.constantFrom("chars" as const, "tokens" as const)
      ],
      ([pieces, unit]) => {
        const input = results(pieces.map(([piece, times]) => piece.repeat(times)))
        const output = ContentBudget.apply(input, { method: "none", unit, limit: 1 }, estimator)
        expect(sum(output.map((r) => r.content.length))).toBeLessThanOrEqual(ContentBudget.hardCapChars)
        expectPrefixesInOrder(input, output)
      },
      { fastCheck: { numRuns: 25 } }
    )

    it.prop(
      "allocate never overspends and gives small items all they ask",
      [FastCheck.array(FastCheck.nat(1000), { maxLength: 12 }), FastCheck.nat(3000)],
      ([sizes, limit]) => {
        const allowances = ContentBudget.allocate(sizes, limit)
        expect(sum(allowances)).toBeLessThanOrEqual(Math.max(limit, sum(sizes)))
        if (sum(sizes) > limit) expect(sum(allowances)).toBe(limit)
        allowances.forEach((allowance, i) => expect(allowance).toBeLessThanOrEqual(sizes[i]))
        const capped = sizes.filter((size, i) => allowances[i] < size)
        const largest = Math.max(0, ...allowances)
        // Water-filling: everyone who was cut got within one unit of the largest allowance.
        allowances.forEach((allowance, i) => {
          if (allowance < sizes[i]) expect(largest - allowance).toBeLessThanOrEqual(1)
        })
        expect(capped.length === 0).toBe(sum(sizes) <= limit)
      }
    )

    it.prop(
      "estimateTokens never under-counts chars / 4 for ASCII text",
      [FastCheck.string({ maxLength: 500 })],
      ([text]) => {
        expect(ContentBudget.estimateTokens(text)).toBeGreaterThanOrEqual(text.length / 4)
      }
    )

    it.prop("estimateTokens is monotonic over prefixes", [unicodeText, FastCheck.nat(200)], ([text, at]) => {
      expect(ContentBudget.estimateTokens(text.slice(0, at))).toBeLessThanOrEqual(ContentBudget.estimateTokens(text))
    })
  })

  describe("examples", () => {
    it("splits fairly: a short result is untouched and the long ones share the rest", () => {
      const short = "short text"
      const long = "x".repeat(1000)
      const output = ContentBudget.apply(
        results([long, short, long]),
        { method: "cutoff", unit: "chars", limit: 510 },
        estimator
      )
      expect(output.map((r) => r.content.length)).toEqual([250, short.length, 250])
      expect(output[1].content).toBe(short)
    })

    it("leaves results alone when they fit", () => {
      const input = results(["one", "two"])
      expect(ContentBudget.apply(input, { method: "cutoff", unit: "chars", limit: 6 }, estimator)).toEqual(input)
    })

    it("prefers a white-space boundary near the end of the allowance", () => {
      const text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu"
      const cut = ContentBudget.truncateChars(text, 50)
      expect(cut).toBe("alpha beta gamma delta epsilon zeta eta theta iota")
      expect(ContentBudget.truncateChars("x".repeat(60), 50)).toBe("x".repeat(50))
    })

    it("never splits a surrogate pair", () => {
      expect(ContentBudget.truncateChars("ab😀cd", 3)).toBe("ab")
      expect(ContentBudget.truncateChars("ab😀cd", 4)).toBe("ab😀")
    })

    it("estimates CJK at one token or more per code point", () => {
      expect(ContentBudget.estimateTokens("日本語のテキスト")).toBeGreaterThanOrEqual(8)
      expect(ContentBudget.estimateTokens("한국어")).toBeGreaterThanOrEqual(3)
      expect(ContentBudget.estimateTokens("中文𠀀")).toBeGreaterThanOrEqual(3)
      expect(ContentBudget.estimateTokens("hello world!")).toBe(3)
      expect(ContentBudget.estimateTokens("")).toBe(0)
    })

    it("cuts CJK text to the token limit", () => {
      const output = ContentBudget.apply(
        results(["東京は日本の首都です。".repeat(10)]),
        { method: "cutoff", unit: "tokens", limit: 7 },
        estimator
      )
      expect(output[0].content).toBe("東京は日本の首")
    })

    it.effect("reads a custom TokenCounter provided with Effect.provideService", () =>
      Effect.gen(function* () {
        const words = (text: string) => text.split(/\s+/u).filter((w) => w.length > 0).length
        const input = results(["one two three four five six seven eight nine ten", "a b"])
        const output = yield* ContentBudget.enforce(input, { method: "cutoff", unit: "tokens", limit: 6 }).pipe(
          Effect.provideService(ContentBudget.TokenCounter, { count: words })
        )
        expect(output.map((r) => r.content)).toEqual(["one two three four", "a b"])
      })
    )

    it.effect("uses the estimator when no TokenCounter is provided", () =>
      Effect.gen(function* () {
        const input = results(["a".repeat(100)])
        const output = yield* ContentBudget.enforce(input, { method: "cutoff", unit: "tokens", limit: 10 })
        expect(output[0].content).toBe("a".repeat(40))
      })
    )

    it("has a data-last form", () => {
      const input = results(["abcdef", "ghijkl"])
      const budget: ContentBudget.ContentBudget = { method: "cutoff", unit: "chars", limit: 4 }
      expect(ContentBudget.apply(budget, estimator)(input)).toEqual(ContentBudget.apply(input, budget, estimator))
    })

    it("decodes settings and rejects a non-positive or fractional limit", () => {
      const decode = Schema.decodeUnknownEither(ContentBudget.ContentBudget)
      expect(decode({ method: "cutoff", unit: "tokens", limit: 4000 })).toEqual(
        Either.right({ method: "cutoff", unit: "tokens", limit: 4000 })
      )
      expect(Either.isLeft(decode({ method: "cutoff", unit: "tokens", limit: 0 }))).toBe(true)
      expect(Either.isLeft(decode({ method: "cutoff", unit: "chars", limit: 1.5 }))).toBe(true)
      expect(Either.isLeft(decode({ method: "truncate", unit: "chars", limit: 10 }))).toBe(true)
      expect(Either.isRight(decode(ContentBudget.defaultBudget))).toBe(true)
    })
  })
})
