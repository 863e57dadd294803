import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Querit from "../src/Querit.js"
import * as QueritWire from "../src/internal/queritWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const searchFixture = Server.fixture<Json>("querit.json")
const contentsFixture = Server.fixture<Json>("querit_contents.json")
const recorded = searchFixture.response.body

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "querit", Querit.layer, keywords, options)

const fetch = (urls: ReadonlyArray<string>, options: Parameters<typeof Server.fetch>[4] = {}) =>
  Server.fetch(server, "querit", Querit.layer, urls, options)

const withResults = (result: ReadonlyArray<Json> | null) => ({ ...recorded, results: { result } })

describe("Querit searchKeywords", () => {
  it("sends the documented request and decodes the nested results.result", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    const response = Server.success(await search(["chat"], { maxResults: 5 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/v1/search")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({ query: "chat", count: 5 })
    const expected = recorded.results.result[0]
    expect(response.results).toEqual([
      {
        title: expected.title,
        content: expected.snippet,
        url: expected.url,
        sourceInput: "chat",
        // `page_time` (Unix seconds), not the relative `page_age`.
        publishedAt: "2026-01-01T00:00:00.000Z",
        siteName: expected.site_name
      }
    ])
    expect(response.query).toBe("chat")
    expect(response.providerId).toBe("querit")
  })

  it("accepts the variations: error_code as a string, 0 or absent, null results, null titles, huge search ids", async () => {
    server.handle = Server.json({ ...recorded, error_code: "200", took: 0.31 })
    expect(Server.success(await search(["a"])).results).toHaveLength(1)
    server.handle = Server.json({ results: recorded.results, search_id: 12345678901234567890, error_code: 0 })
    expect(Server.success(await search(["a"])).results).toHaveLength(1)
    server.handle = Server.json({ ...recorded, results: null })
    expect(Server.success(await search(["a"])).results).toEqual([])
    server.handle = Server.json(withResults(null))
    expect(Server.success(await search(["a"])).results).toEqual([])
    server.handle = Server.json(
      withResults([
        { url: "https://example.com/x", title: null, snippet: null, page_age: null, page_images: null },
        { url: "not a url", title: "dropped" }
      ])
    )
    expect(Server.success(await search(["a"])).results).toEqual([
      { title: "https://example.com/x", content: "", url: "https://example.com/x", sourceInput: "a" }
    ])
  })

  it("clamps count to 20", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.count).toBe(20)
  })

  it("reads error_code inside HTTP 200 bodies like the status it mimics", async () => {
    server.handle = Server.json({ error_code: "429", error_msg: "quota exceeded" })
    const limited = Server.failure(await search(["a"]))
    expect(limited).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: true })
    expect(limited.message).toContain("quota exceeded")
    expect(limited.message).toContain("code 429")
    server.handle = Server.json({ error_code: 401, error_msg: "invalid api key" })
    const keys = ["qr-first-key-0001", "qr-second-key-0002"]
    const rejected = await search(["a"], { keys })
    expect(Server.failure(rejected)).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(Server.failure(rejected).message).toContain("API key #1 of 2")
    for (const key of keys) expect(Server.visible(rejected)).not.toContain(key)
    server.handle = Server.json({ error_code: 40001, error_msg: "invalid filters" })
    const refused = Server.failure(await search(["a"]))
    expect(refused).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(refused.message).toContain("invalid filters")
  })

  it("maps 401 to Unavailable/credentials_rejected with Querit's error_msg, key redacted", async () => {
    server.handle = Server.reply(401, { error_code: "401", error_msg: `invalid key ${Server.canary} rejected` })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "querit" })
    expect(error.message).toContain("rejected")
    expect(error.message).toContain("QUERIT_API_KEY")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("maps 429 with Retry-After to RequestFailed/http_429 carrying retryAfter", async () => {
    server.handle = Server.reply(429, "Too Many Requests", { "retry-after": "9" })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 9 })
    expect(error.message).toContain("Too Many Requests")
  })

  it("maps 5xx to http_5xx, an HTML 200 and a wrong shape to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(500, "<html>oops</html>")
    const failed = Server.failure(await search(["a"]))
    expect(failed).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(failed.message).not.toContain("<html>")
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json(withResults([recorded.results.result[0], { url: "https://example.com", title: 5 }]))
    const shape = Server.failure(await search(["a"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("[1]")
    expect(shape.message).toContain("title")
    server.handle = Server.json({ results: [] })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("QUERIT_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})

describe("Querit fetchUrls", () => {
  const page = "https://example.com/a"

  it("sends one URL to /v1/contents and decodes the page with its title", async () => {
    server.handle = Server.json(contentsFixture.response.body)
    server.requests.length = 0
    const outcome = await fetch([page])
    const response = Server.success(outcome)
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/v1/contents")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    // The default fetch timeout is 15 s: Querit is given 13 to report a slow page as failed.
    expect(sent.body).toEqual({ urls: [page], format: "markdown", crawlTimeout: 13, extrasMeta: true })
    expect(response.results).toEqual([
      {
        title: "Title",
        content: "# Example\n\nhello from the page\n\nsecond paragraph",
        url: page,
        sourceInput: page,
        publishedAt: "2026-01-01",
        siteName: "Example"
      }
    ])
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("turns a failed crawl status (HTTP 200) into a typed per-URL failure", async () => {
    server.handle = Server.json(contentsFixture.failed_example.body)
    const error = Server.failure(await fetch([page]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false, input: page })
    expect(error.message).toContain("crawl status: failed")
  })

  it("answers ResponseInvalid/empty_content when Querit returns no text for the page", async () => {
    server.handle = Server.json({ results: [], statuses: [] })
    expect(Server.failure(await fetch([page]))).toMatchObject({ _tag: "ResponseInvalid", reason: "empty_content" })
    server.handle = Server.json({
      results: [{ id: "1", url: page, content: "  \n " }],
      statuses: [{ id: "1", status: "success" }]
    })
    expect(Server.failure(await fetch([page]))).toMatchObject({ _tag: "ResponseInvalid", reason: "empty_content" })
  })

  it("falls back to the URL as title and to the requested URL when Querit's is unusable", async () => {
    server.handle = Server.json({ results: [{ url: null, content: "text", extrasMeta: null }], statuses: null })
    expect(Server.success(await fetch([page])).results).toEqual([
      { title: page, content: "text", url: page, sourceInput: page }
    ])
  })

  it("reads error_code on the contents endpoint, and 401", async () => {
    server.handle = Server.json({ error_code: 429, error_msg: "quota exceeded" })
    expect(Server.failure(await fetch([page]))).toMatchObject({ reason: "rate_limited", retryable: true })
    server.handle = Server.reply(401, { error_code: "401", error_msg: "invalid key" })
    const outcome = await fetch([page])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("never sends an allowlisted private URL to Querit", async () => {
    server.requests.length = 0
    const outcome = await fetch([`${server.url}/internal`])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "RequestFailed", reason: "ssrf_rejected" })
    expect(server.requests).toHaveLength(0)
  })
})

describe("Querit rules", () => {
  it.prop(
    "count is always within 1–20 and otherwise what was asked",
    [FastCheck.integer({ min: -10, max: 500 })],
    ([wanted]) => {
      expect(QueritWire.searchBody("q", wanted).count).toBe(Math.min(20, Math.max(1, wanted)))
    }
  )

  it.prop(
    "the crawl timeout is two seconds under websearch's, within 1–60",
    [FastCheck.integer({ min: 0, max: 600_000 })],
    ([millis]) => {
      const seconds = QueritWire.crawlSecondsFor(millis)
      expect(seconds).toBeGreaterThanOrEqual(1)
      expect(seconds).toBeLessThanOrEqual(60)
      if (millis >= 3_000 && millis < 63_000) expect(seconds).toBe(Math.floor(millis / 1000) - 2)
    }
  )

  it.prop(
    "error_code 200, 0 or none is success; any other code is a refusal",
    [
      FastCheck.option(FastCheck.oneof(FastCheck.integer({ min: -1, max: 100_000 }), FastCheck.integer().map(String)), {
        nil: undefined
      })
    ],
    ([code]) => {
      const refusal = QueritWire.refusalOf(code === undefined ? {} : { error_code: code, error_msg: "m" }, {})
      const numeric = code === undefined ? undefined : Number(code)
      if (numeric === undefined || numeric === 200 || numeric === 0) expect(refusal).toBeUndefined()
      else expect(refusal?.status).toBe(String(numeric))
    }
  )
})
