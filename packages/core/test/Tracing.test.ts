import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ProviderChecks from "../src/ProviderChecks.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as Drivers from "./support/drivers.js"
import { parentName, recording } from "../../../test-support/recordingTracer.js"

describe("spans at every boundary", () => {
  it.effect("a capability call, its provider attempt and each provider call are spans with attributes", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(2) })
    return Effect.gen(function* () {
      const { spans } = yield* recording(SearchKeywords.searchKeywords({ keywords: ["a", "b"] }))
      const byName = (name: string) => spans.filter((s) => s.name === name)
      const [capability] = byName("websearch.searchKeywords")
      expect(capability.attributes.get("websearch.capability")).toBe("searchKeywords")
      expect(capability.attributes.get("websearch.inputs")).toBe(2)
      expect(capability.status._tag).toBe("Ended")
      const [attempt] = byName("websearch.attempt")
      expect(parentName(attempt)).toBe("websearch.searchKeywords")
      expect(attempt.attributes.get("websearch.provider")).toBe("duckduckgo")
      expect(attempt.attributes.get("websearch.results")).toBe(4)
      expect(attempt.attributes.get("websearch.failures")).toBe(0)
      const calls = byName("websearch.provider.searchKeywords")
      expect(calls).toHaveLength(2)
      for (const call of calls) {
        expect(parentName(call)).toBe("websearch.attempt")
        expect(call.attributes.get("websearch.provider")).toBe("duckduckgo")
        expect(call.attributes.get("websearch.capability")).toBe("searchKeywords")
      }
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect("a provider check is a span around its capability calls", () => {
    const jina = Drivers.makeDriver("jina", { searchKeywords: Drivers.succeed(1), fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const { spans, value } = yield* recording(ProviderChecks.check("jina"))
      expect(value.ok).toBe(true)
      const check = spans.find((s) => s.name === "websearch.check")
      expect(check?.attributes.get("websearch.provider")).toBe("jina")
      expect(spans.filter((s) => parentName(s) === "websearch.check").map((s) => s.name)).toEqual([
        "websearch.searchKeywords",
        "websearch.fetchUrls"
      ])
    }).pipe(Effect.provide(Drivers.layer([jina], { providers: { jina: { apiKeys: ["jina-key-0001"] } } })))
  })
  it.effect("a single-keyword search still has its capability, attempt and provider-call spans", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(2) })
    return Effect.gen(function* () {
      const { spans, value } = yield* recording(SearchKeywords.searchKeywords({ keywords: ["one"] }))
      expect(value.results).toHaveLength(2)
      const names = spans.map((s) => [s.name, Option.getOrUndefined(Option.map(s.parent, (p) => p.spanId))] as const)
      const idOf = (name: string) => spans.find((s) => s.name === name)?.spanId
      expect(names).toContainEqual(["websearch.attempt", idOf("websearch.searchKeywords")])
      expect(names).toContainEqual(["websearch.provider.searchKeywords", idOf("websearch.attempt")])
      const attempt = spans.find((s) => s.name === "websearch.attempt")
      expect(attempt?.attributes.get("websearch.provider")).toBe("duckduckgo")
      expect(attempt?.attributes.get("websearch.results")).toBe(2)
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })
})
