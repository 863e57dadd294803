import { describe, expect, it } from "@effect/vitest"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Http from "../src/internal/providerHttp.js"
import * as Fields from "../src/internal/resultFields.js"

const key = "sk-test-key-0123456789"

const ctxOf = (credentials: "required" | "optional" | "none", keyed: boolean): ProviderDriver.DriverContext => ({
  provider: {
    id: "acme",
    name: "Acme",
    type: "api",
    credentials,
    capabilities: [{ feature: "searchKeywords" }],
    apiKeys: keyed ? [Redacted.make(key)] : [],
    engines: [],
    basicAuth: Option.none(),
    model: Option.none(),
    rateLimit: Option.none(),
    proxyUrl: Option.none(),
    options: undefined
  },
  capability: "searchKeywords",
  apiHost: Option.some("http://127.0.0.1:1"),
  apiKey: keyed ? Option.some(Redacted.make(key)) : Option.none(),
  apiKeyIndex: keyed ? Option.some(0) : Option.none(),
  searchOptions: {},
  maxResults: 10,
  timeout: Duration.seconds(10),
  options: undefined,
  // The wording under test never fetches a page.
  fetchUrls: () => Effect.die("fetchUrls is not part of these tests")
})

const callOf = (credentials: "required" | "optional" | "none", keyed: boolean) =>
  Http.call({ id: "acme", name: "Acme" }, "searchKeywords", "q", ctxOf(credentials, keyed))

describe("Http.failure wording", () => {
  it("blames the key when the call carried one", () => {
    const c = callOf("required", true)
    const limited = Http.failure(c, { kind: "rate_limited", status: 429, retryAfter: 3 })
    expect(limited).toMatchObject({ _tag: "RequestFailed", reason: "http_429", retryAfter: 3 })
    expect(limited.message).toBe("Acme is rate limiting the API key (HTTP 429)")
    const refused = Http.failure(c, { kind: "credentials", status: 401, message: "bad key" })
    expect(refused).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(refused.message).toBe(
      "Acme rejected the API key (HTTP 401): bad key; check providers.acme.apiKeys or ACME_API_KEY"
    )
  })

  it("speaks of this client when no key was sent (none configured, or a provider that takes none)", () => {
    for (const c of [callOf("optional", false), callOf("none", true)]) {
      const limited = Http.failure(c, { kind: "rate_limited", status: "slow_down", hint: "wait" })
      expect(limited).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited" })
      expect(limited.message).toBe("Acme is rate limiting this client (code slow_down); wait")
      const refused = Http.failure(c, { kind: "credentials", status: 403, message: "denied", hint: "set a key" })
      expect(refused).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
      expect(refused.message).toBe("Acme refused the call (HTTP 403): denied; set a key")
      expect(refused.message).not.toContain("API key")
    }
  })
})

describe("Http.answerMessage", () => {
  const answer = (text: string, type?: string): Http.Answer => ({
    status: 500,
    headers: type === undefined ? {} : { "content-type": type },
    text
  })

  it("prefers the JSON message, keeps plain text, drops HTML pages and blank bodies", () => {
    expect(Http.answerMessage(answer('{"error":{"message":"boom"}}'), { error: { message: "boom" } })).toBe("boom")
    expect(Http.answerMessage(answer("upstream timed out", "text/plain"), undefined)).toBe("upstream timed out")
    expect(Http.answerMessage(answer("  <html>oops</html>"), undefined)).toBeUndefined()
    expect(Http.answerMessage(answer("Bad gateway", "text/html; charset=utf-8"), undefined)).toBeUndefined()
    expect(Http.answerMessage(answer(" \n "), undefined)).toBeUndefined()
  })
})

describe("Fields.page", () => {
  const input = "https://example.com/asked"
  const text = FastCheck.string({ maxLength: 40 })
  const urlLike = FastCheck.oneof(
    FastCheck.constant(undefined),
    FastCheck.constant(null),
    FastCheck.constantFrom("", "not a url", "ftp://example.com/x", "javascript:alert(1)"),
    FastCheck.webUrl({ validSchemes: ["http", "https"] })
  )

  it.prop(
    "always yields an http(s) page: the provider's URL when usable, else the URL asked for, with its fields",
    [FastCheck.option(text, { nil: undefined }), FastCheck.option(text, { nil: undefined }), urlLike],
    ([title, content, url]) => {
      const page = Fields.page(input, { title, content, url })
      const own = Fields.httpUrl(url)
      expect(page.url).toBe(own ?? input)
      expect(page.content).toBe((content ?? "").trim())
      const trimmed = (title ?? "").trim()
      expect(page.title).toBe(trimmed === "" ? page.url : trimmed)
    }
  )
})
