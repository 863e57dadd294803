import { describe, expect, it } from "@effect/vitest"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Evidence from "../src/internal/evidence.js"
import * as OpenAiWire from "../src/internal/openAiWire.js"
import * as OpenAiPrices from "../src/OpenAiPrices.js"

const hostile = FastCheck.constantFrom(
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  "data:text/html,<script>1</script>",
  "file:///etc/passwd",
  "ftp://example.com/x",
  "https://user:pass@example.com/",
  "not a url",
  ""
)
const url = FastCheck.oneof(
  { weight: 4, arbitrary: FastCheck.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 1, arbitrary: hostile },
  {
    weight: 1,
    arbitrary: FastCheck.webUrl().map((u) => `${u}${u.includes("?") ? "&" : "?"}utm_source=openai`)
  }
)
const found = FastCheck.record({
  url,
  title: FastCheck.option(FastCheck.string({ maxLength: 20 }), { nil: undefined })
})

describe("OpenAi evidence caps", () => {
  it.prop(
    "sources: at most 32, unique, http(s) only, no credentials, cited first; dropped URLs are counted",
    [FastCheck.array(found, { maxLength: 60 }), FastCheck.array(found, { maxLength: 60 })],
    ([cited, consulted]) => {
      const projection = Evidence.project({ report: "r", queries: [], cited, consulted })
      const urls = projection.sources.map((s) => s.url)
      expect(urls.length).toBeLessThanOrEqual(Evidence.caps.sources)
      expect(new Set(urls).size).toBe(urls.length)
      for (const u of urls) {
        const parsed = new URL(u)
        expect(["http:", "https:"]).toContain(parsed.protocol)
        expect(parsed.username + parsed.password).toBe("")
        expect(parsed.hash).toBe("")
        expect(parsed.searchParams.get("utm_source")).not.toBe("openai")
      }
      const distinct = new Set(
        [...cited, ...consulted].map((f) => Evidence.httpUrl(f.url)).filter((u) => u !== undefined)
      )
      expect(urls.length).toBe(Math.min(distinct.size, Evidence.caps.sources))
      expect(projection.sourcesOverCap).toBe(Math.max(0, distinct.size - Evidence.caps.sources))
      const citedUrls = new Set(cited.map((f) => Evidence.httpUrl(f.url)).filter((u) => u !== undefined))
      expect(projection.citedSources).toBe(citedUrls.size)
      // Every cited URL comes before every merely consulted one.
      const firstConsulted = urls.findIndex((u) => !citedUrls.has(u))
      if (firstConsulted !== -1) expect(urls.slice(firstConsulted).every((u) => !citedUrls.has(u))).toBe(true)
      const dropped = [...cited, ...consulted].filter((f) => Evidence.httpUrl(f.url) === undefined).length
      expect(projection.droppedUrls).toBe(dropped)
      for (const s of projection.sources) expect(s.title.length).toBeGreaterThan(0)
    }
  )

  it("a query cut at 1000 characters loses the white space the cut exposed", () => {
    const long = `${"a".repeat(999)} ${"b".repeat(50)}`
    expect(Evidence.project({ report: "r", queries: [long, "  x  ", "x"], cited: [], consulted: [] }).queries).toEqual([
      "a".repeat(999),
      "x"
    ])
  })

  it.prop(
    "queries: at most 32, trimmed, unique, non-empty, at most 1000 characters each, in first-seen order",
    [
      FastCheck.array(
        FastCheck.oneof(FastCheck.string({ maxLength: 8 }), FastCheck.string({ minLength: 995, maxLength: 1010 })),
        { maxLength: 50 }
      )
    ],
    ([queries]) => {
      const projected = Evidence.project({ report: "r", queries, cited: [], consulted: [] }).queries
      expect(projected.length).toBeLessThanOrEqual(32)
      expect(new Set(projected).size).toBe(projected.length)
      for (const q of projected) {
        expect(q.length).toBeGreaterThan(0)
        expect(q.length).toBeLessThanOrEqual(1000)
        expect(q).toBe(q.trim())
      }
    }
  )

  it.prop(
    "the report is cut to 30 000 UTF-16 units, as a prefix, never leaving half a surrogate pair",
    [
      FastCheck.fullUnicodeString({ minLength: 14_990, maxLength: 15_010 }),
      FastCheck.fullUnicodeString({ maxLength: 3 })
    ],
    ([body, tail]) => {
      const report = `${body}${body}${tail}`
      const projected = Evidence.project({ report, queries: [], cited: [], consulted: [] })
      expect(projected.report.length).toBeLessThanOrEqual(30_000)
      expect(report.startsWith(projected.report)).toBe(true)
      expect(projected.report.length).toBeGreaterThanOrEqual(Math.min(report.length, 29_999))
      const last = projected.report.charCodeAt(projected.report.length - 1)
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false)
      expect(projected.reportTruncatedFrom).toBe(report.length > 30_000 ? report.length : undefined)
    }
  )
})

