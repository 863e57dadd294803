import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import { domainToASCII } from "node:url"
import * as IsoCodes from "../src/internal/isoCodes.js"
import * as SearchDomains from "../src/internal/searchDomains.js"
import type { DriverContext } from "../src/ProviderDriver.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import type * as SearchOptions from "../src/SearchOptions.js"
import * as WebSearchRequest from "../src/WebSearchRequest.js"
import * as Drivers from "./support/drivers.js"

const normalize = (request: unknown) => WebSearchRequest.normalizeSearchKeywords(request)

const invalidMessage = (request: unknown) =>
  Effect.map(Effect.flip(normalize(request)), (error) => {
    expect([error._tag, error.reason, error.capability]).toEqual(["RequestFailed", "invalid_input", "searchKeywords"])
    return error.message
  })

// A driver that declares `native` and records the options each call was given.
const declaring = (id: string, native: ReadonlyArray<SearchOptions.SearchOption>, scripted?: Drivers.Scripted) => {
  const seen: Array<SearchOptions.SearchOptions> = []
  const test = Drivers.makeDriver(id, {
    searchKeywords: (input: string, ctx: DriverContext) => {
      seen.push(ctx.searchOptions)
      return typeof scripted === "function" ? scripted(input, ctx) : (scripted ?? Drivers.succeed(2))
    }
  })
  return { driver: { ...test.driver, searchOptions: native }, recorder: test.recorder, seen }
}

describe("search options: validation", () => {
  it.effect("language and country are real ISO codes, in any case, decoded to their canonical case", () =>
    Effect.gen(function* () {
      // Every ISO 639-1 code and every assigned ISO 3166-1 alpha-2 code, nothing else.
      expect([IsoCodes.languages.size, IsoCodes.countries.size]).toEqual([183, 249])
      const ok = yield* normalize({ keywords: ["x"], language: "DE", country: "gb", timeRange: "week" })
      expect(ok.searchOptions).toEqual({ language: "de", country: "GB", timeRange: "week" })
      for (const [request, fragment] of [
        [{ language: "xx" }, 'language: language must be an ISO 639-1 code such as de or en, not "xx"'],
        [{ language: "deu" }, "language: language must be an ISO 639-1 code"],
        [{ language: "de-DE" }, "language: language must be an ISO 639-1 code"],
        [{ country: "XX" }, 'country: country must be an ISO 3166-1 alpha-2 code such as DE or US, not "XX"'],
        // The United Kingdom's code is GB; UK is only reserved.
        [{ country: "UK" }, "country: country must be an ISO 3166-1 alpha-2 code"],
        [{ country: "DEU" }, "country"],
        [{ timeRange: "hour" }, "timeRange"],
        [{ safeSearch: "on" }, "safeSearch"],
        [{ topic: "images" }, "topic"]
      ] as const) {
        expect(yield* invalidMessage({ keywords: ["x"], ...request })).toContain(fragment)
      }
    })
  )

  it.effect("domains are bare host names: IDN to punycode, case and a trailing dot normalised, at most 20", () =>
    Effect.gen(function* () {
      const ok = yield* normalize({
        keywords: ["x"],
        includeDomains: [" Docs.Example.COM. ", "bücher.de", "xn--bcher-kva.ch"],
        excludeDomains: ["ads.example.com"]
      })
      expect(ok.searchOptions).toEqual({
        includeDomains: ["docs.example.com", "xn--bcher-kva.de", "xn--bcher-kva.ch"],
        excludeDomains: ["ads.example.com"]
      })
      for (const bad of ["https://example.com", "example.com/docs", "example.com:443", "127.0.0.1", "a..b", "", "x"]) {
        const message = yield* invalidMessage({ keywords: ["x"], includeDomains: [bad] })
        expect(message).toContain("includeDomains[0]")
        expect(message).toContain("is not a bare domain name")
      }
      const many = Array.from({ length: 21 }, (_, i) => `d${i}.example`)
      expect(yield* invalidMessage({ keywords: ["x"], excludeDomains: many })).toContain(
        "excludeDomains: at most 20 domains per request"
      )
      // An empty list sets nothing, so it shares the cache key and the provider checks of no list at all.
      expect((yield* normalize({ keywords: ["x"], includeDomains: [] })).searchOptions).toEqual({})
    })
  )

  it.effect("providerIds names 2 to 5 distinct providers, and not beside providerId", () =>
    Effect.gen(function* () {
      const ok = yield* normalize({ keywords: ["x"], providerIds: ["tavily", "brave"] })
      expect(ok.providerIds).toEqual(["tavily", "brave"])
      expect(ok.providerId).toBeUndefined()
      expect(yield* invalidMessage({ keywords: ["x"], providerIds: ["tavily"] })).toContain(
        "providerIds: give 2 to 5 providers to fuse"
      )
      expect(yield* invalidMessage({ keywords: ["x"], providerIds: ["a", "b", "c", "d", "e", "f"] })).toContain(
        "providerIds"
      )
      expect(yield* invalidMessage({ keywords: ["x"], providerIds: ["brave", "brave"] })).toContain(
        "providerIds: brave is named twice"
      )
      expect(yield* invalidMessage({ keywords: ["x"], providerId: "exa", providerIds: ["tavily", "brave"] })).toContain(
        "give providerId (one provider) or providerIds"
      )
    })
  )
})

