import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as GoogleSearch from "../src/GoogleSearch.js"
import * as GoogleSearchWire from "../src/internal/googleSearchWire.js"
import * as Server from "./support/providerServer.js"
import * as Traced from "./support/tracedSearch.js"

type Json = Server.FixtureJson

const fixture = Server.fixture<Json>("google_cse.json")
const engineId = fixture.request.query.cx as string
const googleError = (code: number, reason: string, message: string, status: string) => ({
  error: { code, message, errors: [{ message, domain: "global", reason }], status }
})

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const search = (keywords: ReadonlyArray<string>, options: Parameters<typeof Server.search>[4] = {}) =>
  Server.search(server, "google", GoogleSearch.layer, keywords, {
    capabilities: ["searchKeywords"],
    ...options,
    override: { engineId, ...options.override }
  })

describe("GoogleSearch searchKeywords", () => {
  it("sends key, cx, q and num in the query and decodes the recorded answer", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    const response = Server.success(await search(["lectures"], { maxResults: 3 }))
    const sent = server.requests[0]
    expect(sent.method).toBe("GET")
    expect(sent.path).toBe("/customsearch/v1")
    expect(Object.fromEntries(sent.query)).toEqual({ key: Server.canary, cx: engineId, q: "lectures", num: "3" })
    expect(response.results).toEqual(
      fixture.response.body.items.map((item: Json) => ({
        title: item.title,
        content: item.snippet,
        url: item.link,
        sourceInput: "lectures"
      }))
    )
    expect(response.query).toBe("lectures")
  })

  it("clamps num to Google's 10", async () => {
    server.handle = Server.json(fixture.response.body)
    server.requests.length = 0
    Server.success(await search(["a"], { maxResults: 50 }))
    expect(server.requests[0].query.get("num")).toBe("10")
  })

  it.prop(
    "num is always within 1..10 and equals maxResults inside that range",
    [FastCheck.integer({ min: -5, max: 200 })],
    ([n]) => {
      const num = Number(GoogleSearchWire.searchParams("q", n, "cx", "k").num)
      expect(num).toBeGreaterThanOrEqual(1)
      expect(num).toBeLessThanOrEqual(10)
      if (n >= 1 && n <= 10) expect(num).toBe(n)
    }
  )

  it("reads an absent items list as zero results, and totalResults as a string or a number", async () => {
    server.handle = Server.json({ kind: "customsearch#search", searchInformation: { totalResults: "0" } })
    expect(Server.success(await search(["nothing here"])).results).toEqual([])
    server.handle = Server.json({ searchInformation: { totalResults: 12 }, items: [fixture.response.body.items[0]] })
    expect(Server.success(await search(["a"])).results).toHaveLength(1)
  })

  it("falls back to the URL for a missing title and folds the snippet's line breaks", async () => {
    server.handle = Server.json({
      items: [{ link: "https://example.com/a", title: null, snippet: "line one\nline  two" }, { title: "no link" }]
    })
    // An item without a link is a decode failure: Google always sends one.
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    server.handle = Server.json({
      items: [{ link: "https://example.com/a", title: null, snippet: "line one\nline  two" }]
    })
    expect(Server.success(await search(["a"])).results[0]).toMatchObject({
      title: "https://example.com/a",
      content: "line one line two"
    })
  })

  it("fails with Unavailable/invalid_config naming the engine id setting before any request", async () => {
    server.requests.length = 0
    const outcome = await Server.search(server, "google", GoogleSearch.layer, ["a"], {
      capabilities: ["searchKeywords"]
    })
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config", providerId: "google" })
    expect(error.message).toContain("providers.google.engineId")
    expect(error.message).toContain("GOOGLE_ENGINE_ID")
    expect(server.requests).toHaveLength(0)
  })

  it("takes the engine id from GOOGLE_ENGINE_ID, read when the application starts, over the settings' one", async () => {
    server.handle = Server.json(fixture.response.body)
    const run = async (override: Record<string, unknown>) => {
      server.requests.length = 0
      const input = Server.settingsFor(server, "google", { capabilities: ["searchKeywords"], override })
      // The document with the per-provider variables of this environment, as `Settings.layerConfig()` reads them.
      const settings = Layer.effect(
        Settings.Settings,
        Settings.make(input, { source: "test", environment: true })
      ).pipe(
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["GOOGLE_ENGINE_ID", " cx-from-env "]]))))
      )
      const exit = await Effect.runPromise(
        Effect.exit(SearchKeywords.searchKeywords({ providerId: "google", keywords: ["lectures"] })).pipe(
          Effect.provide(
            WebSearch.layer(GoogleSearch.layer).pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.provide(settings))
          )
        )
      )
      expect(Exit.isSuccess(exit)).toBe(true)
      return server.requests.map((r) => r.query.get("cx"))
    }
    expect(await run({})).toEqual(["cx-from-env"])
    expect(await run({ engineId })).toEqual(["cx-from-env"])
  })

  it("fails with Unavailable/missing_credentials before any request when no key is set", async () => {
    server.requests.length = 0
    const error = Server.failure(await search(["a"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("GOOGLE_API_KEY")
    expect(server.requests).toHaveLength(0)
  })

  it("maps 429 rateLimitExceeded to RequestFailed/http_429 with Retry-After", async () => {
    server.handle = Server.reply(
      429,
      googleError(429, "rateLimitExceeded", "Rate Limit Exceeded", "RESOURCE_EXHAUSTED"),
      { "retry-after": "12" }
    )
    const outcome = await search(["a"])
    const error = Server.failure(outcome)
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryable: true, retryAfter: 12 })
    expect(error.message).toContain("Rate Limit Exceeded")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })

  it("maps the daily quota (403 dailyLimitExceeded, 403 quotaExceeded, 429 'per day') to rate_limited, not retryable", async () => {
    const bodies: ReadonlyArray<readonly [number, Json]> = [
      [403, googleError(403, "dailyLimitExceeded", "Daily Limit Exceeded", "PERMISSION_DENIED")],
      [403, googleError(403, "quotaExceeded", "Quota exceeded", "PERMISSION_DENIED")],
      [
        429,
        googleError(
          429,
          "rateLimitExceeded",
          "Quota exceeded for quota metric 'Queries' and limit 'Queries per day' of service 'customsearch.googleapis.com'",
          "RESOURCE_EXHAUSTED"
        )
      ]
    ]
    for (const [status, body] of bodies) {
      server.handle = Server.reply(status, body)
      const error = Server.failure(await search(["a"]))
      expect(error).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
      expect(error.message).toContain(body.error.message.slice(0, 20))
    }
  })

  it("maps any other 403, 401 and a 400 API_KEY_INVALID to Unavailable/credentials_rejected by key position", async () => {
    const invalidKey = {
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        errors: [
          { message: "API key not valid. Please pass a valid API key.", domain: "global", reason: "badRequest" }
        ],
        status: "INVALID_ARGUMENT",
        details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }]
      }
    }
    const cases: ReadonlyArray<readonly [number, Json, string]> = [
      [403, googleError(403, "forbidden", "The caller does not have permission", "PERMISSION_DENIED"), "permission"],
      [401, googleError(401, "unauthorized", "Request is missing credentials", "UNAUTHENTICATED"), "missing"],
      [400, invalidKey, "API key not valid"]
    ]
    const keys = ["AIza-first-key-0001", "AIza-second-key-0002"]
    for (const [status, body, said] of cases) {
      server.handle = Server.reply(status, body)
      const outcome = await search(["a"], { keys })
      const error = Server.failure(outcome)
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected", providerId: "google" })
      expect(error.message).toContain(said)
      expect(error.message).toMatch(/API key #[12] of 2/)
      expect(Server.visible(outcome)).not.toContain("AIza-first-key-0001")
      expect(Server.visible(outcome)).not.toContain("AIza-second-key-0002")
    }
  })

  it("keeps other 400s as RequestFailed/http_status with Google's message", async () => {
    server.handle = Server.reply(
      400,
      googleError(400, "invalid", "Request contains an invalid argument.", "INVALID_ARGUMENT")
    )
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status", retryable: false })
    expect(error.message).toContain("invalid argument")
  })

  it("reads an error envelope inside a 200 body as the error it is", async () => {
    server.handle = Server.json(googleError(200, "invalid", "Invalid Value", "INVALID_ARGUMENT"))
    const error = Server.failure(await search(["a"]))
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "http_status" })
    expect(error.message).toContain("Invalid Value")
    server.handle = Server.json(googleError(200, "dailyLimitExceeded", "Daily Limit Exceeded", "RESOURCE_EXHAUSTED"))
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited" })
  })

  it("maps 5xx to http_5xx and a non-JSON 200 to ResponseInvalid/decode_failed", async () => {
    server.handle = Server.reply(503, googleError(503, "backendError", "Backend Error", "UNAVAILABLE"))
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "RequestFailed", reason: "http_5xx" })
    server.handle = Server.html(200, "<html>sorry</html>")
    expect(Server.failure(await search(["a"]))).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
  })

  it("never shows the key when Google echoes it in an error message", async () => {
    server.handle = Server.reply(
      400,
      googleError(400, "invalid", `Bad request for key=${Server.canary}&cx=${engineId}`, "INVALID_ARGUMENT")
    )
    const outcome = await search(["a"])
    expect(Server.failure(outcome).message).toContain("[redacted]")
    expect(Server.visible(outcome)).not.toContain(Server.canary)
  })
})

describe("GoogleSearch keeps the key in the URL out of errors, logs and spans", () => {
  it("a refused connection fails with RequestFailed/network and no span, log or error holds the key", async () => {
    const port = await Traced.closedPort()
    const traced = await Traced.search(
      GoogleSearch.layer,
      "google",
      Traced.refusedSettings(server, "google", port, { engineId }),
      ["a"]
    )
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
      GoogleSearch.layer,
      "google",
      Server.settingsFor(server, "google", { capabilities: ["searchKeywords"], override: { engineId } }),
      ["lectures"]
    )
    expect(Exit.isSuccess(traced.exit)).toBe(true)
    expect(traced.spans.length).toBeGreaterThan(0)
    for (const span of traced.spans) expect(Traced.spanText(span)).not.toContain(Server.canary)
  })
})