describe("OpenAi request schema and body", () => {
  // A DNS name as the schema accepts it: letters, digits and inner hyphens per label, a letter-led TLD.
  const label = FastCheck.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/)
  const domain = FastCheck.tuple(
    FastCheck.array(label, { minLength: 1, maxLength: 3 }),
    FastCheck.stringMatching(/^[a-z][a-z0-9]{1,8}$/)
  ).map(([labels, tld]) => [...labels, tld].join("."))
  const upper = (s: string, flips: ReadonlyArray<boolean>) =>
    [...s].map((c, i) => (flips[i % Math.max(1, flips.length)] ? c.toUpperCase() : c)).join("")

  it.effect.prop(
    "up to 20 hostnames are accepted (lower-cased, trailing dot dropped) and become the tool's allowed_domains",
    [FastCheck.array(domain, { maxLength: 20 }), FastCheck.array(FastCheck.boolean(), { minLength: 1, maxLength: 5 })],
    ([domains, flips]) =>
      Effect.gen(function* () {
        const decoded = yield* WebSearchRequest.decodeResearch({
          query: " brief ",
          allowedDomains: domains.map((d, i) => (i % 2 === 0 ? upper(d, flips) : `${d}.`))
        })
        expect(decoded.allowedDomains).toEqual(domains)
        const body = OpenAiWire.requestBody(decoded, "gpt-5-mini")
        const tools = body.tools as ReadonlyArray<Record<string, unknown>>
        expect(tools).toHaveLength(1)
        expect(tools[0].type).toBe("web_search")
        if (domains.length === 0) expect(tools[0].filters).toBeUndefined()
        else expect(tools[0].filters).toEqual({ allowed_domains: [...new Set(domains)] })
        expect(body.input).toBe("brief")
      }),
    // Generating hostnames from a pattern is slow; 40 runs still cover 0–20 domains with mixed case and dots.
    { fastCheck: { numRuns: 40 } }
  )

  it.effect.prop(
    "more than 20 domains, or anything that is not a bare hostname, is invalid_input",
    [
      FastCheck.oneof(
        FastCheck.array(domain, { minLength: 21, maxLength: 30 }),
        FastCheck.tuple(
          domain,
          FastCheck.constantFrom("https://", "", "*."),
          FastCheck.constantFrom("/path", ":8080", " x", "/", "?q", "")
        )
          .filter(([, prefix, suffix]) => prefix !== "" || suffix !== "")
          .map(([d, prefix, suffix]) => [`${prefix}${d}${suffix}`])
      )
    ],
    ([allowedDomains]) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(WebSearchRequest.decodeResearch({ query: "q", allowedDomains }))
        expect([error._tag, error.reason, error.capability]).toEqual(["RequestFailed", "invalid_input", "research"])
      }),
    { fastCheck: { numRuns: 40 } }
  )
})

describe("OpenAi model resolution", () => {
  it("the default model is priced; every priced model resolves; routed or unknown ids are unpriced_model", () => {
    expect(OpenAiPrices.lookup(OpenAiPrices.defaultModel)).toBeDefined()
    expect(Either.getOrThrow(OpenAiWire.resolveModel(Option.none())).model).toBe(OpenAiPrices.defaultModel)
    expect(Either.getOrThrow(OpenAiWire.resolveModel(Option.some("  "))).model).toBe(OpenAiPrices.defaultModel)
    for (const model of OpenAiPrices.models.keys()) {
      expect(Either.getOrThrow(OpenAiWire.resolveModel(Option.some(model))).model).toBe(model)
    }
  })

  it.prop(
    "any id holding / or ::, or absent from the catalogue, is refused as unpriced_model",
    [FastCheck.string({ maxLength: 40 })],
    ([id]) => {
      const resolved = OpenAiWire.resolveModel(Option.some(id))
      const trimmed = id.trim()
      const acceptable =
        trimmed === "" || (!trimmed.includes("/") && !trimmed.includes("::") && OpenAiPrices.models.has(trimmed))
      expect(Either.isRight(resolved)).toBe(acceptable)
      if (Either.isLeft(resolved)) expect(resolved.left.reason).toBe("unpriced_model")
    }
  )

  it("prices cached input once, at the cached rate, and each search call on top", () => {
    const rates = OpenAiPrices.lookup("gpt-5")!
    expect(
      OpenAiPrices.price(rates, {
        inputTokens: 1_000_000,
        cachedInputTokens: 400_000,
        outputTokens: 100_000,
        toolCalls: 3
      })
    ).toEqual({ currency: "USD", tokens: 1.8, toolCalls: 0.03, total: 1.83, catalogue: "openai-2025-09" })
  })
})
