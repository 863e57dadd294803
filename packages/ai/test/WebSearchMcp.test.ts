import { describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import { drivers, live } from "./support/fixtures.js"
import { connectStdio } from "./support/stdioClient.js"

interface ToolResult {
  readonly isError?: boolean
  readonly structuredContent?: Record<string, unknown>
  readonly content: Array<{ readonly type: string; readonly text?: string }>
}

/** Serves the tools over a pipe for the scope of the test and returns a connected official client. */
const connect = (tables: Parameters<typeof drivers>[0] = {}) =>
  Effect.gen(function* () {
    const client = yield* connectStdio(live(drivers(tables).drivers))
    const call = (name: string, args: Record<string, unknown>) =>
      Effect.promise(() => client.callTool({ name, arguments: args }) as Promise<ToolResult>)
    return { client, call }
  })

describe("WebSearchMcp", () => {
  it.scoped("lists the three tools with their input schemas and annotations", () =>
    Effect.gen(function* () {
      const { client } = yield* connect()
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((t) => [t.name, t.annotations?.title, t.annotations?.readOnlyHint])).toEqual([
        ["web_search", "Web search", true],
        ["web_fetch", "Web fetch", true],
        ["web_research", "Web research", true]
      ])
      expect(tools[1].inputSchema.properties).toHaveProperty("items")
      expect(client.getServerVersion()).toEqual({ name: "websearch-test", version: "0.1.0" })
    })
  )

  it.scoped("a successful call has the output object as structured content and the rendered text", () =>
    Effect.gen(function* () {
      const { call } = yield* connect()
      const found = yield* call("web_search", { keywords: ["mcp"] })
      expect(found.isError).toBe(false)
      expect(found.structuredContent).toMatchObject({ providerId: "duckduckgo", sources: [{ id: "w1" }, { id: "w2" }] })
      expect(found.content[0].text).toContain("[w2] mcp result 2")
      // The session spans calls: the id from the search reads the page.
      const read = yield* call("web_fetch", { items: [{ url: "w2" }] })
      expect(read.structuredContent).toMatchObject({
        providerId: "fetch",
        items: [{ status: "success", id: "w2", url: "https://results.example/mcp/2" }]
      })
    })
  )

  it.scoped("a failed call is an MCP tool error carrying the typed websearch error", () =>
    Effect.gen(function* () {
      const { call } = yield* connect({
        fetch: { "https://gone.example/": WebSearchError.requestFailed("http_404", "gone") }
      })
      const failed = yield* call("web_fetch", { items: [{ url: "https://gone.example/" }] })
      expect(failed.isError).toBe(true)
      expect(failed.structuredContent).toMatchObject({
        _tag: "RequestFailed",
        reason: "http_404",
        retryable: false,
        failures: [{ input: "https://gone.example/", reason: "http_404" }]
      })
      expect(failed.content[0].text).toMatch(/^RequestFailed\/http_404: .*Next step: No page could be read/)
    })
  )

  it.scoped("arguments outside the schema are a tool error naming the field; an unknown tool is a JSON-RPC error", () =>
    Effect.gen(function* () {
      const { client, call } = yield* connect()
      const invalid = yield* call("web_search", { keywords: "not a list" })
      expect(invalid.isError).toBe(true)
      expect(invalid.structuredContent).toMatchObject({
        _tag: "RequestFailed",
        reason: "invalid_input",
        capability: "searchKeywords"
      })
      expect(invalid.content[0].text).toContain("keywords")
      const unknown = yield* Effect.flip(Effect.tryPromise(() => client.callTool({ name: "nope", arguments: {} })))
      expect(String(unknown.cause)).toContain("-32602")
    })
  )
})
