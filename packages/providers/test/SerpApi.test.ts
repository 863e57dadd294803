import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as SerpApi from "../src/SerpApi.js"
import * as SerpApiWire from "../src/internal/serpApiWire.js"
import * as Server from "./support/providerServer.js"
import * as Traced from "./support/tracedSearch.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("serpapi.json")
const example = (status: number) => fixture.error_examples.find((e: Json) => e.status === status)

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "serpapi", SerpApi.layer, keywords, { capabilities: ["searchKeywords"], ...options })

describe("SerpApi searchKeywords", () => {
  it("sends engine, q, api_key and num in the query and decodes the recorded answer", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["Coffee"], { maxResults: 7 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("GET")
    expect(sent.path).toBe("/search.json")
    expect(Object.fromEntries(sent.query)).toEqual({ engine: "google", q: "Coffee", api_key: Server.canary, num: "7" })
    expect(response.results).toEqual(
      fixture.response.body.organic_results.map((r: Json) => ({
        title: r.title,
        content: r.snippet,
        url: r.link,
        sourceInput: "Coffee"
      }))
    )
    expect(response.query).toBe("Coffee")
    expect(response.providerId).toBe("serpapi")
  })

  it("clamps num to 100 (the request's maxResults is at most 50, so it passes through)", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].query.get("num")).toBe("50")
  })

  it.prop(
    "num is always within 1..100 and equals maxResults inside that range",
    [FastCheck.integer({ min: -5, max: 500 })],
    ([n]) => {
      const num = Number(SerpApiWire.searchParams("q", n, "k").num)
      expect(num).toBeGreaterThanOrEqual(1)
      expect(num).toBeLessThanOrEqual(100)
      if (n >= 1 && n <= 100) expect(num).toBe(n)
    }
  )

  it("reads the 200 'no results' error as zero results, and position as a string", async () => {
    server.handle = Server.json(example(200).body)
    expect(Server.success(await search(["zxqv"])).results).toEqual([])
    server.handle = Server.json({
      search_metadata: { status: "Success" },
      organic_results: [{ position: "1", title: null, link: "https://example.com/", snippet: null }]
    })
    expect(Server.success(await search(["a"])).results).toEqual([
      { title: "https://example.com/", content: "", url: "https://example.com/", sourceInput: "a" }
    ])
    server.handle = Server.json({ search_metadata: { status: "Success" } })
    expect(Server.success(await search(["a"])).results).toEqual([])
  })

  it("turns any other error in a 200 body into a typed error with SerpApi's message", async () => {
    server.handle = Server.json({ search_metadata: { status: "Error" }, error: "Unsupported `xx` location." })
    const status = Server.failure(await search(["a"]))
    expect(status).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(status.message).toContain("Unsupported `xx` location.")
    server.handle = Server.json({ search_metadata: { status: "Error" } })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    server.handle = Server.json({ error: "Your account has run out of searches." })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited" })
    server.handle = Server.json(example(401).body)
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
  })

  it("maps the fixture's 401 to Unavailable/credentials_rejected, naming the key by position", async () => {
    server.handle = Server.reply(401, example(401).body)
    const keys = ["serp-first-key-0001", "serp-second-key-0002"]
    const outcome = await search(["a"], { keys })
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "serpapi" })
    expect(error.message).toContain("Invalid API key")
    expect(error.message).toContain("API key #1 of 2")
    expect(Server.visible(outcome)).not.toContain("serp-first-key-0001")
    expect(Server.visible(outcome)).not.toContain("serp-second-key-0002")
  })

  it("maps 429 'run out of searches' to rate_limited (not retryable) and a throughput 429 to http_429", async () => {
    server.handle = Server.reply(429, example(429).body)
    const quota = Server.failure(await search(["a"]))
    expect(quota).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(quota.message).toContain("run out of searches")
    server.handle = Server.reply(
      429,
      { error: "Your account exceeded the hourly throughput limit. Please try again later." },
      { "retry-after": "30" }
    )
    const throughput = Server.failure(await search(["a"]))
    expect(throughput).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 30 })
    expect(throughput.message).toContain("hourly throughput")
  })

  it("keeps the fixture's 400 message, maps 5xx to http_5xx and a non-JSON 200 to decode_failed", async () => {
    server.handle = Server.reply(400, example(400).body)
    const bad = Server.failure(await search(["a"]))
    expect(bad).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(bad.message).toContain("Missing query `q` parameter.")
    server.handle = Server.reply(503, { error: "Service temporarily unavailable" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
    server.handle = Server.html(200, "<!doctype html><title>SerpApi</title>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("SERPAPI_API_KEY")
    expect(server.requests).toHaveLength(0)
  })

  it("never shows the key, even when SerpApi echoes the request URL in an error", async () => {
    server.handle = (request, res) =>
      Server.reply(400, { error: `Invalid request: ${request.path}?${request.query.toString()}` })(request, res)
    const outcome = await search(["a"])
    expect(Server.failure(outcome).message).toContain("[redacted]")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})

describe("SerpApi keeps the key in the URL out of errors, logs and spans", () => {
  it("a refused connection fails with RequestFailed/network and no span, log or error holds the key", async () => {
    const port = await Traced.closedPort()
    const traced = await Traced.search(SerpApi.layer, "serpapi", Traced.refusedSettings(server, "serpapi", port), ["a"])
    expect(Exit.isFailure(traced.exit)).toBe(true)
    const exitText = JSON.stringify(traced.exit)
    expect(exitText).toContain("network")
    expect(exitText).not.toContain(Server.canary)
    expect(traced.spans.some((s) => s.name === "websearch.provider.searchKeywords")).toBe(true)
    for (const span of traced.spans) expect(Traced.spanText(span)).not.toContain(Server.canary)
    expect(traced.logs.join("\n")).not.toContain(Server.canary)
  })

  it("a successful traced search leaves no span attribute with the key", async () => {
    server.handle = Server.json(fixture.response.body)
    const traced = await Traced.search(
      SerpApi.layer,
      "serpapi",
      Server.settingsFor(server, "serpapi", { capabilities: ["searchKeywords"] }),
      ["Coffee"]
    )
    expect(Exit.isSuccess(traced.exit)).toBe(true)
    expect(traced.spans.some((s) => s.name === "websearch.provider.searchKeywords")).toBe(true)
    // One provider-call span per input, not a second of the same name nested in it by the driver's request.
    const calls = traced.spans.filter((s) => s.name === "websearch.provider.searchKeywords")
    expect(calls).toHaveLength(1)
    expect(Object.fromEntries(calls[0].attributes)).toMatchObject({
      "websearch.provider": "serpapi",
      "websearch.capability": "searchKeywords"
    })
    for (const span of traced.spans) expect(Traced.spanText(span)).not.toContain(Server.canary)
  })
})
