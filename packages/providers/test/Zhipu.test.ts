import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Zhipu from "../src/Zhipu.js"
import * as ZhipuWire from "../src/internal/zhipuWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("zhipu.json")
const recorded = fixture.response.body
const errorExample = fixture.error_examples[0]

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

// The preset's apiHost carries a path; the test server is given the same one.
const basePath = "/api/paas/v4"

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "zhipu", Zhipu.layer, keywords, { basePath, capabilities: ["searchKeywords"], ...options })

const inBody = (code: string, message: string) => Server.json({ error: { code, message } })

describe("Zhipu searchKeywords", () => {
  it("sends the documented request and decodes the recorded answer", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    const response = Server.success(await search(["搜索2025年4月的财经新闻"], { maxResults: 3 }))
    expect(server.requests).toHaveLength(1)
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/api/paas/v4/web_search")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.body).toEqual({
      search_query: "搜索2025年4月的财经新闻",
      search_engine: "search_std",
      search_intent: false,
      count: 3
    })
    const expected = recorded.search_result[0]
    expect(response.results).toEqual([
      {
        title: expected.title,
        content: expected.content,
        url: expected.link,
        sourceInput: "搜索2025年4月的财经新闻",
        publishedAt: "2025-05-23",
        siteName: expected.media
      }
    ])
    expect(response.query).toBe("搜索2025年4月的财经新闻")
    expect(response.providerId).toBe("zhipu")
  })

  it("accepts the real variations: null titles, varied dates, a missing or null result list, links that are not URLs", async () => {
    server.handle = Server.json({
      ...recorded,
      search_result: [
        { ...recorded.search_result[0], title: null, publish_date: "2026-07-16 12:30" },
        { title: "no link", content: "x", link: null },
        { title: "relative", content: "x", link: "/a/b" },
        { title: "Second", content: null, link: "https://example.com/2", media: null, icon: null, refer: "ref_2" }
      ]
    })
    const outcome = await search(["a"])
    expect(Server.success(outcome).results).toEqual([
      {
        title: recorded.search_result[0].link,
        content: recorded.search_result[0].content,
        url: recorded.search_result[0].link,
        sourceInput: "a",
        // A time without a zone stays the provider's local time.
        publishedAt: "2026-07-16T12:30:00",
        siteName: recorded.search_result[0].media
      },
      { title: "Second", content: "", url: "https://example.com/2", sourceInput: "a" }
    ])
    expect(outcome.logs.some((l) => l.text.includes("dropped 2 result(s)"))).toBe(true)
    server.handle = Server.json({ id: "x", created: 1, request_id: "x", search_intent: [] })
    expect(Server.success(await search(["b"])).results).toEqual([])
    server.handle = Server.json({ id: "x", search_result: null })
    expect(Server.success(await search(["c"])).results).toEqual([])
  })

  it("uses the first configured engine, rounding Sogou's count up to a multiple of ten", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 3, override: { engines: ["search_pro_sogou", "search_std"] } }))
    expect(server.requests[0].body).toMatchObject({ search_engine: "search_pro_sogou", count: 10 })
    Server.success(await search(["a"], { maxResults: 7, override: { engines: ["search_pro"] } }))
    expect(server.requests[1].body).toMatchObject({ search_engine: "search_pro", count: 7 })
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[2].body).toMatchObject({ search_engine: "search_std", count: 50 })
  })

  it("refuses an engine Zhipu does not offer with Unavailable/invalid_config naming the setting, before any request", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { override: { engines: ["search-prime"] } }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config", providerId: "zhipu" })
    expect(error.message).toContain("providers.zhipu.engines")
    expect(error.message).toContain("search-prime")
    expect(server.requests).toHaveLength(0)
  })

  it("refuses a query over 70 characters with RequestFailed/invalid_input naming the limit, and sends one of 70", async () => {
    server.handle = Server.json(recorded)
    server.requests.length = 0
    const long = "财".repeat(71)
    const error = Server.failure(await search([long]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input", retryable: false, input: long })
    expect(error.message).toContain("at most 70 characters")
    expect(error.message).toContain("71")
    expect(server.requests).toHaveLength(0)
    // 70 code points, 140 UTF-16 units: within the limit.
    const emoji = "😀".repeat(70)
    Server.success(await search([emoji]))
    expect(server.requests[0].body?.search_query).toBe(emoji)
  })

  it("maps the fixture's 429 (code 1302) to RequestFailed/http_429 with retryAfter and Zhipu's code", async () => {
    server.handle = Server.reply(errorExample.status, errorExample.body, { "retry-after": "4" })
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 4 })
    expect(error.message).toContain("rate limited")
    expect(error.message).toContain("1302")
  })

  it("reads errors inside HTTP 200 bodies by Zhipu's code", async () => {
    server.handle = inBody("1302", "您当前使用该API的并发数过高")
    expect(Server.failure(await search(["a"]))).toMatchObject({
      _tag: "RequestFailed",
      reason: "rate_limited",
      retryable: true
    })
    server.handle = inBody("1001", "Header中未收到Authentication参数")
    const auth = Server.failure(await search(["a"]))
    expect(auth).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(auth.message).toContain("code 1001")
    server.handle = inBody("1113", "您的账户已欠费，请充值后重试")
    const arrears = Server.failure(await search(["a"]))
    expect(arrears).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(arrears.message).toContain("您的账户已欠费")
    server.handle = inBody("1301", "系统检测到输入或生成内容可能包含不安全或敏感内容")
    const unsafe = Server.failure(await search(["a"]))
    expect(unsafe).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(unsafe.message).toContain("不安全或敏感内容")
    server.handle = inBody("1214", "search_query 参数非法")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    server.handle = Server.json({ error: "service unavailable" })
    expect(Server.failure(await search(["a"])).message).toContain("service unavailable")
  })

  it("maps 401 to Unavailable/credentials_rejected, names the key by position and never shows it", async () => {
    server.handle = Server.reply(401, {
      error: { code: "1002", message: `Authentication Token非法: ${Server.canary}` }
    })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "zhipu" })
    expect(error.message).toContain("Authentication Token非法")
    expect(error.message).toContain("ZHIPU_API_KEY")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    const keys = ["zhipu-first-key-0001.abc", "zhipu-second-key-0002.def"]
    const several = await search(["a"], { keys })
    expect(Server.failure(several).message).toContain("API key #1 of 2")
    for (const key of keys) expect(Server.visible(several)).not.toContain(key)
  })

  it("maps 5xx to http_5xx, an HTML 200 and a wrong shape to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(503, "<html><body>Service Unavailable</body></html>")
    const unavailable = Server.failure(await search(["a"]))
    expect(unavailable).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(unavailable.message).not.toContain("<html>")
    server.handle = Server.reply(500, { error: { code: "500", message: "内部错误" } })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_5xx" })
    server.handle = Server.html(200, "<html>maintenance</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ search_result: [{ title: 1, link: "https://example.com" }] })
    const shape = Server.failure(await search(["a"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("title")
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const outcome = await search(["a"], { keys: [] })
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("ZHIPU_API_KEY")
    expect(server.requests).toHaveLength(0)
  })

  it("never shows the canary key in a successful outcome or its logs", async () => {
    server.handle = Server.json(recorded)
    const outcome = await search(["a", "b"])
    Server.success(outcome)
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})

describe("Zhipu rules", () => {
  it.prop(
    "the count is always within 1–50, Sogou's a multiple of ten covering the request",
    [FastCheck.integer({ min: -5, max: 500 }), FastCheck.constantFrom(...ZhipuWire.engines)],
    ([wanted, engine]) => {
      const count = ZhipuWire.searchBody("q", wanted, engine).count
      expect(count).toBeGreaterThanOrEqual(1)
      expect(count).toBeLessThanOrEqual(ZhipuWire.maxResultsLimit)
      if (engine === "search_pro_sogou") {
        expect(count % 10).toBe(0)
        expect(count).toBeGreaterThanOrEqual(Math.min(50, Math.max(1, wanted)))
      } else {
        expect(count).toBe(Math.min(50, Math.max(1, wanted)))
      }
    }
  )

  it.prop(
    "a query's length is its number of code points",
    [FastCheck.string({ unit: "grapheme", maxLength: 80 })],
    ([q]) => {
      expect(ZhipuWire.queryLength(q)).toBe([...q].length)
      expect(ZhipuWire.queryLength(q)).toBeLessThanOrEqual(q.length)
    }
  )

  it.prop(
    "only Zhipu's four engines are accepted; none configured means search_std",
    [FastCheck.array(FastCheck.string({ maxLength: 20 }), { maxLength: 3 })],
    ([configured]) => {
      const chosen = ZhipuWire.engineOf(configured)
      const first = configured[0]?.trim()
      if (first === undefined || first === "") expect(chosen).toEqual(Either.right("search_std"))
      else if ((ZhipuWire.engines as ReadonlyArray<string>).includes(first)) expect(chosen).toEqual(Either.right(first))
      else expect(Either.isLeft(chosen)).toBe(true)
    }
  )

  it.prop(
    "every authentication code reads as rejected credentials, every concurrency code as a rate limit",
    [FastCheck.integer({ min: 1000, max: 1004 }), FastCheck.constantFrom(1302, 1303, 1305)],
    ([auth, busy]) => {
      expect(ZhipuWire.kindOfCode(auth)).toBe("credentials")
      expect(ZhipuWire.kindOfCode(busy)).toBe("rate_limited")
    }
  )
})
