import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Jina from "../src/Jina.js"
import * as JinaWire from "../src/internal/jinaWire.js"
import * as Server from "./support/providerServer.js"

type Json = Server.FixtureJson

const searchFixture = Server.fixture<Json>("jina_search.json")
const readerFixture = Server.fixture<Json>("jina_reader.json")
const searchError = (status: number) => searchFixture.error_examples.find((e: Json) => e.status === status).body
const readerError = (status: number) => readerFixture.error_examples.find((e: Json) => e.status === status).body

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options?: Parameters<typeof Server.search>[4]) =>
  Server.search(server, "jina", Jina.layer, keywords, options)
const fetch = (urls: ReadonlyArray<string>, options?: Parameters<typeof Server.fetch>[4]) =>
  Server.fetch(server, "jina", Jina.layer, urls, options)

/** The registry of an application composing Jina over the given settings. */
const composed = (settings: Layer.Layer<Settings.Settings, WebSearchError.Unavailable>) =>
  WebSearch.layer(Jina.layer).pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.provide(settings))

/** Jina's resolved search and Reader endpoints. */
const endpoints = Effect.gen(function* () {
  const registry = yield* ProviderRegistry.ProviderRegistry
  const search = yield* registry.resolve("jina", "searchKeywords")
  const fetch = yield* registry.resolve("jina", "fetchUrls")
  return [Option.getOrNull(search.apiHost), Option.getOrNull(fetch.apiHost)]
})

