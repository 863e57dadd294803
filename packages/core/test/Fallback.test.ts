import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as FetchUrls from "../src/FetchUrls.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as Settings from "../src/Settings.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"

const serverError = Drivers.fail(WebSearchError.requestFailed("http_5xx", "upstream 503"))
const chain: Settings.SettingsInput = {
  defaults: { searchKeywords: "tavily" },
  fallbacks: { searchKeywords: ["brave", "duckduckgo"] },
  providers: { tavily: { apiKeys: ["tvly-key-0001"] }, brave: { apiKeys: ["brave-key-0001"] } }
}

// The chain's last provider, composed so the chain is valid; these tests never reach it.
const quietDdg = () => Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1) })

describe("configured fallback chains", () => {
  it.effect(
    "a request that fails as a whole on the default is answered by the next provider, and says so in logs",
    () => {
      const tavily = Drivers.makeDriver("tavily", { searchKeywords: serverError })
      const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(2) })
      const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1) })
      const logs = Drivers.captureLogs()
      return Effect.gen(function* () {
        const response = yield* SearchKeywords.searchKeywords({ keywords: ["a", "b"] })
        expect(response.providerId).toBe("brave")
        expect(response.results).toHaveLength(4)
        expect(response.failures).toEqual([])
        expect(tavily.recorder.started).toEqual(["a", "b"])
        expect(ddg.recorder.started).toEqual([])
        const fallback = logs.entries.find((e) => e.message.includes("falls back"))
        expect(fallback?.level).toBe("WARN")
        expect(fallback?.annotations).toMatchObject({ from: "tavily", to: "brave", capability: "searchKeywords" })
      }).pipe(Effect.provide(Layer.merge(Drivers.layer([tavily, brave, ddg], chain), logs.layer)))
    }
  )

  it.effect("a provider that lacks its key is skipped the same way", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: Drivers.succeed(1) })
    const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(1) })
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1) })
    return Effect.gen(function* () {
      // tavily and brave have no key: both fail as Unavailable before any call.
      const response = yield* SearchKeywords.searchKeywords({ keywords: ["a"] })
      expect(response.providerId).toBe("duckduckgo")
      expect([tavily.recorder.started, brave.recorder.started, ddg.recorder.started]).toEqual([[], [], ["a"]])
    }).pipe(Effect.provide(Drivers.layer([tavily, brave, ddg], { ...chain, providers: {} })))
  })

  it.effect("a chain naming a provider that is not composed fails the start, naming the composed ids", () =>
    Effect.gen(function* () {
      const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1) })
      const error = yield* Effect.flip(Effect.provide(Effect.void, Drivers.layer([ddg], chain)))
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(error.message).toContain('defaults.searchKeywords: no composed provider "tavily" (composed: duckduckgo)')
      expect(error.message).toContain('fallbacks.searchKeywords.0: no composed provider "brave" (composed: duckduckgo)')
      expect(ddg.recorder.started).toEqual([])
    })
  )

  it.effect("when every provider fails, the last error is raised naming the earlier attempts", () => {
    const drivers = ["tavily", "brave", "duckduckgo"].map((id) =>
      Drivers.makeDriver(id, { searchKeywords: serverError })
    )
    return Effect.gen(function* () {
      const error = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords: ["a"] }))
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", providerId: "duckduckgo" })
      expect(error.message).toContain(
        "after tavily (RequestFailed/http_5xx), then brave (RequestFailed/http_5xx) failed"
      )
    }).pipe(Effect.provide(Drivers.layer(drivers, chain)))
  })

  it.effect("partial failures do not fall back: the inputs that succeeded are the answer", () => {
    const tavily = Drivers.makeDriver("tavily", {
      searchKeywords: (input) => (input === "bad" ? serverError : Drivers.succeed(1))
    })
    const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(5) })
    return Effect.gen(function* () {
      const response = yield* SearchKeywords.searchKeywords({ keywords: ["good", "bad"] })
      expect(response.providerId).toBe("tavily")
      expect(response.failures.map((f) => f.input)).toEqual(["bad"])
      expect(brave.recorder.started).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([tavily, brave, quietDdg()], chain)))
  })

  it.effect("an explicit providerId never falls back", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: serverError })
    const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(1) })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(SearchKeywords.searchKeywords({ providerId: "tavily", keywords: ["a"] }))
      expect(error).toMatchObject({ reason: "http_5xx", providerId: "tavily" })
      expect(brave.recorder.started).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([tavily, brave, quietDdg()], chain)))
  })

  it.effect("an Aborted stops the chain", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: Drivers.fail(WebSearchError.aborted("cancelled")) })
    const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(1) })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords: ["a"] }))
      expect(error._tag).toBe("Aborted")
      expect(brave.recorder.started).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([tavily, brave, quietDdg()], chain)))
  })

  it.effect("refused inputs do not fall back: a blacklisted URL would be refused by every provider", () => {
    const jina = Drivers.makeDriver("jina", { fetchUrls: Drivers.succeed() })
    const local = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(FetchUrls.fetchUrls({ urls: ["https://blocked.example/a"] }))
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "blacklisted", providerId: "jina" })
      expect(local.recorder.started).toEqual([])
    }).pipe(
      Effect.provide(
        Drivers.layer([jina, local], {
          defaults: { fetchUrls: "jina" },
          fallbacks: { fetchUrls: ["fetch"] },
          providers: { jina: { apiKeys: ["jina-key-0001"] } },
          blacklist: ["blocked.example"]
        })
      )
    )
  })

  // Composing duckduckgo, the local fetcher and brave, whose bundle proposes duckduckgo and fetch as defaults.
  const standIns = ["duckduckgo", "fetch", "brave"].map((id) =>
    Drivers.makeDriver(id, { searchKeywords: Drivers.succeed(1), fetchUrls: Drivers.succeed() })
  )
  it.effect.each([
    [
      { fallbacks: { searchKeywords: ["nope"] } },
      'fallbacks.searchKeywords.0: no composed provider "nope" (composed: duckduckgo, fetch, brave)'
    ],
    [{ fallbacks: { fetchUrls: ["brave"] } }, "fallbacks.fetchUrls.0: brave has no fetchUrls capability"],
    [{ fallbacks: { searchKeywords: ["brave", "brave"] } }, "fallbacks.searchKeywords.1: brave already comes earlier"],
    [{ fallbacks: { searchKeywords: ["duckduckgo"] } }, "fallbacks.searchKeywords.0: duckduckgo already comes earlier"],
    [
      { defaults: { searchKeywords: null }, fallbacks: { searchKeywords: ["brave"] } },
      "fallbacks.searchKeywords: a fallback chain needs a default for searchKeywords"
    ]
  ] as const)("invalid chain %j is rejected at start naming the field", ([input, fragment]) =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Effect.provide(Effect.void, Drivers.layer(standIns, input)))
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(error.message, error.message).toContain(fragment)
    })
  )

  it.effect("the chain can come from the environment", () =>
    Effect.gen(function* () {
      const settings = yield* Settings.fromConfig.pipe(
        Effect.flatMap((document) => Settings.make(document, "environment")),
        Effect.withConfigProvider(
          ConfigProvider.fromMap(new Map([["WEBSEARCH_FALLBACK_SEARCH_KEYWORDS_PROVIDERS", "brave, tavily"]]))
        )
      )
      expect(settings.fallbacks).toEqual({ searchKeywords: ["brave", "tavily"], fetchUrls: [] })
    })
  )
})
