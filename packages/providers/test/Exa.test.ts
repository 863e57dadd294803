import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Exa from "../src/Exa.js"
import * as ExaWire from "../src/internal/exaWire.js"
import * as Server from "./support/providerServer.js"

const searchFixture = Server.fixture<Server.FixtureJson>("exa.json")
const contentsFixture = Server.fixture<Server.FixtureJson>("exa_contents.json")
const errorBody = (status: number) =>
  searchFixture.error_examples.find((e: Server.FixtureJson) => e.status === status).body

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "exa", Exa.layer, keywords, options)
const fetch = (urls: ReadonlyArray<string>, options?: Parameters<typeof Server.fetch>[4]) =>
  Server.fetch(server, "exa", Exa.layer, urls, options)

describe("Exa searchKeywords", () => {
  it("sends the documented request and decodes the recorded answer", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["Latest research in LLMs"], { maxResults: 4 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/search")
    expect(sent.headers["x-api-key"]).toBe(Server.canary)
    expect(sent.headers.authorization).toBeUndefined()
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({
      query: "Latest research in LLMs",
      type: "auto",
      numResults: 4,
      contents: { text: { maxCharacters: ExaWire.searchTextChars } }
    })
    const recorded = searchFixture.response.body.results[0]
    expect(response.results).toEqual([
      {
        title: "A Comprehensive Overview of Large Language Models",
        content: recorded.text,
        url: "https://arxiv.org/pdf/2307.06435.pdf",
        sourceInput: "Latest research in LLMs",
        publishedAt: "2023-11-16T01:36:32.547Z",
        // White space folded, as in every text field of a result.
        author: "Humza Naveed, University of Engineering and Technology (UET), Lahore, Pakistan"
      }
    ])
    expect(response.query).toBe("Latest research in LLMs")
    expect(response.providerId).toBe("exa")
    // No provider field leaks into a result: only the contract's fields.
    expect(Object.keys(response.results[0]!).sort()).toEqual([
      "author",
      "content",
      "publishedAt",
      "sourceInput",
      "title",
      "url"
    ])
  })

  it("sends the caller's count as numResults (the request allows at most 50, under Exa's 100)", async () => {
    server.handle = Server.json({ requestId: "r", results: [] })
    for (const asked of [50, 1]) {
      server.requests.length = 0
      Server.success(await search(["a"], { maxResults: asked }))
      expect(server.requests[0].body?.numResults).toBe(asked)
    }
  })

  it.prop("searchBody always asks for 1..100 results", [FastCheck.integer({ min: -1000, max: 1000 })], ([n]) => {
    const body = ExaWire.searchBody("q", n)
    expect(body.numResults).toBe(Math.min(100, Math.max(1, n)))
    expect(body.query).toBe("q")
  })

  it("accepts a null title, highlights or a summary instead of text, and the newer answer shape", async () => {
    server.handle = Server.json({
      requestId: "b5947044",
      resolvedSearchType: "neural",
      searchTime: 812.5,
      results: [
        { id: "https://a.example/1", url: "https://a.example/1", title: null, highlights: ["first", "second"] },
        { id: "x", url: "https://b.example/2", title: "B", text: null, summary: "a summary", score: "0.5" },
        { id: "https://c.example/3", title: "Legacy, no url field", text: "legacy text" },
        { id: "y", url: "ftp://d.example/", title: "dropped: not http(s)" }
      ],
      costDollars: { total: "0.005" }
    })
    const response = Server.success(await search(["q"]))
    expect(response.results).toEqual([
      { title: "https://a.example/1", content: "first\nsecond", url: "https://a.example/1", sourceInput: "q" },
      { title: "B", content: "a summary", url: "https://b.example/2", sourceInput: "q" },
      { title: "Legacy, no url field", content: "legacy text", url: "https://c.example/3", sourceInput: "q" }
    ])
  })

  it("keeps Exa's error and message for a 400", async () => {
    server.handle = Server.reply(400, errorBody(400))
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false, providerId: "exa" })
    expect(error.message).toContain("Bad Request: Invalid query")
  })

  it("maps 401 to Unavailable/credentials_rejected with no key in any output", async () => {
    server.handle = Server.reply(401, { requestId: "r", error: "Invalid API key", tag: "INVALID_API_KEY" })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "exa" })
    expect(error.message).toContain("Invalid API key")
    expect(error.message).toContain("EXA_API_KEY")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("names a rejected key by its position among several, never by value", async () => {
    server.handle = Server.reply(401, { error: "Invalid API key" })
    const keys = ["exa-first-key-0001", "exa-second-key-0002", "exa-third-key-0003"]
    const outcome = await search(["a"], { keys })
    expect(Server.failure(outcome).message).toMatch(/API key #\d of 3/)
    for (const key of keys) expect(Server.visible(outcome)).not.toContain(key)
  })

  it("maps 429 with Retry-After to RequestFailed/http_429 carrying retryAfter and Exa's message", async () => {
    server.handle = Server.reply(429, errorBody(429), { "retry-after": "12" })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 12 })
    expect(error.message).toContain("rate limited")
  })

  it("maps 402 NO_MORE_CREDITS and a budget tag on any status to the plan limit, not retryable", async () => {
    server.handle = Server.reply(402, { requestId: "r", error: "You have run out of credits", tag: "NO_MORE_CREDITS" })
    const credits = Server.failure(await search(["a"]))
    expect(credits).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(credits.message).toContain("NO_MORE_CREDITS")
    expect(credits.message).toContain("run out of credits")
    server.handle = Server.reply(403, { error: "API_KEY_BUDGET_EXCEEDED", message: "budget reached" })
    const budget = Server.failure(await search(["a"]))
    expect(budget).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(budget.message).toContain("budget reached")
  })

  it("reads a 403 about the content as http_403, not as a rejected key", async () => {
    server.handle = Server.reply(403, { error: "Blocked by robots.txt", tag: "ROBOTS_FILTER_FAILED" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_403" })
    server.handle = Server.reply(403, { error: "Forbidden" })
    expect(Server.failure(await search(["a"]))).toMatchObject({
      _tag: "Unavailable",
      reason: "credentials_rejected"
    })
  })

  it("reads an error inside a 200 body as a refusal", async () => {
    server.handle = Server.json({ requestId: "r", error: "NO_MORE_CREDITS", message: "out of credits" })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(error.message).toContain("out of credits")
  })

  it("maps 5xx to http_5xx (HTML bodies not shown) and an undecodable 200 to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(502, "<html><body>Bad gateway</body></html>")
    const gateway = Server.failure(await search(["a"]))
    expect(gateway).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(gateway.message).not.toContain("<html>")
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ results: [{ url: 7 }] })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("EXA_API_KEY")
    expect(server.requests).toHaveLength(0)
  })

  it("never echoes the key when Exa quotes it back in an error", async () => {
    server.handle = (request, res) =>
      Server.reply(401, { error: `Invalid API key: ${String(request.headers["x-api-key"])}` })(request, res)
    const outcome = await search(["a"])
    expect(Server.failure(outcome).message).toContain("[redacted]")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})