describe("Jina searchKeywords", () => {
  it("posts { q, count } with the Bearer key and JSON accept, and decodes the recorded answer", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    const outcome = await search(["what is ollama"], { maxResults: 5 })
    const response = Server.success(outcome)
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    expect(server.requests).toHaveLength(1)
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers.accept).toBe("application/json")
    expect(sent.headers["content-type"]).toContain("application/json")
    expect(sent.headers["x-retain-images"]).toBe("none")
    // Three quarters of the default 20 s search timeout: Jina answers with what it has before websearch gives up.
    expect(sent.headers["x-timeout"]).toBe("15")
    expect(sent.headers["x-respond-with"]).toBeUndefined()
    expect(sent.body).toEqual({ q: "what is ollama", count: 5 })
    const [first, second] = searchFixture.response.body.data
    expect(response.results).toEqual([
      {
        title: "Ollama",
        content: "# Ollama\n\nGet up and running with large language models...",
        url: "https://ollama.com/",
        sourceInput: "what is ollama",
        publishedAt: "2025-09-23"
      },
      { title: second.title, content: second.content, url: second.url, sourceInput: "what is ollama" }
    ])
    expect(first.usage).toBeDefined()
    expect(JSON.stringify(response)).not.toContain("usage")
    expect(response.query).toBe("what is ollama")
    expect(response.providerId).toBe("jina")
  })

  it("clamps count to Jina's 20", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].body?.count).toBe(20)
  })

  it.prop(
    "count is always within 1–20 and equals maxResults inside it",
    [FastCheck.oneof(FastCheck.integer({ min: -5, max: 200 }), FastCheck.integer())],
    ([n]) => {
      const count = JinaWire.searchBody("q", n).count
      expect(count).toBeGreaterThanOrEqual(1)
      expect(count).toBeLessThanOrEqual(20)
      if (n >= 1 && n <= 20) expect(count).toBe(n)
    }
  )

  it.prop(
    "X-Timeout is whole seconds within 1–180 and leaves websearch's own timeout the last word",
    [FastCheck.integer({ min: 1, max: 3_600_000 })],
    ([millis]) => {
      const seconds = JinaWire.timeoutSeconds(Duration.millis(millis))
      expect(Number.isInteger(seconds)).toBe(true)
      expect(seconds).toBeGreaterThanOrEqual(1)
      expect(seconds).toBeLessThanOrEqual(180)
      if (millis >= 2_000) expect(seconds * 1000).toBeLessThan(millis)
    }
  )

  it("derives X-Timeout from the configured search timeout", async () => {
    server.handle = Server.json(searchFixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { settings: { timeouts: { searchKeywords: 8_000 } } }))
    expect(server.requests[0].headers["x-timeout"]).toBe("6")
  })

  it("accepts the real variations: no content, null titles, string codes, entities, items without a URL", async () => {
    server.handle = Server.json({
      code: "200",
      status: "20000",
      data: [
        { title: null, url: "https://example.com/a", description: "Rust &amp; Go <b>compared</b>" },
        { title: "No content", url: "https://example.com/b", description: "snippet", content: "   " },
        { title: "Relative", url: "/relative", description: "dropped" },
        { title: "Dated", url: "https://example.com/c", description: "d", content: "body", date: null }
      ],
      meta: { usage: { tokens: "12" } }
    })
    const outcome = await search(["rust & go"])
    expect(Server.success(outcome).results).toEqual([
      {
        title: "https://example.com/a",
        content: "Rust & Go compared",
        url: "https://example.com/a",
        sourceInput: "rust & go"
      },
      { title: "No content", content: "snippet", url: "https://example.com/b", sourceInput: "rust & go" },
      { title: "Dated", content: "body", url: "https://example.com/c", sourceInput: "rust & go" }
    ])
    expect(outcome.logs.some((l) => l.text.includes("dropped 1 result"))).toBe(true)
    server.handle = Server.json({ code: 200, status: 20000, data: [], meta: {} })
    expect(Server.success(await search(["nothing"])).results).toEqual([])
  })

  it("answers an empty list when Jina says nothing matched", async () => {
    server.handle = Server.reply(400, {
      data: null,
      code: 400,
      name: "AssertionFailureError",
      status: 40001,
      message: "No search results available for query zzqqxx",
      readableMessage: "AssertionFailureError: No search results available for query zzqqxx"
    })
    expect(Server.success(await search(["zzqqxx"])).results).toEqual([])
  })

  it("maps the recorded 402 InsufficientBalanceError to RequestFailed/rate_limited, not retryable", async () => {
    server.handle = Server.reply(402, searchError(402))
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false, providerId: "jina" })
    expect(error.message).toContain("Account balance not enough to run this query")
    expect(error.message).toContain("40203")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("reads the plan limit from the envelope's status even when the HTTP status says less", async () => {
    server.handle = Server.reply(400, {
      data: null,
      code: 402,
      name: "InsufficientCreditsError",
      status: 40201,
      message: "Insufficient credits",
      readableMessage: "InsufficientCreditsError: Insufficient credits"
    })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "rate_limited", retryable: false })
  })

  it("maps RateLimitTriggeredError 42903 to http_429 with Retry-After, or the body's retryAfter", async () => {
    server.handle = Server.reply(429, searchError(429), { "retry-after": "7" })
    const outcome = await search(["a"])
    expect(Server.failure(outcome)).toMatchObject({
      _tag: "RequestFailed",
      reason: "http_429",
      retryable: true,
      retryAfter: 7
    })
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    server.handle = Server.reply(429, { ...searchError(429), retryAfter: 12 })
    expect(Server.failure(await search(["a"]))).toMatchObject({ reason: "http_429", retryAfter: 12 })
    // The envelope inside a 200 answer still rate-limits.
    server.handle = Server.json({ ...searchError(429), retryAfter: 3 })
    expect(Server.failure(await search(["a"]))).toMatchObject({
      _tag: "RequestFailed",
      reason: "rate_limited",
      retryable: true,
      retryAfter: 3
    })
  })

  it("maps 401 AuthenticationRequiredError to Unavailable/credentials_rejected with Jina's message", async () => {
    server.handle = Server.reply(401, {
      data: null,
      code: 401,
      name: "AuthenticationRequiredError",
      status: 40101,
      message: "Authentication is required to use this endpoint.",
      readableMessage: "AuthenticationRequiredError: Authentication is required to use this endpoint."
    })
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "jina" })
    expect(error.message).toContain("Authentication is required")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("names a rejected key by its position among several, never by value", async () => {
    server.handle = Server.reply(401, { data: null, code: 401, name: "AuthenticationFailedError", status: 40103 })
    const keys = ["jina_first_key_0001", "jina_second_key_0002"]
    const first = await search(["a"], { keys })
    expect(Server.failure(first).message).toContain("API key #1 of 2")
    expect(Server.visible(first)).not.toContain("jina_first_key_0001")
  })

  it("maps 5xx to http_5xx, a non-JSON 200 and a data-less 200 to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.html(503, "<html><body>Service unavailable</body></html>")
    const down = Server.failure(await search(["a"]))
    expect(down).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", retryable: true })
    expect(down.message).not.toContain("<html>")
    server.handle = Server.reply(200, "[1] Title: Ollama\n[1] URL Source: https://ollama.com/")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ code: 200, status: 20000, data: null })
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({ code: 200, data: [{ title: "no url" }] })
    const shape = Server.failure(await search(["a"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("url")
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("JINA_API_KEY")
    expect(server.requests).toHaveLength(0)
  })
})

