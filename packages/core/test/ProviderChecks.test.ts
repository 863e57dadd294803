import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as ProviderChecks from "../src/ProviderChecks.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"

const jinaKey = { jina: { apiKeys: ["jina-key-0001"] } }

describe("ProviderChecks (Cherry §9.4)", () => {
  it.effect("§9.4.1 a multi-capability provider is checked capability by capability with the stable inputs", () => {
    const jina = Drivers.makeDriver("jina", {
      searchKeywords: Drivers.succeed(3, { delay: "250 millis" }),
      fetchUrls: Drivers.succeed(1, { delay: "100 millis" })
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(ProviderChecks.check("jina"))
      yield* Drivers.awaitStarted(jina.recorder, 1)
      yield* TestClock.adjust("250 millis")
      yield* Drivers.awaitStarted(jina.recorder, 2)
      yield* TestClock.adjust("100 millis")
      const check = yield* Drivers.joinPromptly(fiber)
      expect(check.providerId).toBe("jina")
      expect(check.ok).toBe(true)
      expect(check.capabilities).toEqual([
        { capability: "searchKeywords", ok: true, results: 3, durationMs: 250 },
        { capability: "fetchUrls", ok: true, results: 1, durationMs: 100 }
      ])
      expect(jina.recorder.calls.map((c) => [c.capability, c.input])).toEqual([
        ["searchKeywords", ProviderChecks.checkInputs.searchKeywords],
        // the check URL goes through the same normalisation as any fetchUrls input
        ["fetchUrls", `${ProviderChecks.checkInputs.fetchUrls}/`]
      ])
    }).pipe(Effect.provide(Drivers.layer([jina], { providers: jinaKey })))
  })

  it.effect(
    "§9.4.2 a failing capability check carries the capability; the provider fails while the other capability passes",
    () => {
      const jina = Drivers.makeDriver("jina", {
        searchKeywords: Drivers.succeed(2),
        fetchUrls: Drivers.fail(WebSearchError.requestFailed("http_5xx", "r.jina.ai answered 502"))
      })
      return Effect.gen(function* () {
        const check = yield* ProviderChecks.check("jina")
        expect(check.ok).toBe(false)
        const [search, fetch] = check.capabilities
        expect([search.capability, search.ok, search.results, search.error]).toEqual([
          "searchKeywords",
          true,
          2,
          undefined
        ])
        expect([fetch.capability, fetch.ok, fetch.results]).toEqual(["fetchUrls", false, 0])
        expect(fetch.error).toBeInstanceOf(WebSearchError.RequestFailed)
        expect(fetch.error?.capability).toBe("fetchUrls")
        expect(fetch.error?.providerId).toBe("jina")
        expect(fetch.error?.reason).toBe("http_5xx")
        expect(fetch.error?.message).toMatch(/^fetchUrls check failed: /)
        expect(fetch.error?.message).toContain("502")
        // The whole check is serialisable (it crosses HTTP and MCP).
        const encoded = Schema.encodeSync(ProviderChecks.ProviderCheck)(check)
        expect(JSON.parse(JSON.stringify(encoded))).toMatchObject({
          capabilities: [{ ok: true }, { ok: false, error: { _tag: "RequestFailed", capability: "fetchUrls" } }]
        })
      }).pipe(Effect.provide(Drivers.layer([jina], { providers: jinaKey })))
    }
  )

  it.effect("§9.4.3 Jina's two endpoints are configured separately and each check uses its own", () => {
    const jina = Drivers.makeDriver("jina", { searchKeywords: Drivers.succeed(), fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const check = yield* ProviderChecks.check("jina")
      expect(check.ok).toBe(true)
      expect(jina.recorder.calls.map((c) => [c.capability, c.apiHost])).toEqual([
        ["searchKeywords", "https://s.jina.ai"],
        ["fetchUrls", "https://reader.internal.example"]
      ])
    }).pipe(
      Effect.provide(
        Drivers.layer([jina], {
          providers: {
            jina: {
              apiKeys: ["jina-key-0001"],
              capabilities: { fetchUrls: { apiHost: "https://reader.internal.example" } }
            }
          }
        })
      )
    )
  })

  it.effect(
    "a provider without its key fails every capability with missing_credentials, each naming its capability",
    () => {
      const tavily = Drivers.makeDriver("tavily", { searchKeywords: Drivers.succeed(), fetchUrls: Drivers.succeed() })
      return Effect.gen(function* () {
        const check = yield* ProviderChecks.check("tavily")
        expect(check.ok).toBe(false)
        expect(check.capabilities.map((c) => [c.capability, c.ok, c.error?.reason, c.error?.capability])).toEqual([
          ["searchKeywords", false, "missing_credentials", "searchKeywords"],
          ["fetchUrls", false, "missing_credentials", "fetchUrls"]
        ])
        expect(tavily.recorder.calls).toEqual([])
      }).pipe(Effect.provide(Drivers.layer([tavily])))
    }
  )

  it.effect("a research provider is checked with the research brief and counts cited sources", () => {
    const openai = Drivers.makeDriver("openai", { research: Drivers.succeed(2) })
    return Effect.gen(function* () {
      const check = yield* ProviderChecks.check("openai")
      expect(check.ok).toBe(true)
      expect(check.capabilities.map((c) => [c.capability, c.ok, c.results])).toEqual([["research", true, 2]])
      expect(openai.recorder.calls.map((c) => c.input)).toEqual([ProviderChecks.checkInputs.research])
    }).pipe(Effect.provide(Drivers.layer([openai], { providers: { openai: { apiKeys: ["sk-test-0001"] } } })))
  })

  it.effect(
    "a provider that is not composed fails the whole check with unknown_provider naming the composed ids",
    () => {
      const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed() })
      return Effect.gen(function* () {
        const error = yield* Effect.flip(ProviderChecks.check("duckduckgo"))
        expect([error._tag, error.reason, error.providerId]).toEqual(["Unavailable", "unknown_provider", "duckduckgo"])
        expect(error.message).toBe('unknown provider "duckduckgo": no composed provider has this id (composed: brave)')
        expect(brave.recorder.calls).toEqual([])
      }).pipe(Effect.provide(Drivers.layer([brave])))
    }
  )

  it.effect("an unknown provider id fails the check with Unavailable/unknown_provider", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(ProviderChecks.check("no-such-provider"))
      expect(error).toBeInstanceOf(WebSearchError.Unavailable)
      expect([error.reason, error.providerId]).toEqual(["unknown_provider", "no-such-provider"])
    }).pipe(Effect.provide(Drivers.layer([])))
  )

  it.effect("a check that is interrupted interrupts the driver call in flight", () => {
    const jina = Drivers.makeDriver("jina", { searchKeywords: Drivers.never, fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(ProviderChecks.check("jina"))
      yield* Drivers.awaitStarted(jina.recorder, 1)
      yield* Fiber.interrupt(fiber)
      expect(jina.recorder.interrupted).toEqual([ProviderChecks.checkInputs.searchKeywords])
      expect(jina.recorder.calls).toHaveLength(1)
    }).pipe(Effect.provide(Drivers.layer([jina], { providers: jinaKey })))
  })
})
