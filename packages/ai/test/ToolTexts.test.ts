/**
 * The tools' texts against their schemas: every parameter a model sees is described, every range or limit a
 * description states is the one the JSON schema enforces, and the MCP server lists only what can run
 * (`web_research` with a default research provider that has its key, `web_fetch`'s `prompt` with a language
 * model).
 */
import * as Tool from "@effect/ai/Tool"
import { describe, expect, it } from "@effect/vitest"
import type { FetchUrls } from "@websearch/core/FetchUrls"
import type { Research } from "@websearch/core/Research"
import type { SearchKeywords } from "@websearch/core/SearchKeywords"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as WebSearchToolkit from "../src/WebSearchToolkit.js"
import { drivers, live, scriptedModel, text } from "./support/fixtures.js"
import { connectStdio } from "./support/stdioClient.js"

interface JsonSchema {
  readonly type?: string
  readonly description?: string | undefined
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly items?: JsonSchema
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly minItems?: number
  readonly maxItems?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly $ref?: string
  readonly $defs?: Readonly<Record<string, JsonSchema>>
}

/** The bounds a schema enforces: of its items, of its length, or of its value. */
const bounds = (schema: JsonSchema): readonly [number | undefined, number | undefined] =>
  schema.type === "array"
    ? [schema.minItems ?? 0, schema.maxItems]
    : schema.type === "string"
      ? [schema.minLength ?? 0, schema.maxLength]
      : [schema.minimum, schema.maximum]

/** What a text states about bounds: each "A-B" range and each "at most N". */
const stated = (description: string) => ({
  // A standard's number (ISO 639-1, ISO 3166-1) is a name, not a range.
  ranges: Array.from(
    description.matchAll(/(?<!ISO )(?<![\d-])(\d+)-(\d+)(?![\d-])/g),
    (m) => [Number(m[1]), Number(m[2])] as const
  ),
  atMost: Array.from(description.matchAll(/at most (\d+)/g), (m) => Number(m[1]))
})

/** Every described property of a tool's parameters, with its path. */
const properties = (root: JsonSchema): Array<readonly [string, JsonSchema]> => {
  const resolve = (schema: JsonSchema): JsonSchema =>
    schema.$ref === undefined ? schema : resolve(root.$defs![schema.$ref.split("/").at(-1)!])
  const out: Array<readonly [string, JsonSchema]> = []
  const walk = (path: string, schema: JsonSchema) => {
    const own = resolve(schema)
    for (const [name, child] of Object.entries(own.properties ?? {})) {
      const resolved = resolve(child)
      out.push([`${path}${name}`, { ...resolved, description: child.description ?? resolved.description }])
      walk(`${path}${name}.`, resolved)
      if (resolved.items !== undefined) walk(`${path}${name}[].`, resolved.items)
    }
  }
  walk("", root)
  return out
}

const tools = [
  ...Object.values(WebSearchToolkit.toolkit.tools),
  WebSearchToolkit.WebFetchToolWithoutPrompt
] as ReadonlyArray<Tool.Any>

describe("tool texts", () => {
  it("every parameter is described, and every bound a description states is the schema's", () => {
    for (const tool of tools) {
      const schema = Tool.getJsonSchema(tool as typeof WebSearchToolkit.WebSearchTool) as JsonSchema
      const found = properties(schema)
      expect(found.length).toBeGreaterThan(0)
      for (const [path, property] of found) {
        expect(property.description, `${tool.name} ${path}`).toBeTruthy()
        // Effect's default texts ("a string that will be trimmed") say nothing to a model.
        expect(property.description, `${tool.name} ${path}`).not.toMatch(/^an? (string|number|integer|array)/)
        const [min, max] = bounds(property)
        const { atMost, ranges } = stated(property.description!)
        for (const range of ranges) expect(range, `${tool.name} ${path}: ${property.description}`).toEqual([min, max])
        for (const limit of atMost) expect(limit, `${tool.name} ${path}: ${property.description}`).toBe(max)
      }
    }
  })

  it("each tool's own description states the bounds of its list parameter", () => {
    const list: Record<string, string> = { web_search: "keywords", web_fetch: "items" }
    for (const tool of tools) {
      const field = list[tool.name]
      if (field === undefined) continue
      const schema = Tool.getJsonSchema(tool as typeof WebSearchToolkit.WebSearchTool) as JsonSchema
      const property = properties(schema).find(([path]) => path === field)![1]
      const { ranges } = stated(tool.description!)
      expect(ranges.length, tool.name).toBeGreaterThan(0)
      for (const range of ranges) expect(range, `${tool.name}: ${tool.description}`).toEqual(bounds(property))
    }
  })

  it("web_fetch offers prompt only in the variant for a server with a language model", () => {
    const props = (tool: Tool.Any) =>
      properties(Tool.getJsonSchema(tool as typeof WebSearchToolkit.WebSearchTool) as JsonSchema).map(([p]) => p)
    expect(props(WebSearchToolkit.WebFetchTool)).toContain("items[].prompt")
    expect(props(WebSearchToolkit.WebFetchToolWithoutPrompt)).not.toContain("items[].prompt")
    expect(props(WebSearchToolkit.WebFetchToolWithoutPrompt)).toContain("items[].startIndex")
    expect(WebSearchToolkit.WebFetchToolWithoutPrompt.description).not.toContain("prompt")
  })
})

/** An MCP server on a pipe over the given application, and its connected official client. */
const connect = <A, E>(application: Layer.Layer<A, E>) =>
  connectStdio(application as Layer.Layer<SearchKeywords | FetchUrls | Research, E>)

const itemProperties = (tool: { readonly inputSchema: Record<string, unknown> }) => {
  const items = (tool.inputSchema.properties as Record<string, JsonSchema>).items
  return Object.keys(items.items?.properties ?? {})
}

describe("the MCP server lists what can run", () => {
  it.scoped("without a research provider web_research is not listed; without a model web_fetch has no prompt", () =>
    Effect.gen(function* () {
      const [search, fetch] = drivers().drivers
      const client = yield* connect(live([search, fetch]))
      const { tools: listed } = yield* Effect.promise(() => client.listTools())
      expect(listed.map((t) => t.name)).toEqual(["web_search", "web_fetch"])
      const webFetch = listed.find((t) => t.name === "web_fetch")!
      expect(itemProperties(webFetch)).toEqual(["url", "startIndex"])
      expect(webFetch.description).not.toContain("prompt")
    })
  )

  it.scoped("a research provider without its key, or without being the default, does not list web_research", () =>
    Effect.gen(function* () {
      // Composed (openai is among the drivers) but unusable by a call that names no provider: it would fail
      // missing_credentials or no_default_provider.
      for (const settings of [{ providers: {} }, { defaults: { research: null } }]) {
        const client = yield* connect(live(drivers().drivers, settings))
        const { tools: listed } = yield* Effect.promise(() => client.listTools())
        expect(listed.map((t) => t.name)).toEqual(["web_search", "web_fetch"])
      }
    })
  )

  it.scoped("with a research provider and a language model, all three and prompt are listed", () =>
    Effect.gen(function* () {
      const model = scriptedModel(() => text("an answer"))
      const client = yield* connect(Layer.merge(live(drivers().drivers), model.layer))
      const { tools: listed } = yield* Effect.promise(() => client.listTools())
      expect(listed.map((t) => t.name)).toEqual(["web_search", "web_fetch", "web_research"])
      expect(itemProperties(listed.find((t) => t.name === "web_fetch")!)).toEqual(["url", "startIndex", "prompt"])
    })
  )
})