describe("Exa fetchUrls", () => {
  it("sends one URL to /contents and decodes the recorded answer", async () => {
    server.handle = Server.json(contentsFixture.response.body)
    server.requests.length = 0
    const url = "https://example.com/page"
    const response = Server.success(await fetch([url]))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/contents")
    expect(sent.headers["x-api-key"]).toBe(Server.canary)
    expect(sent.body).toEqual({ urls: [url], text: true })
    expect(response.results).toEqual([{ title: "Fetched Page", content: "Full page text", url, sourceInput: url }])
  })

  it("turns the fixture's not_found status (HTTP 200) into RequestFailed/http_404 with the tag", async () => {
    server.handle = Server.json({ ...contentsFixture.response.body, results: [] })
    const url = "https://example.com/missing"
    const outcome = await fetch([url])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_404", input: url, retryable: false })
    expect(error.message).toContain("not_found")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("reads the documented status tags: CRAWL_NOT_FOUND, timeouts, and others", async () => {
    const url = "https://example.com/x"
    const cases: ReadonlyArray<readonly [Server.FixtureJson, Server.FixtureJson]> = [
      [contentsFixture.documented_status_shape.error, { reason: "http_404" }],
      [{ tag: "CRAWL_TIMEOUT" }, { reason: "timeout", retryable: true }],
      [{ tag: "CRAWL_LIVECRAWL_TIMEOUT", httpStatusCode: "408" }, { reason: "timeout" }],
      [{ tag: "SOURCE_NOT_AVAILABLE", httpStatusCode: 403 }, { reason: "http_403" }],
      [{ tag: "CRAWL_UNKNOWN_ERROR" }, { reason: "http_status", retryable: false }]
    ]
    for (const [statusError, expected] of cases) {
      server.handle = Server.json({
        requestId: "r",
        results: [],
        statuses: [{ id: url, status: "error", error: statusError }]
      })
      const error = Server.failure(await fetch([url]))
      expect(error).toMatchObject({ _tag: "RequestFailed", input: url, ...expected })
      expect(error.message).toContain(String(statusError.tag))
    }
  })

  it("answers ResponseInvalid/empty_content when Exa returns no text and no status", async () => {
    server.handle = Server.json({ requestId: "r", results: [{ url: "https://example.com/e", text: "  " }] })
    expect(Server.failure(await fetch(["https://example.com/e"]))).toMatchObject({
      _tag: "ResponseInvalid",
      reason: "empty_content"
    })
  })

  it("never sends an allowlisted private URL to Exa", async () => {
    server.requests.length = 0
    const outcome = await fetch([`${server.url}/internal`])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "RequestFailed", reason: "ssrf_rejected" })
    expect(server.requests).toHaveLength(0)
  })

  it("maps 401 on /contents to credentials_rejected without the key", async () => {
    server.handle = Server.reply(401, { error: "Invalid API key" })
    const outcome = await fetch(["https://example.com/page"])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})
