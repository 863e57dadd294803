import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Keenable from "../src/Keenable.js"
import * as KeenableWire from "../src/internal/keenableWire.js"
import * as Server from "./support/providerServer.js"

interface Fixture {
  readonly response: { readonly body: unknown }
  readonly error_examples: ReadonlyArray<{ readonly status: number; readonly body: unknown }>
  readonly official_doc_example: { readonly response: unknown }
}

const fixture = Server.fixture<Fixture>("keenable.json")
const errorBody = (status: number) => fixture.error_examples.find((e) => e.status === status)?.body

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "keenable", Keenable.layer, keywords, { capabilities: ["searchKeywords"], ...options })

describe("Keenable searchKeywords", () => {
  it("sends {query, count} to /v1/search with X-API-Key and decodes the recorded answer", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["hello"], { maxResults: 3 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/v1/search")
    expect(sent.headers["x-api-key"]).toBe(Server.canary)
    expect(sent.headers.authorization).toBeUndefined()
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({ query: "hello", count: 3 })
    // The longer snippet when Keenable sends one, else the description.
    expect(response.results).toEqual([
      {
        title: "T1",
        content: "long excerpt",
        url: "https://e/1",
        sourceInput: "hello",
        publishedAt: "2026-05-01T00:00:00.000Z"
      },
      { title: "T2", content: "d2", url: "https://e/2", sourceInput: "hello" },
      { title: "T3", content: "d3", url: "https://e/3", sourceInput: "hello" }
    ])
    expect(response.query).toBe("hello")
    expect(response.providerId).toBe("keenable")
  })

  it("decodes the documented example and the real variations (null title, empty snippet, numeric date)", async () => {
    server.handle = Server.json(fixture.official_doc_example.response)
    const documented = Server.success(await search(["typescript best practices"]))
    expect(documented.results).toEqual([
      {
        title: "TypeScript Best Practices 2026",
        content: "A comprehensive guide to modern TypeScript patterns and best practices.",
        url: "https://example.com/ts-best-practices",
        sourceInput: "typescript best practices"
      }
    ])
    server.handle = Server.json({
      results: [
        { title: null, url: "https://a.example/x", description: "desc", snippet: "  ", published_at: 1768435200 },
        { url: "https://b.example/", description: null, published_at: null },
        { title: "no url scheme", url: "ftp://c.example/file", description: "dropped" }
      ]
    })
    const varied = await search(["v"])
    expect(Server.success(varied).results).toEqual([
      // Unix seconds, as UTC.
      {
        title: "https://a.example/x",
        content: "desc",
        url: "https://a.example/x",
        sourceInput: "v",
        publishedAt: "2026-01-15T00:00:00.000Z"
      },
      { title: "https://b.example/", content: "", url: "https://b.example/", sourceInput: "v" }
    ])
    expect(varied.logs.some((l) => l.text.includes("dropped 1 result"))).toBe(true)
    server.handle = Server.json({ query: "nothing" })
    expect(Server.success(await search(["nothing"])).results).toEqual([])
  })

  it("clamps count to 1–20", async () => {
    server.handle = Server.json({ results: [] })
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.count).toBe(20)
  })

  it.prop("count is always within 1–20 and equals maxResults inside it", [FastCheck.integer()], ([n]) => {
    const { count } = KeenableWire.searchBody("q", n)
    expect(count).toBeGreaterThanOrEqual(1)
    expect(count).toBeLessThanOrEqual(KeenableWire.maxResultsLimit)
    if (n >= 1 && n <= KeenableWire.maxResultsLimit) expect(count).toBe(n)
  })

  it("searches keyless on /v1/search/public without any key header when no key is set", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["hello"], { keys: [] }))
    const sent = server.requests[0]
    expect(sent.path).toBe("/v1/search/public")
    expect(sent.headers["x-api-key"]).toBeUndefined()
    expect(sent.body).toMatchObject({ query: "hello" })
    expect(response.results).toHaveLength(3)
  })

  it("maps 401 to Unavailable/credentials_rejected with the key's position, never its value", async () => {
    server.handle = Server.reply(401, { message: "invalid api key" })
    const single = await search(["a"])
    const error = Server.failure(single)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "keenable" })
    expect(error.message).toContain("invalid api key")
    expect(error.message).toContain("KEENABLE_API_KEY")
    expect(Server.visible(single)).not.toContain(Server.canary)
    const keys = ["sk-kn_live_first-0001", "sk-kn_live_second-0002"]
    // Two keywords in one request take the two keys in rotation.
    const both = await search(["a", "b"], { keys })
    const messages = (Server.failure(both).failures ?? []).map((f) => f.message).join("\n")
    expect(messages).toContain("API key #1 of 2")
    expect(messages).toContain("API key #2 of 2")
    for (const key of keys) expect(Server.visible(both)).not.toContain(key)
  })

  it("maps 403 (disabled key) to credentials_rejected, and keyless refusals to a hint to set a key", async () => {
    server.handle = Server.reply(403, { error: "key disabled" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    server.handle = Server.reply(401, { message: "authentication required" })
    const keyless = Server.failure(await search(["a"], { keys: [] }))
    expect(keyless).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(keyless.message).toContain("Keenable refused the call (HTTP 401)")
    expect(keyless.message).toContain("KEENABLE_API_KEY")
    expect(keyless.message).toContain("authentication required")
  })

  it("maps the recorded 429 with Retry-After to RequestFailed/http_429 carrying retryAfter", async () => {
    server.handle = Server.reply(429, errorBody(429), { "retry-after": "12" })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 12 })
    expect(error.message).toContain("rate limited")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    const keyless = Server.failure(await search(["a"], { keys: [] }))
    expect(keyless).toMatchObject({ reason: "http_429", retryAfter: 12 })
    expect(keyless.message).toContain("rate limiting this client")
    expect(keyless.message).toContain("keyless tier")
  })

  it("maps 5xx to http_5xx, an error inside a 200 body to http_status, and undecodable bodies to decode_failed", async () => {
    server.handle = Server.html(503, "<html><body>Service Unavailable</body></html>")
    const down = Server.failure(await search(["a"]))
    expect(down).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(down.message).not.toContain("<html>")
    server.handle = Server.json({ error: "query too long" })
    const inBody = Server.failure(await search(["a"]))
    expect(inBody).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(inBody.message).toContain("query too long")
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ results: [{ title: "no url" }] })
    const shape = Server.failure(await search(["a"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("url")
  })

  it("never shows the key, even when Keenable echoes it", async () => {
    server.handle = Server.reply(400, { message: `bad key ${Server.canary}` })
    const outcome = await search(["a"])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})
