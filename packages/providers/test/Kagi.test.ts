import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Kagi from "../src/Kagi.js"
import * as KagiWire from "../src/internal/kagiWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("kagi.json")
const meta = fixture.error_example.body.meta
const kagiError = (code: number, msg: string) => ({ meta, data: null, error: [{ code, msg, ref: null }] })

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "kagi", Kagi.layer, keywords, { capabilities: ["searchKeywords"], ...options })

describe("Kagi searchKeywords", () => {
  it("sends q and limit with 'Authorization: Bot' and keeps only the t == 0 items of the recorded answer", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["steve jobs"], { maxResults: 10 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("GET")
    expect(sent.path).toBe("/api/v0/search")
    expect(Object.fromEntries(sent.query)).toEqual({ q: "steve jobs", limit: "10" })
    expect(sent.headers.authorization).toBe(`Bot ${Server.canary}`)
    expect(response.results).toEqual([
      {
        title: "Steve Jobs - Wikipedia",
        content: fixture.response.body.data[0].snippet,
        url: "https://en.wikipedia.org/wiki/Steve_Jobs",
        sourceInput: "steve jobs"
      },
      {
        title: "Orion Browser by Kagi",
        content: "Incredible performance. Total Protection.",
        url: "https://browser.kagi.com/",
        sourceInput: "steve jobs"
      }
    ])
  })

  it.prop("limit is the request's maxResults, never below 1", [FastCheck.integer({ min: -5, max: 50 })], ([n]) => {
    expect(Number(KagiWire.searchParams("q", n).limit)).toBe(Math.max(1, n))
  })

  it("accepts a null data list, t as a string, null snippets and items without t", async () => {
    server.handle = Server.json({ meta, data: null })
    expect(Server.success(await search(["zxqv"])).results).toEqual([])
    server.handle = Server.json({
      meta,
      data: [
        { t: "0", url: "https://example.com/a", title: "A", snippet: null },
        { t: "1", list: ["related"] },
        { url: "https://example.com/b", title: null }
      ]
    })
    expect(Server.success(await search(["a"])).results).toEqual([
      { title: "A", content: "", url: "https://example.com/a", sourceInput: "a" },
      { title: "https://example.com/b", content: "", url: "https://example.com/b", sourceInput: "a" }
    ])
  })

  it("maps the documented malformed-request error (code 1) to http_status with Kagi's msg", async () => {
    server.handle = Server.reply(400, fixture.error_example.body)
    const outcome = await search(["a"])
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(error.message).toContain("Missing q parameter")
    expect(error.message).toContain("code 1")
  })

  it("maps code 2 (unauthorized) to credentials_rejected by key position, with an error status or in a 200", async () => {
    const keys = ["kagi-first-key-0001", "kagi-second-key-0002"]
    for (const status of [401, 200]) {
      server.handle = Server.reply(status, kagiError(2, "Unauthorized: invalid token"))
      const outcome = await search(["a"], { keys })
      const error = Server.failure(outcome)
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "kagi" })
      expect(error.message).toContain("Unauthorized: invalid token")
      expect(error.message).toMatch(/API key #[12] of 2/)
      expect(Server.visible(outcome)).not.toContain("kagi-first-key-0001")
      expect(Server.visible(outcome)).not.toContain("kagi-second-key-0002")
    }
  })

  it("maps codes 100 and 101 (billing, credit) to rate_limited, not retryable, at any status", async () => {
    for (const [status, code, msg] of [
      [402, 100, "No billing information"],
      [200, 101, "Insufficient credit to perform this request"]
    ] as const) {
      server.handle = Server.reply(status, kagiError(code, msg))
      const error = Server.failure(await search(["a"]))
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
      expect(error.message).toContain(msg)
    }
  })

  it("maps code 0 (internal) to http_5xx, a bodiless 429 with Retry-After to http_429, and plain 5xx", async () => {
    server.handle = Server.json(kagiError(0, "Internal error"))
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
    server.handle = Server.reply(429, "slow down", { "retry-after": "4" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_429", retryable: true, retryAfter: 4 })
    server.handle = Server.html(502, "<html>bad gateway</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
  })

  it("maps a non-JSON 200 and a wrong shape to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(200, "<html>login</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ meta, data: "nope" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("KAGI_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})