// --- Local domain filtering against a reference ----------------------------------------------------------

// The reference: labels compared from the right, on node's own IDN conversion, as a reader of the rule would.
const labels = (host: string): ReadonlyArray<string> => {
  const ascii = domainToASCII(host.toLowerCase())
  return (ascii.endsWith(".") ? ascii.slice(0, -1) : ascii).split(".")
}
const isUnder = (host: string, domain: string): boolean => {
  const h = labels(host)
  const d = labels(domain)
  return d.length <= h.length && d.every((label, i) => h[h.length - d.length + i] === label)
}
const referenceAllows = (host: string, include: ReadonlyArray<string>, exclude: ReadonlyArray<string>): boolean =>
  (include.length === 0 || include.some((d) => isUnder(host, d))) && !exclude.some((d) => isUnder(host, d))

const label = FastCheck.constantFrom("example", "Example", "docs", "DOCS", "bücher", "BÜCHER", "a", "ex", "münchen")
const tld = FastCheck.constantFrom("com", "de", "COM", "org")
const domainArb = FastCheck.tuple(FastCheck.array(label, { minLength: 1, maxLength: 3 }), tld).map(([ls, t]) =>
  [...ls, t].join(".")
)
// Hosts built from the same labels, so they often are a domain, a subdomain of one, or share a suffix by chance.
const hostArb = FastCheck.tuple(domainArb, FastCheck.boolean()).map(([host, dot]) => (dot ? `${host}.` : host))

describe("search options: local domain filtering", () => {
  it.prop(
    "agrees with the reference on subdomains, case, trailing dots and IDN in punycode",
    {
      hosts: FastCheck.array(hostArb, { minLength: 1, maxLength: 6 }),
      include: FastCheck.array(FastCheck.tuple(domainArb, FastCheck.boolean()), { maxLength: 3 }),
      exclude: FastCheck.array(FastCheck.tuple(domainArb, FastCheck.boolean()), { maxLength: 3 })
    },
    ({ exclude, hosts, include }) => {
      // Domains as a caller writes them: any case, maybe a trailing dot, maybe Unicode.
      const written = (list: ReadonlyArray<readonly [string, boolean]>) => list.map(([d, dot]) => (dot ? `${d}.` : d))
      const filter = {
        includeDomains: written(include).map((d) => SearchDomains.toAsciiDomain(d) ?? "unreadable"),
        excludeDomains: written(exclude).map((d) => SearchDomains.toAsciiDomain(d) ?? "unreadable")
      }
      for (const host of hosts) {
        const expected = referenceAllows(host, written(include), written(exclude))
        expect(SearchDomains.allows(filter, `https://${host}/page?q=1`)).toBe(expected)
      }
    },
    { fastCheck: { numRuns: 500 } }
  )

  it("a domain matches on whole labels only, and a URL without a host passes no filter", () => {
    const filter = { includeDomains: ["example.com"] }
    expect(SearchDomains.allows(filter, "https://badexample.com/")).toBe(false)
    expect(SearchDomains.allows(filter, "https://a.b.example.com/")).toBe(true)
    expect(SearchDomains.allows(filter, "https://EXAMPLE.com./x")).toBe(true)
    expect(SearchDomains.allows({ excludeDomains: ["example.com"] }, "not a url")).toBe(false)
  })

  it.effect.prop(
    "the pipeline keeps exactly the results the reference allows, also when the provider takes domains natively",
    {
      hosts: FastCheck.array(hostArb, { minLength: 1, maxLength: 8 }),
      include: FastCheck.array(domainArb, { maxLength: 2 }),
      exclude: FastCheck.array(domainArb, { maxLength: 2 }),
      native: FastCheck.boolean()
    },
    ({ exclude, hosts, include, native }) => {
      const items = hosts.map((host, i) => ({ title: `r${i}`, content: `c${i}`, url: `https://${host}/r${i}` }))
      const test = declaring("duckduckgo", native ? ["includeDomains", "excludeDomains"] : [], Drivers.results(items))
      const expected = items.filter((_, i) => referenceAllows(hosts[i], include, exclude)).map((r) => r.title)
      return Effect.gen(function* () {
        const response = yield* SearchKeywords.searchKeywords({
          keywords: ["q"],
          maxResults: 8,
          includeDomains: include,
          excludeDomains: exclude
        })
        expect(response.results.map((r) => r.title)).toEqual(expected)
        if (include.length + exclude.length > 0) {
          const set = (["includeDomains", "excludeDomains"] as const).filter(
            (name) => (name === "includeDomains" ? include : exclude).length > 0
          )
          expect(response.appliedOptions).toEqual([{ providerId: "duckduckgo", native: native ? set : [], local: set }])
        } else expect(response.appliedOptions).toBeUndefined()
      }).pipe(Effect.provide(Drivers.layer([test])))
    },
    { fastCheck: { numRuns: 40 } }
  )
})

