import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Brave from "../src/Brave.js"
import * as BraveWire from "../src/internal/braveWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("brave.json")

// The real 429 body (reference: an openclaw test capture): the per-second limit of the Free plan.
const rateLimited = {
  type: "ErrorResponse",
  error: {
    id: "c8e7a2c4-5b1e-4a57-9f0e-3d2f1c0b9a88",
    status: 429,
    detail: "Request rate limit exceeded for plan",
    meta: { plan: "Free", rate_limit: 1, rate_current: 1, quota_limit: 2000, quota_current: 210 },
    code: "RATE_LIMITED"
  },
  time: 1771039449
}

const withError = (patch: Json) => ({ ...rateLimited, error: { ...rateLimited.error, ...patch } })

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "brave", Brave.layer, keywords, { capabilities: ["searchKeywords"], ...options })

describe("Brave searchKeywords", () => {
  it("sends the documented request and decodes the recorded answer with <strong> stripped", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["python"], { maxResults: 5 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("GET")
    expect(sent.path).toBe("/res/v1/web/search")
    expect(Object.fromEntries(sent.query)).toEqual({ q: "python", count: "5" })
    expect(sent.headers["x-subscription-token"]).toBe(Server.canary)
    expect(sent.headers.accept).toBe("application/json")
    expect(response.results).toEqual([
      {
        title: "Welcome to Python.org",
        content: "The official home of the Python Programming Language",
        url: "https://www.python.org/",
        sourceInput: "python",
        publishedAt: "2023-09-09T15:55:05",
        siteName: "Python",
        language: "en"
      },
      {
        title: "Python Tutorial",
        content:
          "W3Schools offers free online tutorials, references and exercises in all the major languages of the web. Covering popular subjects like HTML, CSS, JavaScript, Python, SQL, Java, and many, many more.",
        url: "https://www.w3schools.com/python/",
        sourceInput: "python",
        publishedAt: "2017-12-07T00:00:00",
        siteName: "W3Schools",
        language: "en"
      },
      {
        title: "Python Developer",
        content: "Python Developer",
        url: "https://twitter.com/Python_Dv/status/1786763460992544791",
        sourceInput: "python",
        publishedAt: "2024-05-04T14:30:03",
        siteName: "X",
        language: "en"
      }
    ])
    // News results are not web results.
    expect(response.results.some((r) => r.url.includes("techcrunch"))).toBe(false)
    expect(response.query).toBe("python")
  })

  it("clamps count to Brave's 20", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].query.get("count")).toBe("20")
  })

  it.prop(
    "count is always within 1..20 and equals maxResults inside that range",
    [FastCheck.integer({ min: -5, max: 200 })],
    ([n]) => {
      const count = Number(BraveWire.searchParams("q", n).count)
      expect(count).toBeGreaterThanOrEqual(1)
      expect(count).toBeLessThanOrEqual(20)
      if (n >= 1 && n <= 20) expect(count).toBe(n)
    }
  )

  it("accepts results without a description (extra snippets stand in), null titles and no web block", async () => {
    server.handle = Server.json({
      type: "search",
      web: {
        type: "search",
        results: [
          { url: "https://example.com/only-url" },
          { title: null, url: "https://example.com/b", extra_snippets: ["first &amp; best", "<b>second</b>"] },
          { title: "relative", url: "/not-absolute", description: "dropped" }
        ]
      }
    })
    const response = Server.success(await search(["a"]))
    expect(response.results).toEqual([
      { title: "https://example.com/only-url", content: "", url: "https://example.com/only-url", sourceInput: "a" },
      {
        title: "https://example.com/b",
        content: "first & best … second",
        url: "https://example.com/b",
        sourceInput: "a"
      }
    ])
    server.handle = Server.json({ type: "search", query: { original: "zxqv" } })
    expect(Server.success(await search(["zxqv"])).results).toEqual([])
  })

  it.prop(
    "X-RateLimit-Reset gives the first window's seconds, whatever follows it",
    [FastCheck.integer({ min: 0, max: 86_400 }), FastCheck.array(FastCheck.nat(), { maxLength: 3 })],
    ([first, rest]) => {
      expect(BraveWire.resetSeconds({ "x-ratelimit-reset": [first, ...rest].join(", ") })).toBe(first)
    }
  )

  it("maps 429 RATE_LIMITED to http_429 with retryAfter from X-RateLimit-Reset (Brave sends no Retry-After)", async () => {
    server.handle = Server.reply(429, rateLimited, {
      "x-ratelimit-limit": "1, 2000",
      "x-ratelimit-remaining": "0, 1790",
      "x-ratelimit-reset": "1, 1419704"
    })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 1 })
    expect(error.message).toContain("Request rate limit exceeded for plan")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    server.handle = Server.reply(429, rateLimited, { "retry-after": "9", "x-ratelimit-reset": "1, 5" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_429", retryAfter: 9 })
  })

  it("maps an exhausted monthly quota to rate_limited, not retryable", async () => {
    const bodies = [
      withError({ code: "QUOTA_LIMITED", detail: "Request quota exceeded for plan" }),
      withError({ meta: { plan: "Free", rate_limit: 1, rate_current: 0, quota_limit: 2000, quota_current: 2000 } })
    ]
    for (const body of bodies) {
      server.handle = Server.reply(429, body, { "x-ratelimit-reset": "1, 1419704" })
      const error = Server.failure(await search(["a"]))
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
      expect(error.message).toContain("usage limit or balance is exhausted")
      expect(error.message).toContain(body.error.detail)
    }
    // A paid plan reports quota_limit 0: that is no quota, so this is the per-second limit.
    server.handle = Server.reply(
      429,
      withError({ meta: { plan: "Search", rate_limit: 50, rate_current: 50, quota_limit: 0, quota_current: 9 } }),
      { "x-ratelimit-reset": "1" }
    )
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_429", retryAfter: 1 })
  })

  it("maps 401 and a 422 about the subscription token to credentials_rejected by key position", async () => {
    const invalidToken = withError({
      status: 422,
      code: "SUBSCRIPTION_TOKEN_INVALID",
      detail: "The provided subscription token is invalid.",
      meta: null
    })
    const keys = ["BSA-first-key-0001", "BSA-second-key-0002"]
    for (const [status, body] of [
      [422, invalidToken],
      [401, withError({ status: 401, code: "UNAUTHORIZED", detail: "Unauthorized" })]
    ] as const) {
      server.handle = Server.reply(status, body)
      const outcome = await search(["a"], { keys })
      const error = Server.failure(outcome)
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "brave" })
      expect(error.message).toContain(body.error.detail)
      expect(error.message).toMatch(/API key #[12] of 2/)
      expect(Server.visible(outcome)).not.toContain("BSA-first-key-0001")
      expect(Server.visible(outcome)).not.toContain("BSA-second-key-0002")
    }
  })

  it("keeps a validation 422 as http_status with Brave's detail", async () => {
    server.handle = Server.reply(
      422,
      withError({ status: 422, code: "VALIDATION", detail: "Unable to validate request parameter(s)", meta: null })
    )
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(error.message).toContain("Unable to validate request parameter(s)")
  })

  it("reads an ErrorResponse inside a 200 body as the error it is", async () => {
    server.handle = Server.json(withError({ code: "QUOTA_LIMITED", detail: "Request quota exceeded for plan" }))
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited" })
  })

  it("maps 5xx to http_5xx, a non-JSON 200 and a wrong shape to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(502, "<html>bad gateway</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ web: { results: [{ title: "no url" }] } })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("BRAVE_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})
