import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as WebSearchError from "../src/WebSearchError.js"

const context = FastCheck.record(
  {
    providerId: FastCheck.string(),
    capability: FastCheck.constantFrom("searchKeywords" as const, "fetchUrls" as const, "research" as const),
    input: FastCheck.string(),
    retryAfter: FastCheck.double({ noNaN: true, min: 0, max: 1e6 })
  },
  { requiredKeys: [] }
)

describe("WebSearchError", () => {
  it.prop(
    "constructors accept any context (whatever id a caller asked for) and the JSON form decodes back",
    [context, FastCheck.string()],
    ([ctx, message]) => {
      const errors = [
        WebSearchError.unavailable("unknown_provider", message, ctx),
        WebSearchError.requestFailed("timeout", message, ctx),
        WebSearchError.responseInvalid("decode_failed", message, ctx),
        WebSearchError.aborted(message, ctx)
      ]
      for (const error of errors) {
        const json = JSON.parse(JSON.stringify(WebSearchError.toJson(error)))
        const decoded = Schema.decodeUnknownSync(WebSearchError.WebSearchError)(json)
        expect(decoded._tag).toBe(error._tag)
        expect(decoded.reason).toBe(error.reason)
        expect(decoded.message).toBe(message)
        expect(decoded.providerId).toBe(ctx.providerId)
        expect(WebSearchError.isWebSearchError(decoded)).toBe(true)
      }
    }
  )

  it("retryable follows the reason for request failures unless given", () => {
    expect(WebSearchError.requestFailed("http_429", "x").retryable).toBe(true)
    expect(WebSearchError.requestFailed("http_404", "x").retryable).toBe(false)
    expect(WebSearchError.requestFailed("http_status", "x", { retryable: true }).retryable).toBe(true)
    expect(WebSearchError.unavailable("invalid_config", "x").retryable).toBe(false)
  })

  it("annotate keeps the class and reason, fills missing context and keeps what the error had", () => {
    const error = WebSearchError.requestFailed("network", "reset", { input: "driver's own input" })
    const annotated = WebSearchError.annotate(error, { providerId: "tavily", capability: "searchKeywords", input: "q" })
    expect(annotated).toBeInstanceOf(WebSearchError.RequestFailed)
    expect([annotated.reason, annotated.providerId, annotated.input]).toEqual([
      "network",
      "tavily",
      "driver's own input"
    ])
  })

  it("scrub removes every secret from the message, input and failures", () => {
    const secret = "sk-live-0123456789"
    const error = WebSearchError.annotate(WebSearchError.requestFailed("http_403", `key ${secret} rejected`), {
      input: `https://x.example/?key=${secret}`,
      failures: [
        new WebSearchError.InputFailure({
          input: secret,
          _tag: "RequestFailed",
          reason: "http_403",
          retryable: false,
          message: `bad ${secret}`
        })
      ]
    })
    const clean = WebSearchError.scrub(error, [secret])
    expect(JSON.stringify(WebSearchError.toJson(clean))).not.toContain(secret)
    expect(String(clean)).not.toContain(secret)
    expect(clean.message).toBe("key [redacted] rejected")
  })
  it("isWebSearchError recognises the four errors by their TypeId, not by their shape", () => {
    const errors = [
      WebSearchError.unavailable("unknown_provider", "m"),
      WebSearchError.requestFailed("timeout", "m"),
      WebSearchError.responseInvalid("decode_failed", "m"),
      WebSearchError.aborted("m")
    ]
    for (const error of errors) {
      expect(WebSearchError.isWebSearchError(error)).toBe(true)
      expect(error[WebSearchError.TypeId]).toBe(WebSearchError.TypeId)
      // A plain object of the same shape (a JSON body, another library's error) is not one of ours...
      expect(WebSearchError.isWebSearchError(JSON.parse(JSON.stringify(WebSearchError.toJson(error))))).toBe(false)
      // ...and the mark is not an own field: nothing on the wire or in an equality check changes.
      expect(Object.getOwnPropertySymbols(error)).not.toContain(WebSearchError.TypeId)
    }
    for (const other of [null, undefined, "RequestFailed", new Error("m"), { _tag: "Aborted", reason: "interrupted" }])
      expect(WebSearchError.isWebSearchError(other)).toBe(false)
  })

  it("InputFailure keeps its wire form: the input error's tag and reason, and only a reason that tag has", () => {
    const failure = WebSearchError.toInputFailure(
      "q",
      WebSearchError.requestFailed("http_429", "slow down", { retryAfter: 30 })
    )
    const json = Schema.encodeSync(WebSearchError.InputFailure)(failure)
    expect(json).toEqual({
      input: "q",
      _tag: "RequestFailed",
      reason: "http_429",
      retryable: true,
      retryAfter: 30,
      message: "slow down"
    })
    expect(Schema.decodeUnknownSync(WebSearchError.InputFailure)(json)).toBeInstanceOf(WebSearchError.InputFailure)
    const decode = Schema.decodeUnknownEither(WebSearchError.InputFailure)
    expect(decode({ ...json, reason: "not_a_reason" })._tag).toBe("Left")
    // A real reason, but another error's.
    expect(decode({ ...json, _tag: "Unavailable" })._tag).toBe("Left")
    expect(decode({ ...json, _tag: "Aborted", reason: "interrupted" })._tag).toBe("Right")
  })

  it("scrub redacts a secret in each form a remote party may echo it in", () => {
    const secret = "sk live/0123+456"
    const error = WebSearchError.requestFailed(
      "http_403",
      `key ${encodeURIComponent(secret)} or ${btoa(secret)} or ${secret.toUpperCase()} rejected`
    )
    expect(WebSearchError.scrub(error, [secret]).message).toBe("key [redacted] or [redacted] or [redacted] rejected")
  })
})
