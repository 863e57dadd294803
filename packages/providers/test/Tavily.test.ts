import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Tavily from "../src/Tavily.js"
import * as Server from "./support/providerServer.js"

const searchFixture = Server.fixture<Server.FixtureJson>("tavily.json")
const extractFixture = Server.fixture<Server.FixtureJson>("tavily_extract.json")
const errorBody = (status: number) =>
  searchFixture.error_examples.find((e: Server.FixtureJson) => e.status === status).body

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "tavily", Tavily.layer, keywords, options)

describe("Tavily searchKeywords", () => {
  it("sends the documented request and decodes the recorded answer", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["who is Leo Messi?"], { maxResults: 3 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/search")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toMatchObject({ query: "who is Leo Messi?", max_results: 3, search_depth: "basic" })
    const expected = searchFixture.response.body.results[0]
    expect(response.results[0]).toEqual({
      title: expected.title,
      content: expected.content,
      url: expected.url,
      sourceInput: "who is Leo Messi?"
    })
    // The caller's query, never Tavily's rewritten one ("Who is Leo Messi?").
    expect(response.query).toBe("who is Leo Messi?")
    expect(response.providerId).toBe("tavily")
  })

  it("accepts response_time as a string and as a number, and a missing results list", async () => {
    server.handle = Server.json({ ...searchFixture.response.body, response_time: "1.67" })
    expect(Server.success(await search(["a"])).results.length).toBeGreaterThan(0)
    server.handle = Server.json(searchFixture.sdk_test_fixture)
    const sdk = Server.success(await search(["What is Tavily?"]))
    expect(sdk.results).toEqual([
      {
        title: "Tavily",
        url: "https://tavily.com/",
        content: searchFixture.sdk_test_fixture.results[0].content,
        sourceInput: "What is Tavily?"
      }
    ])
    server.handle = Server.json({ query: "x", response_time: 0.2 })
    expect(Server.success(await search(["x"])).results).toEqual([])
  })

  it("clamps max_results to Tavily's 20", async () => {
    server.handle = Server.json(searchFixture.sdk_test_fixture)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.max_results).toBe(20)
  })

  it("maps 401 to Unavailable/credentials_rejected with Tavily's message and no key", async () => {
    server.handle = Server.reply(401, errorBody(401))
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "tavily" })
    expect(error.message).toContain("Unauthorized: missing or invalid API key.")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("names a rejected key by its position among several, never by value", async () => {
    server.handle = Server.reply(401, errorBody(401))
    const keys = ["tvly-first-key-0001", "tvly-second-key-0002"]
    const first = await search(["a"], { keys })
    expect(Server.failure(first).message).toContain("API key #1 of 2")
    expect(Server.visible(first)).not.toContain("tvly-first-key-0001")
  })

  it("maps 429 with Retry-After to RequestFailed/http_429 carrying retryAfter", async () => {
    server.handle = Server.reply(429, errorBody(429), { "retry-after": "7" })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 7 })
    expect(error.message).toContain("excessive requests")
  })

  it("maps the plan limits 432 and 433 to RequestFailed/rate_limited, not retryable", async () => {
    for (const status of [432, 433]) {
      server.handle = Server.reply(status, errorBody(status))
      const error = Server.failure(await search(["a"]))
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
      expect(error.message).toContain(errorBody(status).detail.error.slice(0, 40))
    }
  })

  it("keeps FastAPI's validation list as the message of a 400", async () => {
    server.handle = Server.reply(400, errorBody(400))
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(error.message).toContain("Input should be a valid string")
  })

  it("maps 5xx to http_5xx, HTML to a bodiless message, and an undecodable 200 to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(502, "<html><body>Bad gateway</body></html>")
    const gateway = Server.failure(await search(["a"]))
    expect(gateway).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(gateway.message).not.toContain("<html>")
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ results: [{ title: 1 }] })
    const shape = Server.failure(await search(["a"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("url")
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("TAVILY_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})

describe("Tavily fetchUrls", () => {
  const fetch = (urls: ReadonlyArray<string>, options?: Parameters<typeof Server.fetch>[4]) =>
    Server.fetch(server, "tavily", Tavily.layer, urls, options)

  it("sends one URL to /extract and decodes the recorded answer", async () => {
    server.handle = Server.json(extractFixture.response.body)
    server.requests.length = 0
    const url = "https://en.wikipedia.org/wiki/Artificial_intelligence"
    const response = Server.success(await fetch([url]))
    const sent = server.requests[0]
    expect(sent.path).toBe("/extract")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.body).toMatchObject({ urls: [url], format: "markdown" })
    expect(response.results).toHaveLength(1)
    expect(response.results[0].url).toBe(url)
    expect(response.results[0].content).toContain("Artificial intelligence")
    expect(response.results[0].sourceInput).toBe(url)
  })

  it("turns a failed_results entry (HTTP 200) into a typed per-URL failure with Tavily's reason", async () => {
    server.handle = Server.json({
      results: [],
      failed_results: [{ url: "https://example.com/broken", error: "Failed to fetch url" }],
      response_time: 0.1
    })
    const error = Server.failure(await fetch(["https://example.com/broken"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", input: "https://example.com/broken" })
    expect(error.message).toContain("Failed to fetch url")
  })

  it("never sends an allowlisted private URL to Tavily", async () => {
    server.requests.length = 0
    const outcome = await fetch([`${server.url}/internal`])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "RequestFailed", reason: "ssrf_rejected" })
    expect(server.requests).toHaveLength(0)
  })
})
