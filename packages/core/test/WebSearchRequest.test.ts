import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as WebSearchRequest from "../src/WebSearchRequest.js"

const { dedupe, normalizeKeyword, normalizeKeywords, normalizeUrl } = WebSearchRequest

const whitespace = FastCheck.constantFrom(" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\r\n")
const messyKeyword = FastCheck.array(FastCheck.oneof(FastCheck.fullUnicodeString({ maxLength: 6 }), whitespace), {
  maxLength: 6
}).map((parts) => parts.join(""))

const padded = (arb: FastCheck.Arbitrary<string>) =>
  FastCheck.tuple(whitespace, arb, whitespace, FastCheck.boolean()).map(([before, s, after, pad]) =>
    pad ? `${before}${s}${after}` : s
  )

describe("WebSearchRequest", () => {
  describe("searchKeywords requests", () => {
    it.effect(
      "keywords are trimmed, inner white space folded, empty ones dropped and duplicates removed (first wins)",
      () =>
        Effect.gen(function* () {
          const request = yield* WebSearchRequest.normalizeSearchKeywords({
            keywords: ["  effect\tts ", "", "  ", "vitest", "effect ts", "Effect ts"],
            maxResults: 3
          })
          expect(request).toEqual({
            capability: "searchKeywords",
            providerId: undefined,
            inputs: ["effect ts", "vitest", "Effect ts"],
            maxResults: 3,
            searchOptions: {}
          })
        })
    )

    it.effect("limits and unknown fields fail with RequestFailed/invalid_input naming the field", () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ keywords: [] }, "keywords: at least one keyword is required"],
          [{ keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }, "keywords: at most 20 keywords per request"],
          [{ keywords: ["x".repeat(1001)] }, "keywords[0]: at most 1000 characters (it has 1001)"],
          [{ keywords: ["x"], maxResults: 0 }, "maxResults: maxResults must be an integer from 1 to 50"],
          [{ keywords: ["x"], maxResults: 51 }, "maxResults"],
          [{ keywords: ["x"], maxResults: 2.5 }, "maxResults: not an integer"],
          [{ keywords: ["x"], providerId: "Not An Id" }, "providerId"],
          [{ keywords: ["x"], query: "x" }, "query: is not a known field (the fields are providerId, "],
          [{ keywords: [" ", ""] }, "every keyword is empty"],
          [null, "request: not an object"]
        ]
        for (const [request, fragment] of cases) {
          const error = yield* Effect.flip(WebSearchRequest.normalizeSearchKeywords(request))
          expect([error._tag, error.reason, error.capability, error.retryable]).toEqual([
            "RequestFailed",
            "invalid_input",
            "searchKeywords",
            false
          ])
          expect(error.message, JSON.stringify(request)).toContain(fragment)
        }
      })
    )

    it.effect("1 to 20 keywords and maxResults 1 to 50 are accepted", () =>
      Effect.gen(function* () {
        const twenty = Array.from({ length: 20 }, (_, i) => `k${i}`)
        expect((yield* WebSearchRequest.normalizeSearchKeywords({ keywords: twenty, maxResults: 50 })).inputs).toEqual(
          twenty
        )
        expect((yield* WebSearchRequest.normalizeSearchKeywords({ keywords: ["a"], maxResults: 1 })).maxResults).toBe(1)
      })
    )
  })

  describe("fetchUrls requests", () => {
    it.effect("URLs are trimmed, parsed, blank ones skipped and duplicates (after normalisation) removed", () =>
      Effect.gen(function* () {
        const request = yield* WebSearchRequest.normalizeFetchUrls({
          providerId: "jina",
          urls: [" HTTPS://Example.COM ", "", "https://example.com/", "http://a.example/path?q=1#frag"]
        })
        expect(request).toEqual({
          capability: "fetchUrls",
          providerId: "jina",
          inputs: ["https://example.com/", "http://a.example/path?q=1#frag"],
          maxResults: undefined,
          searchOptions: {}
        })
      })
    )

    it.effect("an invalid URL fails the whole request with RequestFailed/invalid_input naming its index and why", () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["ftp://files.example/a", "only http and https"],
          ["javascript:alert(1)", "only http and https"],
          ["not a url", "is not a valid URL"],
          ["https://user:pass@example.com/", "credentials in URLs are refused"],
          ["file:///etc/passwd", "only http and https"]
        ]
        for (const [bad, why] of cases) {
          const error = yield* Effect.flip(WebSearchRequest.normalizeFetchUrls({ urls: ["https://ok.example/", bad] }))
          expect([error._tag, error.reason, error.capability, error.input]).toEqual([
            "RequestFailed",
            "invalid_input",
            "fetchUrls",
            bad
          ])
          expect(error.message).toContain("urls[1]: not an http(s) URL")
          expect(error.message).toContain(why)
          expect(error.message).not.toContain("pass@")
        }
        const blank = yield* Effect.flip(WebSearchRequest.normalizeFetchUrls({ urls: [" ", ""] }))
        expect(blank.message).toContain("every URL is empty")
        const many = yield* Effect.flip(
          WebSearchRequest.normalizeFetchUrls({ urls: Array.from({ length: 21 }, (_, i) => `https://e.example/${i}`) })
        )
        expect(many.message).toContain("at most 20 URLs")
        const extra = yield* Effect.flip(
          WebSearchRequest.normalizeFetchUrls({ urls: ["https://e.example/"], maxResults: 3 })
        )
        expect(extra.message).toContain("maxResults")
      })
    )

    it("normalizeUrl explains what is wrong", () => {
      expect(normalizeUrl("  ")).toEqual(Either.left("the URL is empty"))
      expect(normalizeUrl("https://EXAMPLE.com:443/a/../b")).toEqual(Either.right("https://example.com/b"))
      expect(Either.isLeft(normalizeUrl("mailto:a@example.com"))).toBe(true)
    })
  })

  describe("research requests", () => {
    it.effect("the brief is trimmed and domains lower-cased; bad briefs and domains fail with invalid_input", () =>
      Effect.gen(function* () {
        const ok = yield* WebSearchRequest.decodeResearch({
          query: "  capital of France  ",
          allowedDomains: [" Wikipedia.ORG. ", "gov.fr"]
        })
        expect(ok).toEqual({ query: "capital of France", allowedDomains: ["wikipedia.org", "gov.fr"] })
        // No allowedDomains is the open web, as in the CLI and MCP.
        expect(yield* WebSearchRequest.decodeResearch({ query: "q" })).toEqual({ query: "q", allowedDomains: [] })
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ query: "   ", allowedDomains: [] }, "query must not be empty"],
          [{ query: "x".repeat(1001), allowedDomains: [] }, "at most 1000 characters"],
          [{ query: "q", allowedDomains: ["https://example.com/"] }, "is not a domain name"],
          [{ query: "q", allowedDomains: Array.from({ length: 21 }, (_, i) => `d${i}.example`) }, "at most 20"],
          [{ query: "q", allowedDomains: null }, "allowedDomains"]
        ]
        for (const [request, fragment] of cases) {
          const error = yield* Effect.flip(WebSearchRequest.decodeResearch(request))
          expect([error.reason, error.capability]).toEqual(["invalid_input", "research"])
          expect(error.message).toContain(fragment)
        }
      })
    )
  })

  describe("properties", () => {
    it.prop("normalizeKeywords is idempotent", [FastCheck.array(messyKeyword, { maxLength: 25 })], ([keywords]) => {
      const once = normalizeKeywords(keywords)
      expect(normalizeKeywords(once)).toEqual(once)
    })

    it.prop(
      "normalizeKeywords yields distinct, non-empty, normalised keywords in order of first appearance",
      [FastCheck.array(messyKeyword, { maxLength: 25 })],
      ([keywords]) => {
        const out = normalizeKeywords(keywords)
        const oracle: Array<string> = []
        for (const k of keywords.map(normalizeKeyword)) if (k !== "" && !oracle.includes(k)) oracle.push(k)
        expect(out).toEqual(oracle)
        for (const k of out) expect(k).toBe(k.trim())
      }
    )

    it.prop(
      "normalizeUrl is idempotent on arbitrary web URLs",
      [padded(FastCheck.webUrl({ withQueryParameters: true, withFragments: true }))],
      ([url]) => {
        const once = normalizeUrl(url)
        expect(Either.isRight(once), url).toBe(true)
        if (Either.isRight(once)) expect(normalizeUrl(once.right)).toEqual(once)
      }
    )

    it.effect.prop(
      "the fetch-request normaliser is idempotent",
      [
        FastCheck.array(padded(FastCheck.webUrl({ withQueryParameters: true, withFragments: true })), {
          minLength: 1,
          maxLength: 20
        })
      ],
      ([urls]) =>
        Effect.gen(function* () {
          const once = yield* WebSearchRequest.normalizeFetchUrls({ urls })
          const twice = yield* WebSearchRequest.normalizeFetchUrls({ urls: once.inputs })
          expect(twice).toEqual(once)
          expect(new Set(once.inputs).size).toBe(once.inputs.length)
        })
    )

    it.effect.prop(
      "the search-request normaliser is idempotent",
      [
        FastCheck.array(
          messyKeyword.filter((k) => k.trim() !== ""),
          { minLength: 1, maxLength: 20 }
        )
      ],
      ([keywords]) =>
        Effect.gen(function* () {
          const once = yield* WebSearchRequest.normalizeSearchKeywords({ keywords })
          const twice = yield* WebSearchRequest.normalizeSearchKeywords({ keywords: once.inputs })
          expect(twice).toEqual(once)
        })
    )

    it.prop(
      "dedupe keeps each value's first occurrence and preserves order",
      [FastCheck.array(FastCheck.integer({ min: 0, max: 9 }), { maxLength: 40 })],
      ([items]) => {
        const out = dedupe(items)
        expect(out).toEqual(items.filter((item, index) => items.indexOf(item) === index))
        expect(dedupe(out)).toEqual(out)
      }
    )

    it.prop(
      "dedupe by key keeps the first item of each key, in order",
      [
        FastCheck.array(FastCheck.record({ key: FastCheck.integer({ min: 0, max: 5 }), id: FastCheck.nat() }), {
          maxLength: 30
        })
      ],
      ([items]) => {
        const out = dedupe(items, (item) => item.key)
        const firsts = items.filter((item, index) => items.findIndex((other) => other.key === item.key) === index)
        expect(out).toEqual(firsts)
      }
    )
  })
})