describe("Jina fetchUrls (Reader)", () => {
  const url = "https://example.com/test-article"

  it("posts { url } asking for markdown JSON with the Bearer key, and decodes the recorded answer", async () => {
    server.handle = Server.json(readerFixture.response.body)
    server.requests.length = 0
    const outcome = await fetch([url])
    const response = Server.success(outcome)
    const sent = server.requests[0]
    expect(sent.method).toBe("POST")
    expect(sent.path).toBe("/")
    expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
    expect(sent.headers.accept).toBe("application/json")
    expect(sent.headers["x-return-format"]).toBe("markdown")
    expect(sent.headers["x-retain-images"]).toBe("none")
    expect(sent.body).toEqual({ url })
    expect(response.results).toEqual([
      {
        title: "Test Article Title",
        content: "# Test Article\n\nSome content with no images.",
        url,
        sourceInput: url,
        publishedAt: "2026-01-15T10:00:00.000Z"
      }
    ])
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("keeps a URL with a query and a fragment whole, and reports the final URL Jina read", async () => {
    server.handle = Server.json({
      code: 200,
      status: 20000,
      data: { title: null, url: "https://example.com/final?id=1", content: "moved here", publishedTime: null }
    })
    server.requests.length = 0
    const asked = "https://example.com/start?id=1&x=%20y#part"
    const response = Server.success(await fetch([asked]))
    expect(server.requests[0].body).toEqual({ url: asked })
    expect(response.results[0]).toMatchObject({
      title: "https://example.com/final?id=1",
      url: "https://example.com/final?id=1",
      content: "moved here"
    })
  })

  it("maps the recorded 422 target error to RequestFailed for the page's status, with Jina's message", async () => {
    server.handle = Server.reply(422, readerError(422))
    const outcome = await fetch([url])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_404", input: url, providerId: "jina" })
    expect(error.message).toContain("Target URL returned error 404")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
    server.handle = Server.reply(422, { data: null, code: 422, readableMessage: "Something else went wrong" })
    expect(Server.failure(await fetch([url]))).toMatchObject({ reason: "http_status" })
  })

  it("fails a 200 answer whose warning says the page answered 4xx instead of returning the error page", async () => {
    server.handle = Server.json({
      code: 200,
      status: 20000,
      data: {
        title: "Just a moment...",
        url,
        content: "Checking your browser",
        warning: "Target URL returned error 403: Forbidden"
      }
    })
    const error = Server.failure(await fetch([url]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_403" })
    expect(error.message).toContain("Target URL returned error 403: Forbidden")
  })

  it("maps an empty page to ResponseInvalid/empty_content and Jina's envelope in a 200 answer to its error", async () => {
    server.handle = Server.json({ code: 200, status: 20000, data: { title: "t", url, content: "  \n " } })
    expect(Server.failure(await fetch([url]))).toMatchObject({ _tag: "ResponseInvalid", reason: "empty_content" })
    server.handle = Server.json(searchError(402))
    expect(Server.failure(await fetch([url]))).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited" })
  })

  it("reads keyless through the whole pipeline: no Authorization header when no key is configured", async () => {
    server.handle = Server.json(readerFixture.response.body)
    server.requests.length = 0
    const response = Server.success(await fetch([url], { keys: [] }))
    expect(response.results[0]).toMatchObject({ title: "Test Article Title", url })
    expect(server.requests[0].headers.authorization).toBeUndefined()
  })

  it("never sends an allowlisted private URL to Jina", async () => {
    server.requests.length = 0
    const outcome = await fetch([`${server.url}/internal`])
    expect(Server.failure(outcome)).toMatchObject({ _tag: "RequestFailed", reason: "ssrf_rejected" })
    expect(server.requests).toHaveLength(0)
  })
})

describe("Jina endpoints: one per capability", () => {
  let searchServer: Server.ProviderServer
  let readerServer: Server.ProviderServer
  beforeAll(async () => {
    searchServer = await Server.start(Server.json(searchFixture.response.body))
    readerServer = await Server.start(Server.json(readerFixture.response.body))
  })
  afterAll(async () => {
    await searchServer.close()
    await readerServer.close()
  })

  const twoHosts = (): Settings.SettingsInput => ({
    defaults: { searchKeywords: null, fetchUrls: null, research: null },
    providers: {
      jina: {
        apiKeys: [Server.canary],
        capabilities: {
          searchKeywords: { apiHost: searchServer.url },
          fetchUrls: { apiHost: readerServer.url }
        }
      }
    },
    urlPolicy: { allowHosts: [searchServer.hostPort, readerServer.hostPort] }
  })

  it("sends each capability only to its own endpoint", async () => {
    searchServer.requests.length = 0
    readerServer.requests.length = 0
    const found = await Effect.runPromise(
      ProviderChecks.check("jina").pipe(Effect.provide(Server.live(Jina.layer, twoHosts())))
    )
    expect(found.ok).toBe(true)
    expect(searchServer.requests).toHaveLength(1)
    expect(searchServer.requests[0].body).toMatchObject({ q: "test query" })
    expect(readerServer.requests).toHaveLength(1)
    // The check's input, as the pipeline normalised it.
    expect(readerServer.requests[0].body).toEqual({ url: "https://example.com/" })
  })

  it("checks each capability on its own endpoint and names the one that failed", async () => {
    readerServer.handle = Server.reply(503, { data: null, code: 503, name: "ServiceCrashedError", status: 50302 })
    try {
      const found = await Effect.runPromise(
        ProviderChecks.check("jina").pipe(Effect.provide(Server.live(Jina.layer, twoHosts())))
      )
      expect(found.ok).toBe(false)
      expect(found.capabilities.map((c) => [c.capability, c.ok])).toEqual([
        ["searchKeywords", true],
        ["fetchUrls", false]
      ])
      const failed = found.capabilities[1].error
      expect(failed).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx", capability: "fetchUrls" })
      expect(failed?.message).toMatch(/^fetchUrls check failed/)
      expect(failed?.message).toContain("ServiceCrashedError")
      expect(failed?.message).not.toContain("{")
    } finally {
      readerServer.handle = Server.json(readerFixture.response.body)
    }
  })

  it("defaults to s.jina.ai for search and r.jina.ai for the Reader, each overridable alone", async () => {
    const resolve = (input: Settings.SettingsInput) =>
      Effect.runPromise(endpoints.pipe(Effect.provide(composed(Settings.layer(input)))))
    expect(Jina.preset.capabilities).toEqual([
      { feature: "searchKeywords", apiHost: "https://s.jina.ai" },
      { feature: "fetchUrls", apiHost: "https://r.jina.ai" }
    ])
    expect(await resolve({})).toEqual(["https://s.jina.ai", "https://r.jina.ai"])
    expect(
      await resolve({ providers: { jina: { capabilities: { fetchUrls: { apiHost: "https://reader.example.org" } } } } })
    ).toEqual(["https://s.jina.ai", "https://reader.example.org"])
    expect(
      await resolve({ providers: { jina: { capabilities: { searchKeywords: { apiHost: "https://s.example.org" } } } } })
    ).toEqual(["https://s.example.org", "https://r.jina.ai"])
  })

  it("takes each endpoint from its own environment variable; JINA_API_HOST sets both and the per-capability one wins", async () => {
    // The per-provider variables are read for the composed providers when the registry is built.
    const load = (env: Record<string, string>) =>
      Effect.runPromise(
        endpoints.pipe(
          Effect.provide(
            composed(Settings.layerConfig().pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromJson(env)))))
          ),
          Effect.either
        )
      )
    expect(
      await load({
        JINA_SEARCH_KEYWORDS_API_HOST: "https://search.example.org",
        JINA_FETCH_URLS_API_HOST: "https://reader.example.org"
      })
    ).toEqual(Either.right(["https://search.example.org", "https://reader.example.org"]))
    // README: `<PROVIDER>_API_HOST` is every capability's endpoint (a self-hosted gateway serving both).
    expect(await load({ JINA_API_HOST: "https://one.example.org" })).toEqual(
      Either.right(["https://one.example.org", "https://one.example.org"])
    )
    expect(
      await load({ JINA_API_HOST: "https://one.example.org", JINA_FETCH_URLS_API_HOST: "https://reader.example.org" })
    ).toEqual(Either.right(["https://one.example.org", "https://reader.example.org"]))
  })
})
