import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Ollama from "../src/Ollama.js"
import * as OllamaWire from "../src/internal/ollamaWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const searchFixture = Server.fixture<Json>("ollama_web_search.json")
const fetchFixture = Server.fixture<Json>("ollama_web_fetch.json")

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "ollama", Ollama.layer, keywords, options)
const fetch = (urls: ReadonlyArray<string>, options?: Parameters<typeof Server.fetch>[4]) =>
  Server.fetch(server, "ollama", Ollama.layer, urls, options)

describe("Ollama searchKeywords", () => {
  it("posts { query, max_results } to /api/web_search with the Bearer key and decodes the recorded answer", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    const outcome = await search(["what is ollama?"], { maxResults: 3 })
    const response = Server.success(outcome)
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/api/web_search")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({ query: "what is ollama?", max_results: 3 })
    expect(response.results).toEqual(
      searchFixture.response.body.results.map((r: Json) => ({
        title: r.title,
        content: r.content,
        url: r.url,
        sourceInput: "what is ollama?"
      }))
    )
    expect(response.query).toBe("what is ollama?")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("clamps max_results to Ollama's 10", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.max_results).toBe(10)
  })

  it.prop(
    "max_results is always within 1–10 and equals maxResults inside it",
    [FastCheck.oneof(FastCheck.integer({ min: -5, max: 200 }), FastCheck.integer())],
    ([n]) => {
      const max = OllamaWire.searchBody("q", n).max_results
      expect(max).toBeGreaterThanOrEqual(1)
      expect(max).toBeLessThanOrEqual(10)
      if (n >= 1 && n <= 10) expect(max).toBe(n)
    }
  )

  it("accepts null titles and content, an absent or null results list, and drops items without a URL", async () => {
    server.handle = Server.json({
      results: [
        { title: null, url: "https://example.com/a", content: null },
        { title: "relative", url: "/docs", content: "x" }
      ]
    })
    const outcome = await search(["a"])
    expect(Server.success(outcome).results).toEqual([
      { title: "https://example.com/a", content: "", url: "https://example.com/a", sourceInput: "a" }
    ])
    expect(outcome.logs.some((l) => l.text.includes("dropped 1 result"))).toBe(true)
    server.handle = Server.json({ results: null })
    expect(Server.success(await search(["a"])).results).toEqual([])
    server.handle = Server.json({})
    expect(Server.success(await search(["a"])).results).toEqual([])
  })

  it("maps 401 with Ollama's { error } body to Unavailable/credentials_rejected, naming the key by position", async () => {
    server.handle = Server.reply(401, { error: "unauthorized" })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "ollama" })
    expect(error.message).toContain("unauthorized")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    const keys = ["ollama-first-key-01", "ollama-second-key-02", "ollama-third-key-03"]
    const first = await search(["a"], { keys })
    expect(Server.failure(first).message).toContain("API key #1 of 3")
    expect(Server.visible(first)).not.toContain("ollama-first-key-01")
  })

  it("maps 429 with Retry-After to http_429, 402 to a plan limit and 5xx to http_5xx", async () => {
    server.handle = Server.reply(429, { error: "too many requests" }, { "retry-after": "4" })
    const limited = await search(["a"])
    expect(Server.failure(limited)).toMatchObject({
      _tag: "RequestFailed",
      reason: "http_429",
      retryable: true,
      retryAfter: 4
    })
    expect(Server.failure(limited).message).toContain("too many requests")
    expect(Server.visible(limited)).not.toContain(Server.canary)
    server.handle = Server.reply(402, { error: "web search usage limit reached" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "rate_limited", retryable: false })
    server.handle = Server.reply(502, "upstream connect error")
    const gateway = Server.failure(await search(["a"]))
    expect(gateway).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
    expect(gateway.message).toContain("upstream connect error")
  })

  it("fails an { error } body in a 200 answer instead of returning no results", async () => {
    server.handle = Server.json({ error: "query must not be empty" })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(error.message).toContain("query must not be empty")
  })

  it("maps a non-JSON 200 and a wrong shape to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(200, "<html>login</html>")
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
    expect(error.message).toContain("OLLAMA_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})

describe("Ollama fetchUrls", () => {
  it("posts { url } to /api/web_fetch with the Bearer key and decodes the recorded answer", async () => {
    server.handle = Server.json(fetchFixture.response.body)
    server.requests.length = 0
    const outcome = await fetch(["https://ollama.com"])
    const response = Server.success(outcome)
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/api/web_fetch")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.body).toEqual({ url: "https://ollama.com/" })
    expect(response.results).toEqual([
      {
        title: "Ollama",
        content: fetchFixture.response.body.content,
        url: "https://ollama.com/",
        sourceInput: "https://ollama.com/"
      }
    ])
    // The links list is Ollama's, not part of the result.
    expect(JSON.stringify(response.results)).not.toContain("github.com/ollama")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("falls back to the URL for a missing title, and fails empty content or an { error } body", async () => {
    server.handle = Server.json({ title: null, content: "text", links: null })
    expect(Server.success(await fetch(["https://example.com/a"])).results[0]).toMatchObject({
      title: "https://example.com/a",
      content: "text"
    })
    server.handle = Server.json({ title: "t", content: " ", links: [] })
    expect(Server.failure(await fetch(["https://example.com/a"]))).toMatchObject({
      _tag: "ResponseInvalid",
      reason: "empty_content"
    })
    server.handle = Server.json({ error: "failed to fetch https://example.com/a: 404 Not Found" })
    const error = Server.failure(await fetch(["https://example.com/a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", input: "https://example.com/a" })
    expect(error.message).toContain("404 Not Found")
  })

  it("maps 401 and 5xx on the fetch endpoint, without the key", async () => {
    server.handle = Server.reply(401, { error: "unauthorized" })
    const denied = await fetch(["https://example.com/a"])
    expect(Server.failure(denied)).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(Server.visible(denied)).not.toContain(Server.canary)
    server.handle = Server.reply(500, { error: "internal error" })
    expect(Server.failure(await fetch(["https://example.com/a"]))).toMatchObject({ reason: "http_5xx" })
  })

  it("fails with missing_credentials before any request, and never sends a private URL", async () => {
    server.requests.length = 0
    expect(Server.failure(await fetch(["https://example.com/a"], { keys: [] }))).toMatchObject({
      _tag: "Unavailable",
      reason: "missing_credentials"
    })
    const outcome = await fetch([`${server.url}/internal`])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "RequestFailed", reason: "ssrf_rejected" })
    expect(server.requests).toHaveLength(0)
  })
})
