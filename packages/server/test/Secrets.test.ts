import { describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Support from "./support/server.js"

const password = "basic-canary-pw-93b1c0"

// Drivers that quote their credentials back in errors, as a careless provider or driver might.
const tavily = () =>
  Support.driver("tavily", {
    searchKeywords: (input, ctx) => {
      const key = ctx.apiKey._tag === "Some" ? Redacted.value(ctx.apiKey.value) : ""
      return input === "ok"
        ? Effect.succeed(Support.results(input))
        : Effect.fail(WebSearchError.requestFailed("http_403", `provider refused key ${key} for ${input}`))
    },
    fetchUrls: (_url, ctx) =>
      Effect.fail(
        WebSearchError.unavailable(
          "credentials_rejected",
          `rejected ${ctx.apiKey._tag === "Some" ? Redacted.value(ctx.apiKey.value) : ""}`
        )
      )
  })

const searxng = () =>
  Support.driver("searxng", {
    searchKeywords: (_input, ctx) =>
      Effect.fail(
        WebSearchError.requestFailed(
          "http_status",
          `basic auth ${ctx.provider.basicAuth._tag === "Some" ? Redacted.value(ctx.provider.basicAuth.value.password) : ""} refused`
        )
      )
  })

const headerText = (headers: Headers): string => {
  const lines: Array<string> = []
  headers.forEach((value, name) => lines.push(`${name}: ${value}`))
  return lines.join("\n")
}

const settings = {
  defaults: { searchKeywords: "tavily", fetchUrls: "tavily" },
  providers: {
    tavily: { apiKeys: [Support.canaryKey] },
    searxng: {
      basicAuthUsername: "user",
      basicAuthPassword: password,
      capabilities: { searchKeywords: { apiHost: "https://searx.example" } }
    }
  }
} as const

describe("no secret in any response", () => {
  it.scoped("API keys, basic-auth passwords and bearer tokens appear in no body or header", () =>
    Effect.gen(function* () {
      const base = yield* Support.start(
        { tokens: [Support.token], rateLimit: { limit: 11, window: "1 minute" }, maxBodyBytes: 2048 },
        Support.live([tavily().driver, searxng().driver], settings)
      )
      const auth = { authorization: `Bearer ${Support.token}` }
      const requests: ReadonlyArray<readonly [string, RequestInit]> = [
        ["/v1/search", { method: "POST", body: JSON.stringify({ keywords: ["ok"] }) }],
        ["/v1/search", { method: "POST", body: JSON.stringify({ keywords: ["bad", "ok"] }) }],
        ["/v1/search", { method: "POST", body: JSON.stringify({ keywords: ["bad"] }) }],
        ["/v1/search", { method: "POST", body: JSON.stringify({ providerId: "searxng", keywords: ["x"] }) }],
        ["/v1/fetch", { method: "POST", body: JSON.stringify({ urls: ["https://a.example/"] }) }],
        ["/v1/research", { method: "POST", body: JSON.stringify({ query: "q", allowedDomains: [] }) }],
        ["/v1/providers", { method: "GET" }],
        ["/v1/providers/tavily/check", { method: "POST" }],
        ["/v1/providers/searxng/check", { method: "POST" }],
        ["/v1/search", { method: "POST", body: "x".repeat(4096) }],
        ["/v1/search", { method: "POST", body: "{not json" }],
        ["/health", { method: "GET" }],
        ["/openapi.json", { method: "GET" }],
        ["/docs", { method: "GET" }]
      ]
      const seen: Array<string> = []
      const statuses: Array<number> = []
      for (const [path, init] of requests) {
        const response = yield* Effect.promise(() =>
          fetch(`${base}${path}`, { ...init, headers: { ...auth, "content-type": "application/json" } })
        )
        statuses.push(response.status)
        seen.push(headerText(response.headers), yield* Effect.promise(() => response.text()))
      }
      // Unauthenticated and over-quota answers too.
      for (const headers of [{}, { authorization: "Bearer wrong-token-0123456789abcdef" }, auth, auth, auth]) {
        const response = yield* Effect.promise(() =>
          fetch(`${base}/v1/search`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: JSON.stringify({ keywords: ["ok"] })
          })
        )
        statuses.push(response.status)
        seen.push(headerText(response.headers), yield* Effect.promise(() => response.text()))
      }
      // The requests above really took the error paths that could have leaked.
      expect(statuses).toEqual([
        200, 200, 502, 502, 503, 503, 200, 200, 200, 413, 400, 200, 200, 200, 401, 401, 429, 429, 429
      ])
      const everything = seen.join("\n")
      expect(everything).toContain("[redacted]")
      for (const secret of [Support.canaryKey, password, Support.token]) {
        expect(everything.includes(secret)).toBe(false)
      }
    })
  )
})
