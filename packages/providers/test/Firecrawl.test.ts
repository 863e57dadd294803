import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Firecrawl from "../src/Firecrawl.js"
import * as FirecrawlWire from "../src/internal/firecrawlWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const searchFixture = Server.fixture<Json>("firecrawl_search.json")
const scrapeFixture = Server.fixture<Json>("firecrawl_scrape.json")
const errorBody = (status: number) => scrapeFixture.error_examples.find((e: Json) => e.status === status).body

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "firecrawl", Firecrawl.layer, keywords, options)
const fetch = (urls: ReadonlyArray<string>, options?: Parameters<typeof Server.fetch>[4]) =>
  Server.fetch(server, "firecrawl", Firecrawl.layer, urls, options)

describe("Firecrawl searchKeywords", () => {
  it("posts { query, limit } to /v1/search with the Bearer key and decodes the v1 answer", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    const outcome = await search(["rust & go"], { maxResults: 5 })
    const response = Server.success(outcome)
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/v1/search")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({ query: "rust & go", limit: 5 })
    expect(response.results).toEqual([
      { title: "One", content: "Snippet", url: "https://example.com/one", sourceInput: "rust & go" },
      { title: "Two", content: "Second snippet", url: "https://example.com/two", sourceInput: "rust & go" }
    ])
    expect(response.query).toBe("rust & go")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("decodes the v2 answer, whose data is { web: [...] }", async () => {
    server.handle = Server.json(searchFixture.v2_variant.response)
    const response = Server.success(await search(["rust & go"]))
    expect(response.results).toEqual([
      { title: "One", content: "Snippet", url: "https://example.com/one", sourceInput: "rust & go" },
      // No description: the page's markdown is the content.
      { title: "Two", content: "ignored", url: "https://example.com/two", sourceInput: "rust & go" }
    ])
    server.handle = Server.json({ success: true, data: { news: [] } })
    expect(Server.success(await search(["a"])).results).toEqual([])
  })

  it("accepts null titles and descriptions, entities, a missing data list, and drops items without a URL", async () => {
    server.handle = Server.json({
      success: true,
      data: [
        { title: null, description: "Rust &amp; Go", url: "https://example.com/a" },
        { title: "Bad", description: null, url: "ftp://example.com/file" }
      ],
      warning: null
    })
    const outcome = await search(["a"])
    expect(Server.success(outcome).results).toEqual([
      { title: "https://example.com/a", content: "Rust & Go", url: "https://example.com/a", sourceInput: "a" }
    ])
    expect(outcome.logs.some((l) => l.text.includes("dropped 1 result"))).toBe(true)
    server.handle = Server.json({ success: true })
    expect(Server.success(await search(["a"])).results).toEqual([])
  })

  it("clamps limit to Firecrawl's 100", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.limit).toBe(50)
    expect(FirecrawlWire.searchBody("a", 500).limit).toBe(100)
  })

  it.prop(
    "limit is always within 1–100 and equals maxResults inside it",
    [FastCheck.oneof(FastCheck.integer({ min: -5, max: 200 }), FastCheck.integer())],
    ([n]) => {
      const limit = FirecrawlWire.searchBody("q", n).limit
      expect(limit).toBeGreaterThanOrEqual(1)
      expect(limit).toBeLessThanOrEqual(100)
      if (n >= 1 && n <= 100) expect(limit).toBe(n)
    }
  )

  it("turns success: false in a 200 answer into RequestFailed with Firecrawl's error and code", async () => {
    server.handle = Server.json({ success: false, code: "BAD_REQUEST", error: "Invalid query: too long" })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(error.message).toContain("Invalid query: too long")
    expect(error.message).toContain("BAD_REQUEST")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("maps 401 to Unavailable/credentials_rejected and names a rejected key by position", async () => {
    server.handle = Server.reply(401, { success: false, error: "Unauthorized: Invalid token" })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "firecrawl" })
    expect(error.message).toContain("Unauthorized: Invalid token")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    const keys = ["fc-first-key-000001", "fc-second-key-000002"]
    const first = await search(["a"], { keys })
    expect(Server.failure(first).message).toContain("API key #1 of 2")
    expect(Server.visible(first)).not.toContain("fc-first-key-000001")
  })

  it("maps the recorded 402 to a plan limit and 429 with Retry-After to http_429", async () => {
    server.handle = Server.reply(402, errorBody(402))
    const payment = await search(["a"])
    expect(Server.failure(payment)).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(Server.failure(payment).message).toContain("Payment required to access this resource.")
    expect(Server.visible(payment)).not.toContain(Server.canary)
    server.handle = Server.reply(429, errorBody(429), { "retry-after": "30" })
    const limited = await search(["a"])
    expect(Server.failure(limited)).toMatchObject({
      _tag: "RequestFailed",
      reason: "http_429",
      retryable: true,
      retryAfter: 30
    })
    expect(Server.failure(limited).message).toContain("Request rate limit exceeded")
    expect(Server.visible(limited)).not.toContain(Server.canary)
  })

  it("maps the recorded 500 to http_5xx, and an undecodable 200 to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.reply(500, { success: false, code: "UNKNOWN_ERROR", error: "An unexpected error occurred" })
    const failed = Server.failure(await search(["a"]))
    expect(failed).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(failed.message).toContain("An unexpected error occurred")
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ success: true, data: [{ title: "no url" }] })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("FIRECRAWL_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})

describe("Firecrawl fetchUrls (scrape)", () => {
  it("posts { url, formats: [markdown], onlyMainContent } to /v1/scrape and decodes the recorded answer", async () => {
    server.handle = Server.json(scrapeFixture.response.body)
    server.requests.length = 0
    const outcome = await fetch(["https://firecrawl.dev"])
    const response = Server.success(outcome)
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/v1/scrape")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.body).toEqual({ url: "https://firecrawl.dev/", formats: ["markdown"], onlyMainContent: true })
    const { markdown, metadata } = scrapeFixture.response.body.data
    expect(response.results).toEqual([
      { title: metadata.title, content: markdown, url: "https://firecrawl.dev/", sourceInput: "https://firecrawl.dev/" }
    ])
    expect(JSON.stringify(response)).not.toContain("ogImage")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("reports the final URL and reads a title sent as a list", async () => {
    server.handle = Server.json({
      success: true,
      data: {
        markdown: "# Moved",
        metadata: {
          title: ["", "Moved page"],
          sourceURL: "https://example.com/old",
          url: "https://example.com/new",
          statusCode: "200"
        }
      }
    })
    const response = Server.success(await fetch(["https://example.com/old"]))
    expect(response.results[0]).toMatchObject({ title: "Moved page", url: "https://example.com/new" })
  })

  it("fails a page that answered Firecrawl with 4xx/5xx, naming its status", async () => {
    server.handle = Server.json({
      success: true,
      data: {
        markdown: "# 404 Not Found",
        metadata: { title: "Not Found", sourceURL: "https://example.com/gone", statusCode: 404, error: "Not Found" }
      }
    })
    const gone = Server.failure(await fetch(["https://example.com/gone"]))
    expect(gone).toMatchObject({ _tag: "RequestFailed", reason: "http_404", input: "https://example.com/gone" })
    expect(gone.message).toContain("the page answered HTTP 404 (Not Found)")
    server.handle = Server.json({
      success: true,
      data: { markdown: "oops", metadata: { sourceURL: "https://example.com/x", statusCode: 502 } }
    })
    const broken = Server.failure(await fetch(["https://example.com/x"]))
    expect(broken).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(broken.message).toContain("HTTP 502")
  })

  it("maps every recorded error body of the scrape endpoint", async () => {
    const expected: ReadonlyArray<readonly [number, Json]> = [
      [401, { _tag: "Unavailable", reason: "credentials_rejected" }],
      [402, { _tag: "RequestFailed", reason: "rate_limited", retryable: false }],
      [429, { _tag: "RequestFailed", reason: "http_429", retryable: true }],
      [500, { _tag: "RequestFailed", reason: "http_5xx", retryable: true }]
    ]
    for (const [status, shape] of expected) {
      server.handle = Server.reply(status, errorBody(status))
      const outcome = await fetch(["https://example.com/"])
      const error = Server.failure(outcome)
      expect(error).toMatchObject(shape)
      expect(error.message).toContain(errorBody(status).error)
      expect(Server.visible(outcome)).not.toContain(Server.canary)
    }
  })

  it("turns success: false in a 200 scrape into RequestFailed, and empty markdown into empty_content", async () => {
    server.handle = Server.json({ success: false, error: "Failed to scrape URL. All scraping engines failed." })
    const error = Server.failure(await fetch(["https://example.com/"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(error.message).toContain("All scraping engines failed")
    server.handle = Server.json({ success: true, data: { markdown: "", metadata: { statusCode: 200 } } })
    expect(Server.failure(await fetch(["https://example.com/"]))).toMatchObject({
      _tag: "ResponseInvalid",
      reason: "empty_content"
    })
    server.handle = Server.json({ success: true, data: null })
    expect(Server.failure(await fetch(["https://example.com/"]))).toMatchObject({
      _tag: "ResponseInvalid",
      reason: "decode_failed"
    })
  })

  it("never sends an allowlisted private URL to Firecrawl", async () => {
    server.requests.length = 0
    const outcome = await fetch([`${server.url}/internal`])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "RequestFailed", reason: "ssrf_rejected" })
    expect(server.requests).toHaveLength(0)
  })
})
