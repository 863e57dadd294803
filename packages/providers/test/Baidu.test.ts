import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Baidu from "../src/Baidu.js"
import * as BaiduWire from "../src/internal/baiduWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("baidu_qianfan.json")
const recorded = fixture.response.body
const errorExample = fixture.error_example

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "baidu", Baidu.layer, keywords, { capabilities: ["searchKeywords"], ...options })

const reference = (fields: Json) => ({ ...recorded.references[0], ...fields })

describe("Baidu searchKeywords", () => {
  it("sends the documented request and decodes the recorded answer", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    const response = Server.success(await search(["北京有哪些旅游景区"], { maxResults: 20 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/v2/ai_search/web_search")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({
      messages: [{ role: "user", content: "北京有哪些旅游景区" }],
      search_source: "baidu_search_v2",
      resource_type_filter: [{ type: "web", top_k: 20 }]
    })
    const expected = recorded.references[0]
    expect(response.results).toEqual([
      {
        title: expected.title,
        content: expected.content,
        url: expected.url,
        sourceInput: "北京有哪些旅游景区",
        // Baidu's time has no zone: it stays Baidu's local time.
        publishedAt: "2025-04-27T18:02:00",
        siteName: expected.website
      }
    ])
    expect(response.query).toBe("北京有哪些旅游景区")
    expect(response.providerId).toBe("baidu")
  })

  it("keeps only web references, falls back to the snippet, and accepts the real variations", async () => {
    server.handle = Server.json({
      request_id: "r",
      references: [
        reference({ id: "1", date: "2025-4-24", content: "", snippet: "the snippet", url: "https://example.com/a" }),
        reference({ id: 2, type: "video", url: "https://example.com/video" }),
        reference({ id: 3, type: "image", url: "https://example.com/image.png" }),
        {
          id: 4,
          url: "https://example.com/untyped",
          title: null,
          content: "untyped content",
          date: "2025-05-20 11:58"
        },
        reference({ id: 5, url: "javascript:alert(1)" })
      ]
    })
    const outcome = await search(["a"])
    expect(Server.success(outcome).results).toEqual([
      {
        title: recorded.references[0].title,
        content: "the snippet",
        url: "https://example.com/a",
        sourceInput: "a",
        publishedAt: "2025-04-24",
        siteName: recorded.references[0].website
      },
      {
        title: "https://example.com/untyped",
        content: "untyped content",
        url: "https://example.com/untyped",
        sourceInput: "a",
        publishedAt: "2025-05-20T11:58:00"
      }
    ])
    expect(outcome.logs.some((l) => l.text.includes("dropped 1 result(s)"))).toBe(true)
    server.handle = Server.json({ request_id: "r", references: null })
    expect(Server.success(await search(["b"])).results).toEqual([])
    server.handle = Server.json({ request_id: "r" })
    expect(Server.success(await search(["c"])).results).toEqual([])
    server.handle = Server.json({ ...recorded, code: 0, message: "" })
    expect(Server.success(await search(["d"])).results).toHaveLength(1)
  })

  it("clamps top_k to Baidu's 50", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.resource_type_filter).toEqual([{ type: "web", top_k: 50 }])
  })

  it("shortens a query over 72 units before sending it, keeping the caller's query in the response", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    const chinese = "北京有哪些适合带孩子一起去的旅游景区以及附近有什么好吃的餐馆推荐给外地游客参考一下谢谢"
    expect(BaiduWire.queryUnits(chinese)).toBeGreaterThan(72)
    const outcome = await search([chinese])
    const response = Server.success(outcome)
    const sent = (server.requests[0].body as Json).messages[0].content as string
    expect(sent).toBe(chinese.slice(0, 36))
    expect(response.query).toBe(chinese)
    expect(response.results[0].sourceInput).toBe(chinese)
    expect(outcome.logs.some((l) => l.text.includes("searched the first 72 of"))).toBe(true)
    const english = "how to compose effect layers with a scoped http client and a redis backed cache in production"
    Server.success(await search([english]))
    const sentEnglish = (server.requests[1].body as Json).messages[0].content as string
    // 72 units end inside "backed": the cut backs off to the last space.
    expect(sentEnglish).toBe("how to compose effect layers with a scoped http client and a redis")
    expect(BaiduWire.queryUnits(sentEnglish)).toBeLessThanOrEqual(72)
  })

  it("maps the fixture's in-body error (HTTP 200, non-zero code) to a non-retryable refusal with Baidu's message", async () => {
    server.handle = Server.json(errorExample.body)
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false, providerId: "baidu" })
    expect(error.message).toContain(`code ${errorExample.body.code}`)
    expect(error.message).toContain(errorExample.body.message)
  })

  it("reads HTTP-shaped codes inside HTTP 200 bodies like their statuses", async () => {
    server.handle = Server.json({ code: 401, message: "invalid api key", request_id: "r" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    server.handle = Server.json({ code: "429", message: "qps limit", request_id: "r" }, { "retry-after": "2" })
    expect(Server.failure(await search(["a"]))).toMatchObject({
      _tag: "RequestFailed",
      reason: "rate_limited",
      retryable: true,
      retryAfter: 2
    })
  })

  it("maps 401 to Unavailable/credentials_rejected, naming the key by position and never showing it", async () => {
    server.handle = Server.reply(401, { code: 401, message: `invalid key ${Server.canary}`, request_id: "r" })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(error.message).toContain("BAIDU_API_KEY")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    const keys = ["bce-v3/ALTAK-first-0001", "bce-v3/ALTAK-second-0002"]
    const several = await search(["a"], { keys })
    expect(Server.failure(several).message).toContain("API key #1 of 2")
    for (const key of keys) expect(Server.visible(several)).not.toContain(key)
  })

  it("maps 429 with Retry-After to RequestFailed/http_429 carrying retryAfter", async () => {
    server.handle = Server.reply(
      429,
      { code: 429, message: "Open api qps request limit reached" },
      { "retry-after": "5" }
    )
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 5 })
    expect(error.message).toContain("qps request limit")
  })

  it("maps 5xx to http_5xx, an HTML 200 and a wrong shape to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(502, "<html>bad gateway</html>")
    const gateway = Server.failure(await search(["a"]))
    expect(gateway).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(gateway.message).not.toContain("<html>")
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ references: [reference({}), { url: "https://example.com", title: 7 }] })
    const shape = Server.failure(await search(["a"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("[1]")
    expect(shape.message).toContain("title")
    server.handle = Server.json({ references: "none" })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("BAIDU_API_KEY")
    expect(server.requests).toHaveLength(0)
  })

  it("never shows the canary key in a successful outcome or its logs", async () => {
    server.handle = Server.json(recorded)
    const outcome = await search(["a"])
    Server.success(outcome)
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})

describe("Baidu rules", () => {
  it.prop(
    "top_k is always within Baidu's 1–50 and otherwise what was asked",
    [FastCheck.integer({ min: -10, max: 1000 })],
    ([wanted]) => {
      expect(BaiduWire.searchBody("q", wanted).resource_type_filter[0].top_k).toBe(Math.min(50, Math.max(1, wanted)))
    }
  )

  const queries = FastCheck.oneof(
    FastCheck.string({ unit: "grapheme", maxLength: 120 }),
    FastCheck.array(FastCheck.constantFrom("北京", "旅游", "effect", "layers", " ", "é", "😀", "a1"), {
      maxLength: 60
    }).map((parts) => parts.join(""))
  )

  it.prop(
    "a fitted query fits, is a prefix of the trimmed query, and is the query itself when that fits",
    [queries],
    ([query]) => {
      const fitted = BaiduWire.fitQuery(query)
      const trimmed = query.trim()
      expect(BaiduWire.queryUnits(fitted)).toBeLessThanOrEqual(BaiduWire.maxQueryUnits)
      expect(trimmed.startsWith(fitted)).toBe(true)
      if (BaiduWire.queryUnits(trimmed) <= BaiduWire.maxQueryUnits) expect(fitted).toBe(trimmed)
      else expect(fitted.length).toBeGreaterThan(0)
      // Never half a surrogate pair.
      expect(/[\uD800-\uDBFF]$/.test(fitted)).toBe(false)
    }
  )

  it.prop(
    "units count ASCII as one and everything else as two",
    [FastCheck.string({ unit: "grapheme", maxLength: 40 })],
    ([text]) => {
      const expected = [...text].reduce((n, ch) => n + ((ch.codePointAt(0) ?? 0) <= 0x7f ? 1 : 2), 0)
      expect(BaiduWire.queryUnits(text)).toBe(expected)
    }
  )
})
