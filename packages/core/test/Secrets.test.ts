import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as Settings from "../src/Settings.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"
import * as Registry from "./support/registry.js"

const key = "tvly-SECRET-0123456789abcdef"
const otherKey = "tvly-OTHER-fedcba9876543210"
const password = "searx-PASSWORD-42424242"

const settings: Settings.SettingsInput = {
  defaults: { searchKeywords: "tavily" },
  providers: {
    tavily: { apiKeys: [key, otherKey] },
    searxng: {
      basicAuthUsername: "admin",
      basicAuthPassword: password,
      capabilities: { searchKeywords: { apiHost: "https://searx.internal.example" } }
    }
  },
  concurrency: 1
}

/** SearXNG, composed because the settings override it; never called. */
const searxng = () => Drivers.makeDriver("searxng", { searchKeywords: Drivers.succeed(1) })

/** A driver that quotes the key it was given, as careless providers do. */
const leaky = () =>
  Drivers.makeDriver("tavily", {
    searchKeywords: (input, ctx) => {
      const used = Option.match(ctx.apiKey, { onNone: () => "none", onSome: Redacted.value })
      if (input === "ok") return Drivers.succeed(1)
      if (input === "dies") return Drivers.die(new Error(`driver crashed while using key ${used}`))
      return Drivers.fail(
        WebSearchError.requestFailed("http_403", `Tavily rejected API key ${used} for query "${input}"`, {
          input: `${input} (key ${used})`
        })
      )
    }
  })

const assertNoSecret = (label: string, text: string) => {
  for (const secret of [key, otherKey, password])
    expect(text.includes(secret), `${label} leaks a secret: ${text}`).toBe(false)
}

describe("Secrets", () => {
  it.effect("a driver quoting its key: failures entries and every captured log line never contain it", () => {
    const capture = Drivers.captureLogs()
    const tavily = leaky()
    return Effect.gen(function* () {
      const response = yield* SearchKeywords.searchKeywords({ keywords: ["ok", "rejected", "dies"] })
      expect(tavily.recorder.calls.map((c) => c.apiKey)).toEqual([key, otherKey, key])
      expect(response.failures.map((f) => [f.input, f.reason])).toEqual([
        ["rejected", "http_403"],
        ["dies", "parse_failed"]
      ])
      expect(response.failures[0].message).toContain("[redacted]")
      expect(response.failures[1].message).toContain("[redacted]")
      assertNoSecret("failures", JSON.stringify(response))
      const warnings = capture.entries.filter((e) => e.level === "WARN")
      const defects = capture.entries.filter((e) => e.level === "ERROR")
      expect(warnings.map((e) => e.annotations.input)).toEqual(["rejected (key [redacted])", "dies"])
      expect(warnings.every((e) => e.message.includes("[redacted]"))).toBe(true)
      expect(defects).toHaveLength(1)
      expect(defects[0].message).toContain("driver crashed while using key [redacted]")
      for (const entry of capture.entries) assertNoSecret(`log entry (${entry.level})`, entry.text)
    }).pipe(Effect.provide(Drivers.layer([tavily, searxng()], settings)), Effect.provide(capture.layer))
  })

  it.effect(
    "all inputs failing: the raised error, its failures, String(error) and toJson never contain the key",
    () => {
      const capture = Drivers.captureLogs()
      const tavily = leaky()
      return Effect.gen(function* () {
        const error = yield* Effect.flip(SearchKeywords.searchKeywords({ keywords: ["rejected", "dies"] }))
        expect(error.reason).toBe("http_403")
        expect(error.message).toContain("[redacted]")
        expect(error.input).toContain("[redacted]")
        expect(error.failures).toHaveLength(2)
        assertNoSecret("message", error.message)
        assertNoSecret("String(error)", String(error))
        assertNoSecret("toJson", JSON.stringify(WebSearchError.toJson(error)))
        assertNoSecret("JSON.stringify(error)", JSON.stringify(error))
        assertNoSecret("stack", error.stack ?? "")
        for (const entry of capture.entries) assertNoSecret(`log entry (${entry.level})`, entry.text)
      }).pipe(Effect.provide(Drivers.layer([tavily, searxng()], settings)), Effect.provide(capture.layer))
    }
  )

  it.effect(
    "the registry listing and JSON.stringify of settings, ResolvedProvider and driver context never reveal keys",
    () =>
      Effect.gen(function* () {
        const loaded = yield* Settings.Settings
        const registry = yield* ProviderRegistry.ProviderRegistry
        const described = registry.describe()
        expect(described.find((p) => p.id === "tavily")?.apiKeys).toBe(2)
        assertNoSecret("describe()", JSON.stringify(described))
        assertNoSecret("settings", JSON.stringify(loaded))
        const tavily = registry.providers.get("tavily")
        const searxng = registry.providers.get("searxng")
        expect(tavily?.apiKeys.map(Redacted.value)).toEqual([key, otherKey])
        expect(Option.map(searxng?.basicAuth ?? Option.none(), (a) => Redacted.value(a.password))).toEqual(
          Option.some(password)
        )
        for (const provider of [tavily, searxng]) {
          assertNoSecret("ResolvedProvider", JSON.stringify(provider))
          assertNoSecret("String(ResolvedProvider)", String(provider))
        }
        assertNoSecret("providers", JSON.stringify(Array.from(registry.providers.values())))
        const ctx = yield* registry.resolve("tavily", "searchKeywords")
        assertNoSecret("ProviderConfig", JSON.stringify(ctx))
        assertNoSecret("String(apiKey)", String(ctx.apiKey))
      }).pipe(Effect.provide(Registry.layer(Settings.layer(settings))))
  )

  it.effect("an invalid settings document never echoes a key in its error", () =>
    Effect.gen(function* () {
      // Refused when loaded (an unpaired password) and when the application starts (an id nobody composed).
      const loading = yield* Effect.flip(
        Settings.make({ providers: { tavily: { apiKeys: [key], basicAuthPassword: password } } })
      )
      expect(loading.reason).toBe("invalid_config")
      expect(loading.message).toContain("providers.tavily: basicAuthUsername and basicAuthPassword go together")
      assertNoSecret("invalid settings", `${loading.message} ${String(loading)}`)
      const starting = yield* Effect.flip(
        Registry.load({
          providers: { tavily: { apiKeys: [key], basicAuthUsername: "admin", basicAuthPassword: password }, nope: {} }
        })
      )
      expect(starting.reason).toBe("invalid_config")
      expect(starting.message).toContain("providers.nope: no composed provider has this id")
      assertNoSecret("invalid settings at start", `${starting.message} ${String(starting)}`)
    })
  )

  it("WebSearchError.scrub replaces every secret in message, input and failures", () => {
    const failure = WebSearchError.toInputFailure(
      `q ${key}`,
      WebSearchError.requestFailed("http_403", `bad ${key} and ${otherKey}`)
    )
    const error = WebSearchError.annotate(
      WebSearchError.requestFailed("http_403", `bad ${key}`, { input: `q ${key}` }),
      { failures: [failure] }
    )
    const clean = WebSearchError.scrub(error, [key, otherKey])
    expect(clean).toBeInstanceOf(WebSearchError.RequestFailed)
    expect(clean.message).toBe("bad [redacted]")
    expect(clean.input).toBe("q [redacted]")
    expect(clean.failures?.map((f) => [f.input, f.message])).toEqual([
      ["q [redacted]", "bad [redacted] and [redacted]"]
    ])
    assertNoSecret("scrubbed", JSON.stringify(WebSearchError.toJson(clean)))
  })
})
