import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Bocha from "../src/Bocha.js"
import * as BochaWire from "../src/internal/bochaWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("bocha.json")
const recorded = fixture.response.body
const live401 = fixture.error_examples.find((e: Json) => e.status === 401).body
const inBody429 = fixture.error_examples.find((e: Json) => e.status === 200).body

// The error bodies of Bocha's API documentation (section 七、异常码), with their HTTP statuses.
const documented = {
  balance: { code: "403", message: "You do not have enough money", log_id: "c66aac17eab1bb7e" },
  limit: { code: "429", message: "You have reached the request limit", log_id: "c66aac17eab1bb7e" },
  missingQuery: { code: "400", message: "Missing parameter query", log_id: "c66aac17eab1bb7e" },
  server: { code: "500", message: "internal failure", log_id: "c66aac17eab1bb7e" }
}

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "bocha", Bocha.layer, keywords, { capabilities: ["searchKeywords"], ...options })

describe("Bocha searchKeywords", () => {
  it("sends the documented request and decodes the recorded answer, preferring the summary", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    const response = Server.success(await search(["阿里巴巴2024年的esg报告"], { maxResults: 5 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/v1/web-search")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({ query: "阿里巴巴2024年的esg报告", count: 5, summary: true, freshness: "noLimit" })
    const [first, second] = recorded.data.webPages.value
    expect(response.results).toEqual([
      {
        title: first.name,
        content: first.summary,
        url: first.url,
        sourceInput: "阿里巴巴2024年的esg报告",
        siteName: first.siteName
      },
      {
        title: second.name,
        content: second.snippet,
        url: second.url,
        sourceInput: "阿里巴巴2024年的esg报告",
        siteName: second.siteName
      }
    ])
    // The caller's query, never Bocha's queryContext ("测试查询").
    expect(response.query).toBe("阿里巴巴2024年的esg报告")
  })

  it("accepts the code as a string, a null data or webPages, empty summaries and pages without a URL", async () => {
    server.handle = Server.json({ ...recorded, code: "200" })
    expect(Server.success(await search(["a"])).results).toHaveLength(2)
    server.handle = Server.json({ code: 200, log_id: "x", msg: null, data: null })
    expect(Server.success(await search(["a"])).results).toEqual([])
    server.handle = Server.json({ code: 200, data: { _type: "SearchResponse", webPages: null, videos: null } })
    expect(Server.success(await search(["a"])).results).toEqual([])
    server.handle = Server.json({
      code: 200,
      data: {
        webPages: {
          value: [
            { id: null, name: null, url: "https://example.com/x", snippet: "the snippet", summary: " " },
            { id: null, name: "no url", url: null, snippet: "s" }
          ]
        }
      }
    })
    expect(Server.success(await search(["a"])).results).toEqual([
      { title: "https://example.com/x", content: "the snippet", url: "https://example.com/x", sourceInput: "a" }
    ])
  })

  it("clamps count to Bocha's 50", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.count).toBe(50)
  })

  it("maps the live-captured 401 to Unavailable/credentials_rejected with Bocha's message and no key", async () => {
    server.handle = Server.reply(401, live401)
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "bocha" })
    expect(error.message).toContain("Invalid API KEY")
    expect(error.message).toContain("BOCHA_API_KEY")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("reads the fixture's business error inside an HTTP 200 body as a retryable rate limit", async () => {
    server.handle = Server.json(inBody429)
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: true })
    expect(error.message).toContain("rate limited")
    expect(error.message).toContain("code 429")
  })

  it("reads a 401 inside an HTTP 200 body as rejected credentials, naming the key by position", async () => {
    server.handle = Server.json(live401)
    const keys = ["sk-first-bocha-0001", "sk-second-bocha-0002"]
    const outcome = await search(["a"], { keys })
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(error.message).toContain("API key #1 of 2")
    for (const key of keys) expect(Server.visible(outcome)).not.toContain(key)
  })

  it("maps the documented 403 (no money) to a non-retryable plan limit, not to rejected credentials", async () => {
    server.handle = Server.reply(403, documented.balance)
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(error.message).toContain("You do not have enough money")
    server.handle = Server.json(documented.balance)
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "rate_limited", retryable: false })
  })

  it("maps 429 with Retry-After to RequestFailed/http_429 carrying retryAfter", async () => {
    server.handle = Server.reply(429, documented.limit, { "retry-after": "3" })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 3 })
    expect(error.message).toContain("You have reached the request limit")
  })

  it("maps 400 to a refusal, 5xx to http_5xx, and undecodable 200s to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.reply(400, documented.missingQuery)
    const bad = Server.failure(await search(["a"]))
    expect(bad).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(bad.message).toContain("Missing parameter query")
    server.handle = Server.reply(500, documented.server)
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_5xx", retryable: true })
    server.handle = Server.json(documented.server)
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_5xx" })
    server.handle = Server.html(502, "<html>bad gateway</html>")
    expect(Server.failure(await search(["a"])).message).not.toContain("<html>")
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ code: 200, data: { webPages: { value: [{ name: 5, url: "https://x.test" }] } } })
    const shape = Server.failure(await search(["a"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("name")
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("BOCHA_API_KEY")
    expect(server.requests).toHaveLength(0)
  })

  it("keeps a key echoed by Bocha out of every error message and log", async () => {
    server.handle = Server.json({ code: "401", message: `Invalid API KEY ${Server.canary}`, log_id: "x" })
    const outcome = await search(["a", "b"])
    Server.failure(outcome)
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})

describe("Bocha rules", () => {
  it.prop(
    "count is always within Bocha's 1–50 and otherwise what was asked",
    [FastCheck.integer({ min: -10, max: 1000 })],
    ([wanted]) => {
      expect(BochaWire.searchBody("q", wanted).count).toBe(Math.min(50, Math.max(1, wanted)))
    }
  )

  it.prop(
    "a business code other than 403 reads like the HTTP status it mimics",
    [FastCheck.integer({ min: 100, max: 599 }).filter((n) => n !== 403)],
    ([code]) => {
      const refusal = BochaWire.refusalOf(code, undefined, {}, "m")
      const expected =
        code === 401
          ? "credentials"
          : code === 429
            ? "rate_limited"
            : code === 402
              ? "quota"
              : code >= 500
                ? "server"
                : "status"
      expect(refusal.kind).toBe(expected)
      expect(refusal.status).toBe(String(code))
    }
  )
})