describe("invalid_input messages", () => {
  it.effect("name the field and never echo a whole oversized value", () =>
    Effect.gen(function* () {
      const huge = "a".repeat(5000)
      const error = yield* Effect.flip(WebSearchRequest.normalizeSearchKeywords({ keywords: ["ok", huge] }))
      expect(error.reason).toBe("invalid_input")
      expect(error.message).toContain("keywords[1]: at most 1000 characters (it has 5000)")
      expect(error.message).not.toContain("a".repeat(81))
      expect(error.message.length).toBeLessThan(300)
    })
  )

  it.effect("never echo a whole oversized field name (an unknown key is the caller's text)", () =>
    Effect.gen(function* () {
      const key = "k".repeat(60_000)
      const error = yield* Effect.flip(WebSearchRequest.normalizeSearchKeywords({ keywords: ["ok"], [key]: 1 }))
      expect(error.message).toContain("(60000 characters): is not a known field")
      expect(error.message).not.toContain("k".repeat(81))
      expect(error.message.length).toBeLessThan(1000)
    })
  )

  it.effect("a domain's own sentence is the message, not the type it was decoded from", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        WebSearchRequest.normalizeSearchKeywords({ keywords: ["x"], includeDomains: ["https://example.com"] })
      )
      expect(error.message).toContain('includeDomains[0]: "https://example.com" is not a bare domain name')
    })
  )

  it.effect("report only the real problem of an optional field, not its undefined alternative", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(WebSearchRequest.normalizeSearchKeywords({ keywords: ["x"], maxResults: "5" }))
      expect(error.message).toBe("invalid searchKeywords request: maxResults: not a number")
    })
  )
})