describe("search options: providers", () => {
  it.effect("an option the provider cannot apply is refused before any call, naming the provider and option", () => {
    const brave = declaring("duckduckgo", ["timeRange", "country"])
    return Effect.gen(function* () {
      const error = yield* Effect.flip(
        SearchKeywords.searchKeywords({ keywords: ["a", "b"], timeRange: "day", topic: "news", safeSearch: "strict" })
      )
      expect([error._tag, error.reason, error.providerId, error.retryable]).toEqual([
        "RequestFailed",
        "invalid_input",
        "duckduckgo",
        false
      ])
      expect(error.message).toContain(
        "duckduckgo cannot apply safeSearch and topic; choose another provider or drop the options"
      )
      expect(brave.recorder.calls).toHaveLength(0)
    }).pipe(Effect.provide(Drivers.layer([brave])))
  })

  it.effect("a provider that declares nothing still serves the domain options, which websearch applies", () => {
    const plain = declaring("duckduckgo", [])
    return Effect.gen(function* () {
      const refused = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords: ["a"], language: "de" }))
      expect(refused.message).toContain("duckduckgo cannot apply language")
      expect(refused.message).toContain("applies no search option natively")
      expect(plain.recorder.calls).toHaveLength(0)
      const response = yield* SearchKeywords.searchKeywords({ keywords: ["a"], excludeDomains: ["elsewhere.example"] })
      expect(response.results).toHaveLength(2)
      expect(response.appliedOptions).toEqual([{ providerId: "duckduckgo", native: [], local: ["excludeDomains"] }])
    }).pipe(Effect.provide(Drivers.layer([plain])))
  })

  it.effect("the driver is given exactly the options the request set, and the response says how each applied", () => {
    const tavily = declaring("tavily", ["timeRange", "includeDomains", "topic", "country"])
    return Effect.gen(function* () {
      const response = yield* SearchKeywords.searchKeywords({
        providerId: "tavily",
        keywords: ["a", "b"],
        timeRange: "month",
        topic: "news",
        includeDomains: ["results.example"]
      })
      expect(tavily.seen).toEqual([
        { timeRange: "month", topic: "news", includeDomains: ["results.example"] },
        { timeRange: "month", topic: "news", includeDomains: ["results.example"] }
      ])
      expect(response.appliedOptions).toEqual([
        { providerId: "tavily", native: ["timeRange", "includeDomains", "topic"], local: ["includeDomains"] }
      ])
      expect(response.results).toHaveLength(4)
      // Without options, the driver sees none and the response carries no appliedOptions.
      const plain = yield* SearchKeywords.searchKeywords({ providerId: "tavily", keywords: ["c"] })
      expect(tavily.seen[2]).toEqual({})
      expect(plain.appliedOptions).toBeUndefined()
    }).pipe(Effect.provide(Drivers.layer([tavily], { providers: { tavily: { apiKeys: ["tvly-key-0001"] } } })))
  })
})
