import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Fusion from "../src/Fusion.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as Settings from "../src/Settings.js"
import * as WebSearchError from "../src/WebSearchError.js"
import type { WebSearchResult } from "../src/WebSearchResponse.js"
import * as Drivers from "./support/drivers.js"

const result = (url: string, title = url): WebSearchResult => ({
  title,
  content: `about ${url}`,
  url,
  sourceInput: "q"
})

// Rankings over a small pool of URLs, so providers often agree; each ranking lists a URL at most once.
const providerIdArb = FastCheck.constantFrom("alpha", "beta", "gamma", "delta", "omega")
const rankingsArb = FastCheck.uniqueArray(
  FastCheck.record({
    providerId: providerIdArb,
    urls: FastCheck.uniqueArray(FastCheck.integer({ min: 0, max: 11 }), { maxLength: 8 })
  }),
  { selector: (r) => r.providerId, minLength: 1, maxLength: 5 }
).map((rankings) =>
  rankings.map(({ providerId, urls }) => ({
    providerId,
    results: urls.map((n) => result(`https://site${n}.example/page`, `${providerId} says ${n}`))
  }))
)

const urls = (results: ReadonlyArray<WebSearchResult>) => results.map((r) => r.url)

describe("reciprocal rank fusion", () => {
  it.prop(
    "does not depend on the order the providers' rankings come in",
    { rankings: rankingsArb, seed: FastCheck.integer() },
    ({ rankings, seed }) => {
      const shuffled = [...rankings].sort(
        (a, b) => ((a.providerId.charCodeAt(0) * seed) % 7) - ((b.providerId.charCodeAt(0) * seed) % 7)
      )
      expect(Fusion.reciprocalRankFusion(shuffled)).toEqual(Fusion.reciprocalRankFusion(rankings))
      expect(Fusion.reciprocalRankFusion([...rankings].reverse())).toEqual(Fusion.reciprocalRankFusion(rankings))
    },
    { fastCheck: { numRuns: 300 } }
  )

  it.prop(
    "rewards agreement: a result two providers found ranks above any one found by one provider no higher up",
    { rankings: rankingsArb },
    ({ rankings }) => {
      const fused = Fusion.reciprocalRankFusion(rankings)
      const rankIn = (providerId: string, url: string) => {
        const at = rankings.find((r) => r.providerId === providerId)!.results.findIndex((r) => r.url === url)
        return at + 1
      }
      for (const [i, a] of fused.entries()) {
        for (const [j, b] of fused.entries()) {
          if (a.providers!.length < 2 || b.providers!.length !== 1) continue
          const best = Math.min(...a.providers!.map((p) => rankIn(p, a.url)))
          if (rankIn(b.providers![0], b.url) >= best) expect(i).toBeLessThan(j)
        }
      }
    },
    { fastCheck: { numRuns: 300 } }
  )

  it.prop(
    "keeps each provider's own order among the results only it found, and attributes every result",
    { rankings: rankingsArb },
    ({ rankings }) => {
      const fused = Fusion.reciprocalRankFusion(rankings)
      const all = new Set(rankings.flatMap((r) => urls(r.results)))
      expect(new Set(urls(fused))).toEqual(all)
      expect(fused).toHaveLength(all.size)
      for (const ranking of rankings) {
        const own = fused.filter((r) => r.providers!.length === 1 && r.providers![0] === ranking.providerId)
        expect(urls(own)).toEqual(urls(ranking.results).filter((url) => urls(own).includes(url)))
        for (const found of fused) {
          expect(found.providers!.includes(ranking.providerId)).toBe(urls(ranking.results).includes(found.url))
        }
      }
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("scores 1/(60 + rank), dedupes by normalised URL and keeps the best-ranked title and content", () => {
    const fused = Fusion.reciprocalRankFusion([
      {
        providerId: "alpha",
        results: [result("https://a.example/", "alpha a"), result("https://B.example/#top", "alpha b")]
      },
      {
        providerId: "beta",
        results: [
          result("https://b.example", "beta b"),
          result("https://c.example/", "beta c"),
          result("https://a.example/")
        ]
      }
    ])
    // b: 1/62 + 1/61 beats a: 1/61 + 1/63; c: 1/62 alone.
    expect(fused.map((r) => [r.title, r.providers])).toEqual([
      ["beta b", ["beta", "alpha"]],
      ["alpha a", ["alpha", "beta"]],
      ["beta c", ["beta"]]
    ])
  })
})

// --- The fused pipeline, in memory -----------------------------------------------------------------------

const keys: Settings.SettingsInput["providers"] = {
  tavily: { apiKeys: ["tvly-key-0001"] },
  brave: { apiKeys: ["brave-key-0001"] }
}

// Each provider's ranking for a keyword: the shared page first for tavily, second for brave.
const ranked = (provider: string) => (keyword: string) =>
  Drivers.results(
    provider === "tavily"
      ? [
          { title: `tavily shared ${keyword}`, content: "t", url: `https://shared.example/${keyword}` },
          { title: `tavily own ${keyword}`, content: "t", url: `https://tavily.example/${keyword}` }
        ]
      : [
          { title: `brave own ${keyword}`, content: "b", url: `https://brave.example/${keyword}` },
          { title: `brave shared ${keyword}`, content: "b", url: `https://shared.example/${keyword}` }
        ]
  )

describe("fused search", () => {
  it.effect("every keyword on each provider; fused per keyword, attributed, failures name provider and keyword", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: ranked("tavily") })
    const brave = Drivers.makeDriver("brave", {
      searchKeywords: (keyword) =>
        keyword === "b"
          ? Drivers.fail(WebSearchError.requestFailed("http_5xx", "brave is down"))
          : ranked("brave")(keyword)
    })
    return Effect.gen(function* () {
      const response = yield* SearchKeywords.searchKeywords({ keywords: ["a", "b"], providerIds: ["tavily", "brave"] })
      expect([response.providerId, response.providerIds]).toEqual(["fusion", ["tavily", "brave"]])
      expect(response.results.map((r) => [r.title, r.sourceInput, r.providers])).toEqual([
        ["tavily shared a", "a", ["tavily", "brave"]],
        // tavily's and brave's own pages both at rank 1 or 2 of one provider: the better rank first.
        ["brave own a", "a", ["brave"]],
        ["tavily own a", "a", ["tavily"]],
        ["tavily shared b", "b", ["tavily"]],
        ["tavily own b", "b", ["tavily"]]
      ])
      expect(response.failures.map((f) => [f.input, f.providerId, f.reason])).toEqual([["b", "brave", "http_5xx"]])
      expect(tavily.recorder.started.sort()).toEqual(["a", "b"])
      expect(brave.recorder.started.sort()).toEqual(["a", "b"])
      expect(response.appliedOptions).toBeUndefined()
    }).pipe(Effect.provide(Drivers.layer([tavily, brave], { providers: keys })))
  })

  it.effect("the request fails only when every provider failed every keyword, listing each pair", () => {
    const down = (id: string) =>
      Drivers.makeDriver(id, { searchKeywords: Drivers.fail(WebSearchError.requestFailed("http_5xx", `${id} down`)) })
    const tavily = down("tavily")
    const brave = down("brave")
    return Effect.gen(function* () {
      const error = yield* Effect.flip(
        SearchKeywords.searchKeywords({ keywords: ["a", "b"], providerIds: ["tavily", "brave"] })
      )
      expect([error._tag, error.reason]).toEqual(["RequestFailed", "http_5xx"])
      expect(error.message).toContain("every provider failed every keyword")
      expect(error.failures?.map((f) => [f.input, f.providerId])).toEqual([
        ["a", "tavily"],
        ["a", "brave"],
        ["b", "tavily"],
        ["b", "brave"]
      ])
    }).pipe(Effect.provide(Drivers.layer([tavily, brave], { providers: keys })))
  })

  it.effect("an option one provider cannot apply refuses the fused search before any provider is called", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: ranked("tavily") })
    const brave = Drivers.makeDriver("brave", { searchKeywords: ranked("brave") })
    const native = { ...tavily.driver, searchOptions: ["topic" as const] }
    return Effect.gen(function* () {
      const error = yield* Effect.flip(
        SearchKeywords.searchKeywords({ keywords: ["a"], providerIds: ["tavily", "brave"], topic: "news" })
      )
      expect([error.reason, error.providerId]).toEqual(["invalid_input", "brave"])
      expect(error.message).toContain("brave cannot apply topic")
      expect(tavily.recorder.calls.length + brave.recorder.calls.length).toBe(0)
      // The domain options run on both, each saying how it applied them.
      const response = yield* SearchKeywords.searchKeywords({
        keywords: ["a"],
        providerIds: ["tavily", "brave"],
        excludeDomains: ["shared.example"]
      })
      // Both at rank 1 of one provider: an equal score, the URL breaks the tie.
      expect(response.results.map((r) => r.title)).toEqual(["brave own a", "tavily own a"])
      expect(response.appliedOptions).toEqual([
        { providerId: "tavily", native: [], local: ["excludeDomains"] },
        { providerId: "brave", native: [], local: ["excludeDomains"] }
      ])
    }).pipe(Effect.provide(Drivers.layer([{ driver: native, recorder: tavily.recorder }, brave], { providers: keys })))
  })

  it.effect("the fusion setting makes a fused search the default; a providerId still picks one provider", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: ranked("tavily") })
    const brave = Drivers.makeDriver("brave", { searchKeywords: ranked("brave") })
    return Effect.gen(function* () {
      const fused = yield* SearchKeywords.searchKeywords({ keywords: ["a"], maxResults: 2 })
      expect(fused.providerIds).toEqual(["brave", "tavily"])
      // Cut to maxResults per keyword after fusion.
      expect(fused.results.map((r) => r.title)).toEqual(["tavily shared a", "brave own a"])
      const single = yield* SearchKeywords.searchKeywords({ keywords: ["a"], providerId: "brave" })
      expect([single.providerId, single.providerIds, single.results[0].providers]).toEqual([
        "brave",
        undefined,
        undefined
      ])
    }).pipe(
      Effect.provide(
        Drivers.layer([tavily, brave], { providers: keys, fusion: { searchKeywords: ["brave", "tavily"] } })
      )
    )
  })

  it.effect(
    "fusion settings are checked: ids composed and searching, 2 to 5 distinct, not beside a fallback chain",
    () =>
      Effect.gen(function* () {
        const tavily = Drivers.makeDriver("tavily", { searchKeywords: ranked("tavily") })
        const start = (settings: Settings.SettingsInput) =>
          Effect.flip(Effect.provide(Effect.void, Drivers.layer([tavily], settings)))
        const unknown = yield* start({ providers: keys, fusion: { searchKeywords: ["tavily", "brave"] } })
        expect(unknown.message).toContain('fusion.searchKeywords.1: no composed provider "brave"')
        const one = yield* start({ fusion: { searchKeywords: ["tavily"] } })
        expect(one.message).toContain("fusion.searchKeywords: give 2 to 5 providers to fuse")
        const both = yield* start({
          defaults: { searchKeywords: "tavily" },
          fallbacks: { searchKeywords: ["brave"] },
          fusion: { searchKeywords: ["tavily", "brave"] }
        })
        expect(both.message).toContain("fusion.searchKeywords: a fused default leaves fallbacks.searchKeywords unused")
        expect([unknown.reason, one.reason, both.reason]).toEqual([
          "invalid_config",
          "invalid_config",
          "invalid_config"
        ])
      })
  )

  it.effect("WEBSEARCH_FUSION_SEARCH_KEYWORDS_PROVIDERS sets the fused default from the environment", () =>
    Effect.gen(function* () {
      const read = (value: string) =>
        Effect.withConfigProvider(
          Settings.fromConfig,
          ConfigProvider.fromMap(new Map([["WEBSEARCH_FUSION_SEARCH_KEYWORDS_PROVIDERS", value]]))
        )
      expect(yield* read("tavily, brave")).toEqual({ fusion: { searchKeywords: ["tavily", "brave"] } })
      const settings = yield* Settings.make(yield* read("tavily,brave"))
      expect(settings.fusion.searchKeywords).toEqual(["tavily", "brave"])
      const error = yield* Effect.flip(Settings.make(yield* read("tavily,tavily")))
      expect(error.message).toContain("fusion.searchKeywords: tavily is named twice")
    })
  )
})
