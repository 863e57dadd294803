import { describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as ErrorStatus from "../src/ErrorStatus.js"
import * as EndpointErrors from "../src/internal/endpointErrors.js"
import * as Support from "./support/server.js"

const failing = (error: WebSearchError.WebSearchError) =>
  Support.driver("tavily", { searchKeywords: () => Effect.fail(error) })

const settings = {
  defaults: { searchKeywords: "tavily" },
  providers: { tavily: { apiKeys: [Support.canaryKey] } }
} as const

const statusFor = (error: WebSearchError.WebSearchError) =>
  Effect.gen(function* () {
    const base = yield* Support.start({ tokens: [Support.token] }, Support.live([failing(error).driver], settings))
    const response = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: ["q"] }))
    const body = (yield* Effect.promise(() => response.json())) as Record<string, unknown>
    return { status: response.status, body, headers: response.headers }
  })

describe("error statuses over HTTP", () => {
  const cases: ReadonlyArray<readonly [string, WebSearchError.WebSearchError, number]> = [
    ["Unavailable", WebSearchError.unavailable("credentials_rejected", "the key was rejected"), 503],
    ["RequestFailed/timeout", WebSearchError.requestFailed("timeout", "no answer in 20 s"), 504],
    ["RequestFailed/network", WebSearchError.requestFailed("network", "connection reset"), 502],
    ["RequestFailed/http_5xx", WebSearchError.requestFailed("http_5xx", "the provider answered 503"), 502],
    ["RequestFailed/too_large (provider)", WebSearchError.requestFailed("too_large", "page over 5 MiB"), 502],
    ["RequestFailed/rate_limited", WebSearchError.requestFailed("rate_limited", "quota", { retryAfter: 30 }), 429],
    ["ResponseInvalid", WebSearchError.responseInvalid("decode_failed", "not JSON"), 502],
    ["Aborted", WebSearchError.aborted("cancelled upstream"), 499]
  ]
  for (const [name, error, status] of cases) {
    it.scoped(`${name} -> ${status} with the typed error body`, () =>
      Effect.gen(function* () {
        const answer = yield* statusFor(error)
        expect(answer.status).toBe(status)
        // The pipeline annotates the provider, capability and input; tag and reason are the driver's.
        expect(answer.body).toMatchObject({
          _tag: error._tag,
          reason: error.reason,
          retryable: error.retryable,
          providerId: "tavily",
          capability: "searchKeywords",
          input: "q"
        })
        expect(String(answer.body.message)).toContain(error.message)
        if (error.retryAfter !== undefined) expect(answer.headers.get("retry-after")).toBe(String(error.retryAfter))
        else expect(answer.headers.get("retry-after")).toBeNull()
      })
    )
  }

  it.scoped("no default provider -> 503 Unavailable/no_default_provider", () =>
    Effect.gen(function* () {
      const base = yield* Support.start(
        { tokens: [Support.token] },
        Support.live([], { defaults: { searchKeywords: null } })
      )
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: ["q"] }))
      expect(response.status).toBe(503)
      expect(yield* Effect.promise(() => response.json())).toMatchObject({
        _tag: "Unavailable",
        reason: "no_default_provider"
      })
    })
  )

  it.scoped("unknown provider in a check -> 503 Unavailable/unknown_provider", () =>
    Effect.gen(function* () {
      const base = yield* Support.start({ tokens: [Support.token] }, Support.live([], {}))
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/providers/nope/check`, {}))
      expect(response.status).toBe(503)
      expect(yield* Effect.promise(() => response.json())).toMatchObject({
        _tag: "Unavailable",
        reason: "unknown_provider"
      })
    })
  )

  const badBodies: ReadonlyArray<readonly [string, string, Record<string, string>, string]> = [
    ["not JSON", "{keywords:", {}, "not valid JSON"],
    ["empty", "", {}, "empty"],
    ["a JSON array", "[1,2]", {}, "invalid searchKeywords request"],
    ["an unknown field", JSON.stringify({ keywords: ["a"], depth: 3 }), {}, "depth"],
    ["too many keywords", JSON.stringify({ keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }), {}, "20"],
    ["maxResults out of range", JSON.stringify({ keywords: ["a"], maxResults: 500 }), {}, "maxResults"],
    ["a form body", "keywords=a", { "content-type": "application/x-www-form-urlencoded" }, "Content-Type"]
  ]
  for (const [name, body, headers, mention] of badBodies) {
    it.scoped(`a body that is ${name} -> 400 RequestFailed/invalid_input`, () =>
      Effect.gen(function* () {
        const { driver, recorder } = Support.driver("tavily", {
          searchKeywords: (input) => Effect.succeed(Support.results(input))
        })
        const base = yield* Support.start({ tokens: [Support.token] }, Support.live([driver], settings))
        const response = yield* Effect.promise(() => Support.post(`${base}/v1/search`, body, headers))
        expect(response.status).toBe(400)
        const answer = (yield* Effect.promise(() => response.json())) as Record<string, unknown>
        expect(answer).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input", retryable: false })
        expect(String(answer.message)).toContain(mention)
        expect(recorder.calls).toHaveLength(0)
      })
    )
  }

  it.scoped("an invalid URL in /v1/fetch -> 400 naming the URL, before any provider call", () =>
    Effect.gen(function* () {
      const { driver, recorder } = Support.driver("tavily", {
        fetchUrls: (url) => Effect.succeed({ title: "t", content: "c", url })
      })
      const base = yield* Support.start(
        { tokens: [Support.token] },
        Support.live([driver], { ...settings, defaults: { fetchUrls: "tavily" } })
      )
      const response = yield* Effect.promise(() =>
        Support.post(`${base}/v1/fetch`, { urls: ["https://ok.example/", "ftp://files.example/x"] })
      )
      expect(response.status).toBe(400)
      const answer = (yield* Effect.promise(() => response.json())) as Record<string, unknown>
      expect(String(answer.message)).toContain("ftp")
      expect(recorder.calls).toHaveLength(0)
    })
  )
})

const reasons = {
  Unavailable: WebSearchError.UnavailableReason.literals,
  // method_not_allowed is the router's answer (405 with Allow) to a path asked with another method, never an
  // endpoint's: no endpoint declares it (Endpoints.test.ts checks that answer).
  RequestFailed: WebSearchError.RequestFailedReason.literals.filter((reason) => reason !== "method_not_allowed"),
  ResponseInvalid: WebSearchError.ResponseInvalidReason.literals,
  Aborted: WebSearchError.AbortedReason.literals
}

const anyError: FastCheck.Arbitrary<WebSearchError.WebSearchError> = FastCheck.oneof(
  ...(Object.keys(reasons) as Array<keyof typeof reasons>).map((tag) =>
    FastCheck.record({
      reason: FastCheck.constantFrom(...reasons[tag]),
      providerId: FastCheck.option(FastCheck.constantFrom("tavily", "exa"), { nil: undefined }),
      retryAfter: FastCheck.option(FastCheck.integer({ min: 1, max: 3600 }), { nil: undefined }),
      message: FastCheck.string()
    }).map(({ reason, providerId, retryAfter, message }): WebSearchError.WebSearchError => {
      const ctx = { providerId, retryAfter }
      switch (tag) {
        case "Unavailable":
          return WebSearchError.unavailable(reason as WebSearchError.UnavailableReason, message, ctx)
        case "RequestFailed":
          return WebSearchError.requestFailed(reason as WebSearchError.RequestFailedReason, message, ctx)
        case "ResponseInvalid":
          return WebSearchError.responseInvalid(reason as WebSearchError.ResponseInvalidReason, message, ctx)
        case "Aborted":
          return WebSearchError.aborted(message, ctx)
      }
    })
  )
)

// Every status schema of a websearch error: the capability ones and the management routes' 404 and 409.
const statusSchemas = [...EndpointErrors.capabilityErrors, ErrorStatus.NotFound, ErrorStatus.Conflict]

describe("ErrorStatus", () => {
  it.prop("every error matches exactly one status schema, the one for its status", [anyError], ([error]) => {
    const matching = statusSchemas.filter((schema) =>
      Either.isRight(Schema.encodeEither(schema as Schema.Schema<WebSearchError.WebSearchError, unknown>)(error))
    )
    expect(matching).toHaveLength(1)
    expect(matching[0]).toBe(
      {
        400: ErrorStatus.InvalidInput,
        413: ErrorStatus.PayloadTooLarge,
        429: ErrorStatus.RateLimited,
        499: ErrorStatus.AbortedError,
        502: error._tag === "ResponseInvalid" ? ErrorStatus.ResponseInvalidError : ErrorStatus.UpstreamFailed,
        503: ErrorStatus.UnavailableError,
        504: ErrorStatus.Timeout,
        404: ErrorStatus.NotFound,
        409: ErrorStatus.Conflict
      }[ErrorStatus.statusOf(error)]
    )
  })

  it.prop("the wire body decodes back to the same error through the status schema", [anyError], ([error]) => {
    const schema = statusSchemas.find((s) =>
      Either.isRight(Schema.encodeEither(s as Schema.Schema<WebSearchError.WebSearchError, unknown>)(error))
    ) as Schema.Schema<WebSearchError.WebSearchError, unknown>
    const wire = JSON.parse(JSON.stringify(Schema.encodeSync(schema)(error))) as unknown
    expect(Schema.decodeUnknownSync(schema)(wire)).toEqual(error)
  })

  it("maps the documented statuses", () => {
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("invalid_input", "x"))).toBe(400)
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("too_large", "body"))).toBe(413)
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("too_large", "page", { providerId: "fetch" }))).toBe(502)
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("http_429", "x"))).toBe(429)
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("timeout", "x"))).toBe(504)
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("ssrf_rejected", "x"))).toBe(502)
    expect(ErrorStatus.statusOf(WebSearchError.unavailable("unknown_provider", "x"))).toBe(503)
    expect(ErrorStatus.statusOf(WebSearchError.responseInvalid("no_evidence", "x"))).toBe(502)
    expect(ErrorStatus.statusOf(WebSearchError.aborted("x"))).toBe(499)
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("not_found", "x"))).toBe(404)
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("conflict", "x"))).toBe(409)
    expect(ErrorStatus.statusOf(WebSearchError.requestFailed("method_not_allowed", "x"))).toBe(405)
  })
})
