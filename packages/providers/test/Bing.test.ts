import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Bing from "../src/Bing.js"
import * as BingWire from "../src/internal/bingWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("bing.json")
// Bing's documented error shape (not verified against a capture: see the module doc).
const bingError = (code: string, message: string, subCode?: string) => ({
  _type: "ErrorResponse",
  errors: [{ code, ...(subCode === undefined ? {} : { subCode }), message }]
})

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "bing", Bing.layer, keywords, { capabilities: ["searchKeywords"], ...options })

describe("Bing searchKeywords", () => {
  it("sends q and count with Ocp-Apim-Subscription-Key and decodes the recorded answer", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["Top 10 international results"], { maxResults: 10 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("GET")
    expect(sent.path).toBe("/v7.0/search")
    expect(Object.fromEntries(sent.query)).toEqual({ q: "Top 10 international results", count: "10" })
    expect(sent.headers["ocp-apim-subscription-key"]).toBe(Server.canary)
    // Bing's unzoned 7-digit timestamps come back as ISO 8601 local times with milliseconds.
    const published = ["2024-10-27T00:00:00.000", "2024-10-27T00:00:00.000", "2024-10-28T00:00:00.000"]
    expect(response.results).toEqual(
      fixture.response.body.webPages.value.map((page: Json, i: number) => ({
        title: page.name,
        content: page.snippet,
        url: page.url,
        sourceInput: "Top 10 international results",
        publishedAt: published[i],
        language: "en"
      }))
    )
  })

  it("passes the request's maxResults (at most 50) as count", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].query.get("count")).toBe("50")
  })

  it.prop(
    "count is always within 1..50 and equals maxResults inside that range",
    [FastCheck.integer({ min: -5, max: 500 })],
    ([n]) => {
      const count = Number(BingWire.searchParams("q", n).count)
      expect(count).toBeGreaterThanOrEqual(1)
      expect(count).toBeLessThanOrEqual(50)
      if (n >= 1 && n <= 50) expect(count).toBe(n)
    }
  )

  it("reads a missing webPages block as zero results and accepts nulls and a string match count", async () => {
    server.handle = Server.json({ _type: "SearchResponse", queryContext: { originalQuery: "zxqv" } })
    expect(Server.success(await search(["zxqv"])).results).toEqual([])
    server.handle = Server.json({
      _type: "SearchResponse",
      webPages: { totalEstimatedMatches: "1", value: [{ name: null, url: "https://example.com/", snippet: null }] }
    })
    expect(Server.success(await search(["a"])).results).toEqual([
      { title: "https://example.com/", content: "", url: "https://example.com/", sourceInput: "a" }
    ])
  })

  it("maps 401 (Bing's and the Azure gateway's bodies) to credentials_rejected by key position", async () => {
    const keys = ["bing-first-key-0001", "bing-second-key-0002"]
    const bodies = [
      bingError("InvalidAuthorization", "Authorization is missing or invalid.", "AuthorizationMissing"),
      {
        error: {
          code: "401",
          message:
            "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key."
        }
      }
    ]
    for (const body of bodies) {
      server.handle = Server.reply(401, body)
      const outcome = await search(["a"], { keys })
      const error = Server.failure(outcome)
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "bing" })
      expect(error.message).toMatch(/Authorization is missing|invalid subscription key/)
      expect(error.message).toMatch(/API key #[12] of 2/)
      expect(Server.visible(outcome)).not.toContain("bing-first-key-0001")
      expect(Server.visible(outcome)).not.toContain("bing-second-key-0002")
    }
  })

  it("maps 403 over quota to rate_limited (not retryable) and other 403s to credentials_rejected", async () => {
    server.handle = Server.reply(403, {
      error: { code: "403", message: "Out of call volume quota. Quota will be replenished in 2.12:34:56." }
    })
    const quota = Server.failure(await search(["a"]))
    expect(quota).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(quota.message).toContain("Out of call volume quota")
    server.handle = Server.reply(
      403,
      bingError("InsufficientAuthorization", "The subscription is disabled.", "AuthorizationDisabled")
    )
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
  })

  it("maps 429 with Retry-After to http_429 and keeps Bing's message", async () => {
    server.handle = Server.reply(429, bingError("RateLimitExceeded", "Rate limit is exceeded."), {
      "retry-after": "2"
    })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 2 })
    expect(error.message).toContain("Rate limit is exceeded.")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("keeps a 400 InvalidRequest message, maps 5xx to http_5xx and reads an ErrorResponse in a 200 body", async () => {
    server.handle = Server.reply(
      400,
      bingError("InvalidRequest", "Parameter has invalid value.", "ParameterInvalidValue")
    )
    const bad = Server.failure(await search(["a"]))
    expect(bad).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(bad.message).toContain("Parameter has invalid value.")
    server.handle = Server.reply(500, bingError("ServerError", "Unexpected error.", "UnexpectedError"))
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
    server.handle = Server.json(bingError("InvalidRequest", "Query is empty.", "ParameterMissing"))
    const inBody = Server.failure(await search(["a"]))
    expect(inBody).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(inBody.message).toContain("Query is empty.")
  })

  it("maps a non-JSON 200 and a wrong shape to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(200, "<html>retired</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ webPages: { value: [{ name: "no url" }] } })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const outcome = await search(["a"], { keys: [] })
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("BING_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})
