import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as ExaMcp from "../src/ExaMcp.js"
import * as ExaMcpWire from "../src/internal/exaMcpWire.js"
import * as McpText from "../src/internal/exaMcpText.js"
import * as Server from "./support/providerServer.js"

const fixture = Server.fixture<Server.FixtureJson>("exa_mcp.json")

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "exa-mcp", ExaMcp.layer, keywords, { capabilities: ["searchKeywords"], ...options })

/** Answers with a raw event stream. */
const sse =
  (body: string, code = 200): Server.Handler =>
  (_, res) => {
    res.writeHead(code, { "content-type": "text/event-stream; charset=utf-8" })
    res.end(body)
  }

/** Answers with one SSE reply carrying the request's id and the given result. */
const toolReply =
  (result: Server.FixtureJson): Server.Handler =>
  (request, res) =>
    sse(`event: message\ndata: ${JSON.stringify({ result, jsonrpc: "2.0", id: request.body?.id })}\n\n`)(request, res)

const textResult = (text: string) => ({ content: [{ type: "text", text }] })

describe("Exa MCP searchKeywords", () => {
  it("sends a JSON-RPC tools/call and decodes the recorded event stream", async () => {
    server.handle = sse(fixture.response.raw_body)
    server.requests.length = 0
    const response = Server.success(await search(["latest alpha 2026"], { maxResults: 3 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/mcp")
    expect(sent.headers.accept).toBe("application/json, text/event-stream")
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.headers["x-api-key"]).toBe(Server.canary)
    expect(sent.body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "web_search_exa", arguments: { query: "latest alpha 2026", numResults: 3 } }
    })
    expect(response.results).toEqual([
      {
        title: "Alpha Result",
        content: "Alpha summary",
        url: "https://example.com/alpha",
        sourceInput: "latest alpha 2026",
        publishedAt: "2026-04-03T10:00:00.000Z",
        author: "Jeffrey"
      }
    ])
    expect(response.query).toBe("latest alpha 2026")
    expect(response.providerId).toBe("exa-mcp")
  })

  it("works without a key: no x-api-key header is sent", async () => {
    server.handle = toolReply(fixture.response.parsed_data.result)
    server.requests.length = 0
    const response = Server.success(await search(["q"], { keys: [] }))
    expect(server.requests[0].headers["x-api-key"]).toBeUndefined()
    expect(server.requests[0].headers.authorization).toBeUndefined()
    expect(response.results.map((r) => r.url)).toEqual(["https://example.com/alpha"])
  })

  it("accepts a plain JSON reply as well as an event stream", async () => {
    server.handle = (request, res) =>
      Server.json({ ...fixture.response.parsed_data, id: request.body?.id })(request, res)
    expect(Server.success(await search(["q"])).results.map((r) => r.title)).toEqual(["Alpha Result"])
  })

  it("skips progress notifications, non-JSON frames and replies to other ids, over CRLF framing", async () => {
    server.handle = (request, res) => {
      const id = request.body?.id as number
      const frames = [
        `: keep-alive`,
        `event: message\r\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } })}`,
        `data: not json at all`,
        `event: message\r\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: id + 1000, result: textResult("Title: Wrong\nURL: https://wrong.example/\nHighlights:\nno") })}`,
        `event: message\r\ndata:${JSON.stringify({ jsonrpc: "2.0", id, result: textResult("Title: Right\nURL: https://right.example/\nHighlights:\nyes") })}`
      ]
      sse(frames.join("\r\n\r\n") + "\r\n\r\n")(request, res)
    }
    expect(Server.success(await search(["q"])).results).toEqual([
      { title: "Right", content: "yes", url: "https://right.example/", sourceInput: "q" }
    ])
  })

  it("parses the current multi-result format joined by ---, with N/A fields, Text: content and a URL-less result dropped", async () => {
    const text = [
      "Title: First\nURL: https://one.example/a\nPublished: N/A\nAuthor: N/A\nHighlights:\nfirst highlight\nsecond highlight",
      "Title: Second\nURL: https://two.example/b\nPublished: 2026-01-02T00:00:00.000Z\nAuthor: Ann\nText: the full text\n\n---\nwith a rule inside",
      "Title: No URL here\nAuthor: N/A\nHighlights:\nnothing"
    ].join(fixture.multi_result_text_separator)
    server.handle = toolReply({ content: [{ type: "text", text, _meta: { searchTime: 812 } }] })
    expect(Server.success(await search(["q"])).results).toEqual([
      {
        title: "First",
        content: "first highlight\nsecond highlight",
        url: "https://one.example/a",
        sourceInput: "q"
      },
      {
        title: "Second",
        content: "the full text\n\n---\nwith a rule inside",
        url: "https://two.example/b",
        sourceInput: "q",
        publishedAt: "2026-01-02T00:00:00.000Z",
        author: "Ann"
      }
    ])
  })

  it("parses the older Title:/URL:/Published Date:/Author:/Text: blocks separated by blank lines", async () => {
    const text =
      "Title: Old One\nURL: https://old.example/1\nPublished Date: 2024-05-01\nAuthor: Bob\nText: old text one\ncontinues here\n\n" +
      "Title: Old Two\nURL: https://old.example/2\nPublished Date: N/A\nAuthor: N/A\nText: old text two"
    server.handle = toolReply(textResult(text))
    expect(Server.success(await search(["q"])).results).toEqual([
      {
        title: "Old One",
        content: "old text one\ncontinues here",
        url: "https://old.example/1",
        sourceInput: "q",
        publishedAt: "2024-05-01",
        author: "Bob"
      },
      { title: "Old Two", content: "old text two", url: "https://old.example/2", sourceInput: "q" }
    ])
  })

  it("reads the no-results text and an empty content list as zero results", async () => {
    server.handle = toolReply(textResult("No search results found. Please try a different query."))
    expect(Server.success(await search(["q"])).results).toEqual([])
    server.handle = toolReply({ content: [] })
    expect(Server.success(await search(["q"])).results).toEqual([])
  })

  it("turns result.isError into RequestFailed with the tool's text, the status in it picking the reason", async () => {
    server.handle = (request, res) =>
      sse(`event: message\ndata: ${JSON.stringify({ ...fixture.tool_error_result, id: request.body?.id })}\n\n`)(
        request,
        res
      )
    const server500 = Server.failure(await search(["q"]))
    expect(server500).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(server500.message).toContain("web_search_exa error (500)")
    server.handle = toolReply({ ...textResult("Search error (400): query too long"), isError: true })
    const bad = Server.failure(await search(["q"]))
    expect(bad).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(bad.message).toContain("query too long")
    server.handle = toolReply({ ...textResult("web_search_exa error (429): slow down"), isError: true })
    expect(Server.failure(await search(["q"]))).toMatchObject({ reason: "http_429", retryable: true })
    server.handle = toolReply({ ...textResult("web_search_exa error (401): Invalid API key"), isError: true })
    const outcome = await search(["q"])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("turns a JSON-RPC error into RequestFailed with its message", async () => {
    server.handle = (request, res) =>
      Server.json({ jsonrpc: "2.0", id: request.body?.id, error: { code: -32602, message: "Invalid params: query" } })(
        request,
        res
      )
    const error = Server.failure(await search(["q"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(error.message).toContain("Invalid params: query")
    expect(error.message).toContain("-32602")
  })

  it("maps the free tier's 429 JSON-RPC body to http_429 with retryAfter, and says a key lifts it", async () => {
    const limited = fixture.rate_limit_error
    server.handle = Server.reply(limited.status, limited.body, {
      "retry-after": "30",
      "x-ratelimit-limit": "0",
      "x-ratelimit-remaining": "0"
    })
    const error = Server.failure(await search(["q"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 30 })
    expect(error.message).toContain("free MCP rate limit")
    expect(error.message).toContain("EXA_MCP_API_KEY")
    // The same body inside a 200 event stream (null id) is still the rate limit.
    server.handle = sse(`event: message\ndata: ${JSON.stringify(limited.body)}\n\n`)
    expect(Server.failure(await search(["q"]))).toMatchObject({ reason: "rate_limited", retryable: true })
  })

  it("maps 401 to credentials_rejected naming the key by position, never by value", async () => {
    server.handle = Server.reply(401, { jsonrpc: "2.0", error: { code: -32001, message: "Invalid API key" }, id: null })
    const keys = ["exa-mcp-first-0001", "exa-mcp-second-0002"]
    const outcome = await search(["q"], { keys })
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "exa-mcp" })
    expect(error.message).toMatch(/API key #\d of 2/)
    expect(error.message).toContain("Invalid API key")
    for (const key of keys) expect(Server.visible(outcome)).not.toContain(key)
  })

  it("maps 5xx to http_5xx and a reply without a usable message to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(502, "<html>bad gateway</html>")
    expect(Server.failure(await search(["q"]))).toMatchObject({ reason: "http_5xx", retryable: true })
    server.handle = Server.html(200, "<html>not an event stream</html>")
    expect(Server.failure(await search(["q"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = sse(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 987654, result: {} })}\n\n`)
    const unmatched = Server.failure(await search(["q"]))
    expect(unmatched).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(unmatched.message).toContain("without a reply")
    server.handle = (request, res) =>
      Server.json({ jsonrpc: "2.0", id: request.body?.id, result: { content: "not a list" } })(request, res)
    expect(Server.failure(await search(["q"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("stops reading a reply larger than its cap", async () => {
    server.handle = sse(`data: ${"x".repeat(ExaMcpWire.maxReplyBytes + 10)}\n\n`)
    expect(Server.failure(await search(["q"]))).toMatchObject({ _tag: "RequestFailed", reason: "too_large" })
  })

  it.prop("requestBody asks for 1..100 results", [FastCheck.integer({ min: -1000, max: 1000 })], ([n]) => {
    expect(ExaMcpWire.requestBody("q", n, 7).params.arguments.numResults).toBe(Math.min(100, Math.max(1, n)))
  })
})

// Text that cannot be mistaken for a header: no line starts with a known field name.
const line = FastCheck.string({ minLength: 1, maxLength: 40 })
  .map((s) => s.replace(/[\r\n]/g, " ").trim())
  .filter(
    (s) =>
      s !== "" &&
      !/^(Title|URL|Published|Author|Highlights|Text|Summary|Content|Image|Favicon|ID|Id|Score):/.test(s) &&
      !/^-{3,}$/.test(s)
  )

const record = FastCheck.record({
  title: line,
  url: FastCheck.webUrl({ validSchemes: ["https"] }).filter((u) => !/\s/.test(u)),
  lines: FastCheck.array(line, { minLength: 1, maxLength: 5 })
})

describe("Exa MCP text formats", () => {
  it.prop(
    "the current format (joined by ---) reads back every title, URL and content",
    [FastCheck.array(record, { maxLength: 6 })],
    ([records]) => {
      const text = records
        .map((r) => `Title: ${r.title}\nURL: ${r.url}\nPublished: N/A\nAuthor: N/A\nHighlights:\n${r.lines.join("\n")}`)
        .join("\n\n---\n\n")
      expect(McpText.parse(text)).toEqual(
        records.map((r) => ({ title: r.title, url: r.url, content: r.lines.join("\n") }))
      )
    }
  )

  it.prop(
    "the older format (blank lines between blocks) reads back every title, URL and content",
    [FastCheck.array(record, { maxLength: 6 })],
    ([records]) => {
      const text = records
        .map(
          (r) => `Title: ${r.title}\nURL: ${r.url}\nPublished Date: 2024-01-01\nAuthor: X\nText: ${r.lines.join("\n")}`
        )
        .join("\n\n")
      expect(McpText.parse(text)).toEqual(
        records.map((r) => ({
          title: r.title,
          url: r.url,
          published: "2024-01-01",
          author: "X",
          content: r.lines.join("\n")
        }))
      )
    }
  )

  it.prop(
    "the reply to the call is found among any noise, in any order",
    [FastCheck.integer({ min: 1, max: 1000 }), FastCheck.array(FastCheck.jsonValue(), { maxLength: 6 })],
    ([id, noise]) => {
      const reply = { jsonrpc: "2.0", id, result: { content: [] } }
      const others = noise.filter(
        (n) => typeof n !== "object" || n === null || Array.isArray(n) || !("result" in n || "error" in n)
      )
      const messages = [...others, { jsonrpc: "2.0", id: id + 1, result: {} }, reply].reverse()
      expect(ExaMcpWire.replyFor(messages, id)).toBe(reply)
    }
  )

  it("an event stream whose last event has no closing blank line still yields it", () => {
    expect(ExaMcpWire.messagesOf(`data: {"id":1,"result":{}}`, 1000)).toEqual([{ id: 1, result: {} }])
    expect(ExaMcpWire.messagesOf(`data: ${"x".repeat(50)}`, 10)).toMatchObject({ _tag: "TooLarge" })
  })
})
