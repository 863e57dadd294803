import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Serper from "../src/Serper.js"
import * as SerperWire from "../src/internal/serperWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("serper.json")
// The documented out-of-credits answer (reference: "seen in many logs/tests").
const noCredits = { message: "Not enough credits", statusCode: 400 }

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "serper", Serper.layer, keywords, { capabilities: ["searchKeywords"], ...options })

describe("Serper searchKeywords", () => {
  it("posts q and num with X-API-KEY and decodes the organic results of the recorded answer", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["apple inc"], { maxResults: 8 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/search")
    expect(sent.headers["x-api-key"]).toBe(Server.canary)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({ q: "apple inc", num: 8 })
    expect(response.results).toEqual(
      fixture.response.body.organic.map((r: Json) => ({
        title: r.title,
        content: r.snippet,
        url: r.link,
        sourceInput: "apple inc",
        // Google's "Aug 31, 2022" as an ISO date.
        ...(r.date === undefined ? {} : { publishedAt: "2022-08-31" })
      }))
    )
    // The knowledge graph is not a result of its own: its description is nowhere in the results.
    const graph = fixture.response.body.knowledgeGraph.description
    expect(response.results.some((r) => r.content === graph)).toBe(false)
    expect(response.query).toBe("apple inc")
  })

  it.prop(
    "num is always within 1..100 and equals maxResults inside that range",
    [FastCheck.integer({ min: -5, max: 500 })],
    ([n]) => {
      const { num } = SerperWire.searchBody("q", n)
      expect(num).toBeGreaterThanOrEqual(1)
      expect(num).toBeLessThanOrEqual(100)
      if (n >= 1 && n <= 100) expect(num).toBe(n)
    }
  )

  it("accepts a missing organic list, null snippets, string positions and a credits count", async () => {
    server.handle = Server.json({ searchParameters: { q: "zxqv" }, credits: 1 })
    expect(Server.success(await search(["zxqv"])).results).toEqual([])
    server.handle = Server.json({
      organic: [{ title: "T", link: "https://example.com/x", snippet: null, position: "1", date: "Aug 31, 2022" }],
      credits: "1"
    })
    expect(Server.success(await search(["a"])).results).toEqual([
      { title: "T", content: "", url: "https://example.com/x", sourceInput: "a", publishedAt: "2022-08-31" }
    ])
  })

  it("maps HTTP 400 'Not enough credits' to RequestFailed/rate_limited, not retryable", async () => {
    server.handle = Server.reply(400, noCredits)
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(error.message).toContain("Not enough credits")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("keeps any other 400 as http_status with Serper's message", async () => {
    server.handle = Server.reply(400, { message: "Query not allowed", statusCode: 400 })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(error.message).toContain("Query not allowed")
  })

  it("maps 401/403 to Unavailable/credentials_rejected naming the key by position", async () => {
    const keys = ["serper-first-key-0001", "serper-second-key-0002"]
    for (const status of [401, 403]) {
      server.handle = Server.reply(status, { message: "Unauthorized.", statusCode: status })
      const outcome = await search(["a"], { keys })
      const error = Server.failure(outcome)
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "serper" })
      expect(error.message).toContain("Unauthorized.")
      expect(error.message).toMatch(/API key #[12] of 2/)
      expect(Server.visible(outcome)).not.toContain("serper-first-key-0001")
      expect(Server.visible(outcome)).not.toContain("serper-second-key-0002")
    }
  })

  it("maps 429 with Retry-After to http_429, 5xx to http_5xx and a non-JSON 200 to decode_failed", async () => {
    server.handle = Server.reply(429, { message: "Too many requests", statusCode: 429 }, { "retry-after": "3" })
    expect(Server.failure(await search(["a"]))).toMatchObject({
      _tag: "RequestFailed",
      reason: "http_429",
      retryAfter: 3
    })
    server.handle = Server.reply(500, { message: "Internal error", statusCode: 500 })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
    server.handle = Server.html(200, "<html>cloudflare</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ organic: [{ title: "no link" }] })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("SERPER_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})
