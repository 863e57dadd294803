import * as Tool from "@effect/ai/Tool"
import { describe, expect, it } from "@effect/vitest"
import type { ProviderDriver } from "@websearch/core/ProviderDriver"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as ToolOutput from "../src/ToolOutput.js"
import * as WebSearchToolkit from "../src/WebSearchToolkit.js"
import { drivers, live } from "./support/fixtures.js"

const webSearch = (params: unknown) =>
  Effect.flatMap(WebSearchToolkit.toolkit, (tk) => tk.handle("web_search", params as never))

// The fixtures' search driver, and a second provider answering the same way under another id.
const searchers = () => {
  const { drivers: list, recorded } = drivers({
    search: {
      docs: [
        { title: "Docs", url: "https://docs.example.com/a", content: "a" },
        { title: "Elsewhere", url: "https://elsewhere.example/b", content: "b" }
      ]
    }
  })
  const ddg = list.find((d) => d.preset.id === "duckduckgo")!
  const second: ProviderDriver = { ...ddg, preset: { ...ddg.preset, id: "ddg-mirror", name: "DDG mirror" } }
  return { list: [...list, second], recorded }
}

describe("web_search options and fusion", () => {
  it("the parameters stay flat (no references) and every option is described for a model", () => {
    const schema = Tool.getJsonSchema(WebSearchToolkit.WebSearchTool) as {
      properties: Record<string, { description?: string; type?: string; enum?: Array<string> }>
      $defs?: unknown
    }
    expect(JSON.stringify(schema)).not.toContain("$ref")
    expect(schema.$defs).toBeUndefined()
    for (const name of [
      "providerIds",
      "timeRange",
      "includeDomains",
      "excludeDomains",
      "language",
      "country",
      "safeSearch",
      "topic"
    ]) {
      expect(schema.properties[name]?.description, name).toMatch(/\w{3,}/)
    }
    expect(schema.properties.timeRange.enum).toEqual(["day", "week", "month", "year"])
  })

  it.effect("domains are enforced on the results; a filter the provider cannot apply is returned, naming it", () => {
    const { list, recorded } = searchers()
    return Effect.gen(function* () {
      const filtered = yield* webSearch({ keywords: ["docs"], includeDomains: ["example.com"] })
      expect(filtered.isFailure).toBe(false)
      expect((filtered.result as ToolOutput.SearchOutput).sources.map((s) => s.url)).toEqual([
        "https://docs.example.com/a"
      ])
      const refused = yield* webSearch({ keywords: ["docs"], timeRange: "week" })
      expect(refused.isFailure).toBe(true)
      const error = refused.result as { readonly reason: string; readonly message: string }
      expect(error.reason).toBe("invalid_input")
      expect(error.message).toContain("duckduckgo cannot apply timeRange")
      expect(recorded.searched).toEqual(["docs"])
    }).pipe(Effect.provide(WebSearchToolkit.layer().pipe(Layer.provide(live(list)))))
  })

  it.effect("providerIds fuses the providers' results", () => {
    const { list, recorded } = searchers()
    return Effect.gen(function* () {
      const fused = yield* webSearch({ keywords: ["docs"], providerIds: ["duckduckgo", "ddg-mirror"] })
      expect(fused.isFailure).toBe(false)
      const output = fused.result as ToolOutput.SearchOutput
      expect(output.providerId).toBe("fusion")
      expect(output.sources.map((s) => s.url)).toEqual(["https://docs.example.com/a", "https://elsewhere.example/b"])
      expect(recorded.searched).toEqual(["docs", "docs"])
    }).pipe(Effect.provide(WebSearchToolkit.layer().pipe(Layer.provide(live(list)))))
  })
})
