/**
 * The MCP HTTP endpoint's per-token limits: a token past its request rate, or with as many requests in progress as
 * it may have, is refused with 429, a Retry-After header and a JSON-RPC error saying which limit and when to come
 * back; another token is served meanwhile; the rate's window passing, or the token's requests ending, lets it in
 * again. Bad limits are refused when the layer is built, naming the setting.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import * as WebSearchMcp from "../src/WebSearchMcp.js"
import { drivers } from "./support/fixtures.js"
import { serveHttp } from "./support/mcpServer.js"

const tokens = ["limited-token-0123456789", "another-token-0123456789"]

const serve = (security: WebSearchMcp.HttpSecurity, fetchUrls?: (url: string) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const fetchDriver = drivers().drivers.find((d) => d.preset.id === "fetch")!
    const live = WebSearch.layer(
      ProviderRegistry.register({
        ...fetchDriver,
        fetchUrls: (url, ctx) => Effect.zipRight(fetchUrls?.(url) ?? Effect.void, fetchDriver.fetchUrls!(url, ctx))
      }),
      ProviderRegistry.proposeDefaults("test", { fetchUrls: "fetch" })
    ).pipe(Layer.provideMerge(Settings.layer({ defaults: { research: null } })))
    return (yield* serveHttp({ tokens, ...security }, live)).url
  })

const post = (url: string, token: string, message: Record<string, unknown>) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message })
    })
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() }
  })

const ping = { method: "ping" }

describe("the MCP HTTP endpoint's per-token limits", () => {
  it.scoped("past its request rate a token gets 429 with Retry-After; another token is served; the window resets", () =>
    Effect.gen(function* () {
      const url = yield* serve({ rateLimit: { limit: 3, window: "1 minute" } })
      for (let i = 0; i < 3; i++) expect((yield* post(url, tokens[0], ping)).status).toBe(200)
      const refused = yield* post(url, tokens[0], ping)
      expect(refused.status).toBe(429)
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1)
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60)
      expect(JSON.parse(refused.body)).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32000,
          message: `Too Many Requests: this caller made more than 3 requests in 1m; retry after ${refused.retryAfter} s`
        }
      })
      expect((yield* post(url, tokens[1], ping)).status).toBe(200)
      yield* TestClock.adjust("1 minute")
      expect((yield* post(url, tokens[0], ping)).status).toBe(200)
    })
  )

  it.scoped("with as many requests in progress as it may have, a token's next is 429; another token's is served", () =>
    Effect.gen(function* () {
      const latch = yield* Effect.makeLatch(false)
      let started = 0
      const url = yield* serve({ maxConcurrentRequests: 2 }, () =>
        Effect.zipRight(
          Effect.sync(() => void started++),
          latch.await
        )
      )
      const fetchCall = (token: string, page: string) =>
        post(url, token, { method: "tools/call", params: { name: "web_fetch", arguments: { items: [{ url: page }] } } })
      const running = yield* Effect.forEach(["https://a.example/1", "https://a.example/2"], (page) =>
        Effect.fork(fetchCall(tokens[0], page))
      )
      while (started < 2) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
      const refused = yield* post(url, tokens[0], ping)
      expect([refused.status, refused.retryAfter]).toEqual([429, "1"])
      expect(JSON.parse(refused.body).error.message).toBe(
        "Too Many Requests: this caller has 2 requests in progress; retry after 1 s"
      )
      expect((yield* post(url, tokens[1], ping)).status).toBe(200)
      yield* latch.open
      for (const fiber of running) expect((yield* fiber.await)._tag).toBe("Success")
      expect((yield* post(url, tokens[0], ping)).status).toBe(200)
    })
  )

  it.effect("bad limits are refused, naming the setting", () =>
    Effect.gen(function* () {
      const message = (security: WebSearchMcp.HttpSecurity) =>
        Effect.map(Effect.flip(WebSearchMcp.makeHttpSecurity(security)), (e) => e.message)
      expect(yield* message({ rateLimit: { limit: -1, window: "1 minute" } })).toContain("rateLimit.limit")
      expect(yield* message({ rateLimit: { limit: 5, window: "10 millis" } })).toContain("rateLimit.window")
      expect(yield* message({ maxConcurrentRequests: 0 })).toContain("maxConcurrentRequests")
      expect(yield* message({ sessions: { maxPerToken: 0 } })).toContain("sessions.maxPerToken")
      expect(yield* message({ sessions: { idleTimeout: "forever" as never } })).toContain("sessions.idleTimeout")
      expect(yield* message({ sessions: { maxBytes: 10, maxSessionBytes: 20 } })).toContain("sessions.maxSessionBytes")
      expect(
        yield* message({ tokens: [{ token: "a-long-enough-token-0123", workspace: "Not A Workspace" }] })
      ).toContain("workspace")
      expect(
        yield* message({
          tokens: [
            { token: "a-long-enough-token-0123", workspace: "acme" },
            { token: "a-long-enough-token-0123", workspace: "beta" }
          ]
        })
      ).toContain("different workspaces")
      // Turned off: no limit at all.
      const off = yield* WebSearchMcp.makeHttpSecurity({ rateLimit: false })
      expect(off.rateLimit._tag).toBe("None")
    })
  )
})
