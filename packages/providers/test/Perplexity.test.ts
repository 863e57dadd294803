import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Perplexity from "../src/Perplexity.js"
import * as PerplexityWire from "../src/internal/perplexityWire.js"
import * as Server from "./support/providerServer.js"

const fixture = Server.fixture<Server.FixtureJson>("perplexity_search.json")

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "perplexity", Perplexity.layer, keywords, { capabilities: ["searchKeywords"], ...options })

const openAiError = (message: string, type: string, code: string | number | null) => ({
  error: { message, type, code }
})

describe("Perplexity searchKeywords", () => {
  it("sends the documented request and decodes the recorded answer", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const query = "What is the status of the James Webb Space Telescope?"
    const response = Server.success(await search([query], { maxResults: 5 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/search")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({ query, max_results: 5 })
    expect(response.results).toEqual([
      {
        title: "James Webb Space Telescope (JWST) NASA",
        content: "The James Webb Space Telescope is the largest, most powerful space telescope ever built...",
        url: "https://webb.nasa.gov/",
        sourceInput: query,
        publishedAt: "2024-03-01"
      }
    ])
    expect(response.query).toBe(query)
    expect(response.providerId).toBe("perplexity")
  })

  it("clamps max_results to Perplexity's 20", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.max_results).toBe(20)
  })

  it.prop("searchBody always asks for 1..20 results", [FastCheck.integer({ min: -100, max: 1000 })], ([n]) => {
    expect(PerplexityWire.searchBody("q", n)).toEqual({ query: "q", max_results: Math.min(20, Math.max(1, n)) })
  })

  it("accepts null fields, a numeric server_time, missing results, and drops URLs that are not http(s)", async () => {
    server.handle = Server.json({
      id: "x",
      server_time: 0.41,
      results: [
        { title: null, url: "https://a.example/", snippet: null, date: null, last_updated: null },
        { title: "T", url: "https://b.example/p", snippet: "  line one\n\n\n\nline two  " },
        { title: "bad", url: "javascript:alert(1)", snippet: "s" }
      ]
    })
    expect(Server.success(await search(["q"])).results).toEqual([
      { title: "https://a.example/", content: "", url: "https://a.example/", sourceInput: "q" },
      { title: "T", content: "line one\n\nline two", url: "https://b.example/p", sourceInput: "q" }
    ])
    server.handle = Server.json({ id: "y", server_time: null })
    expect(Server.success(await search(["q"])).results).toEqual([])
  })

  it("maps 401 to Unavailable/credentials_rejected with Perplexity's message and no key", async () => {
    server.handle = Server.reply(401, openAiError("Invalid API key provided", "invalid_request_error", 401))
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "perplexity" })
    expect(error.message).toContain("Invalid API key provided")
    expect(error.message).toContain("PERPLEXITY_API_KEY")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("names a rejected key by its position among several, never by value", async () => {
    server.handle = Server.reply(401, openAiError("Invalid API key", "invalid_request_error", null))
    const keys = ["pplx-first-key-0001", "pplx-second-key-0002"]
    const outcome = await search(["a"], { keys })
    expect(Server.failure(outcome).message).toMatch(/API key #\d of 2/)
    for (const key of keys) expect(Server.visible(outcome)).not.toContain(key)
  })

  it("maps 429 with Retry-After to RequestFailed/http_429 carrying retryAfter", async () => {
    server.handle = Server.reply(429, openAiError("Rate limit exceeded", "rate_limit_error", "rate_limit_exceeded"), {
      "retry-after": "3"
    })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 3 })
    expect(error.message).toContain("Rate limit exceeded")
  })

  it("maps insufficient_quota (on 429 or in a 200 body) and 402 to the plan limit, not retryable", async () => {
    server.handle = Server.reply(
      429,
      openAiError("You exceeded your current quota", "insufficient_quota", "insufficient_quota")
    )
    const quota = Server.failure(await search(["a"]))
    expect(quota).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(quota.message).toContain("exceeded your current quota")
    server.handle = Server.json(openAiError("quota gone", "insufficient_quota", "insufficient_quota"))
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "rate_limited", retryable: false })
    server.handle = Server.reply(402, openAiError("Payment required", "billing", null))
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "rate_limited", retryable: false })
  })

  it("reads another error inside a 200 body as a refusal with its message", async () => {
    server.handle = Server.json(openAiError("query must not be empty", "invalid_request_error", "bad_query"))
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(error.message).toContain("query must not be empty")
    expect(error.message).toContain("bad_query")
  })

  it("maps 5xx to http_5xx, and a non-JSON or misshapen 200 to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(503, "<html>down</html>")
    const down = Server.failure(await search(["a"]))
    expect(down).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(down.message).not.toContain("<html>")
    server.handle = Server.html(200, "<html>ok?</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ results: [{ title: "no url" }] })
    const shape = Server.failure(await search(["a"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("url")
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("PERPLEXITY_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})
