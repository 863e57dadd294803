import * as RateLimiter from "@effect/experimental/RateLimiter"
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Authorization from "../src/internal/authorization.js"
import * as ServerConfig from "../src/ServerConfig.js"
import * as Support from "./support/server.js"

const otherToken = "second-token-fedcba9876543210"

const configProvider = ConfigProvider.fromMap(
  new Map([
    ["WEBSEARCH_API_TOKENS", " env-token-aaaaaaaaaaaa , env-token-bbbbbbbbbbbb ,"],
    ["WEBSEARCH_SERVER_MAX_BODY_BYTES", "2048"],
    ["WEBSEARCH_SERVER_RATE_LIMIT", "5"]
  ])
)

const searching = () => Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })

const settings = {
  defaults: { searchKeywords: "tavily" },
  providers: { tavily: { apiKeys: [Support.canaryKey] } }
} as const

const search = (base: string, headers: Record<string, string>) =>
  Effect.promise(() =>
    fetch(`${base}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ keywords: ["q"] })
    })
  )

describe("bearer-token auth", () => {
  const refusals: ReadonlyArray<readonly [string, Record<string, string>]> = [
    ["no Authorization header", {}],
    ["a wrong token", { authorization: "Bearer wrong-token-0123456789abcdef" }],
    ["a prefix of the token", { authorization: `Bearer ${Support.token.slice(0, -1)}` }],
    ["the token with a suffix", { authorization: `Bearer ${Support.token}x` }],
    ["another scheme", { authorization: `Basic ${Buffer.from(`u:${Support.token}`).toString("base64")}` }],
    ["an empty bearer", { authorization: "Bearer " }]
  ]
  for (const [name, headers] of refusals) {
    it.scoped(`${name} -> 401 with WWW-Authenticate: Bearer, and no provider call`, () =>
      Effect.gen(function* () {
        const { driver, recorder } = searching()
        const base = yield* Support.start({ tokens: [Support.token] }, Support.live([driver], settings))
        const response = yield* search(base, headers)
        expect(response.status).toBe(401)
        expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/)
        const body = (yield* Effect.promise(() => response.json())) as Record<string, unknown>
        expect(body._tag).toBe("Unauthorized")
        expect(JSON.stringify(body)).not.toContain(Support.token)
        expect(recorder.calls).toHaveLength(0)
      })
    )
  }

  it.scoped("every configured token is accepted, the scheme case-insensitively", () =>
    Effect.gen(function* () {
      const base = yield* Support.start(
        { tokens: [Support.token, Redacted.make(otherToken)] },
        Support.live([searching().driver], settings)
      )
      expect((yield* search(base, { authorization: `Bearer ${Support.token}` })).status).toBe(200)
      expect((yield* search(base, { authorization: `bearer ${otherToken}` })).status).toBe(200)
    })
  )

  it.scoped("the providers and check endpoints need the token too; /health, /openapi.json and /docs do not", () =>
    Effect.gen(function* () {
      const base = yield* Support.start({ tokens: [Support.token] }, Support.live([searching().driver], settings))
      expect((yield* Effect.promise(() => fetch(`${base}/v1/providers`))).status).toBe(401)
      expect((yield* Effect.promise(() => fetch(`${base}/v1/providers/tavily/check`, { method: "POST" }))).status).toBe(
        401
      )
      for (const path of ["/health", "/openapi.json", "/docs"]) {
        expect((yield* Effect.promise(() => fetch(`${base}${path}`))).status).toBe(200)
      }
    })
  )

  it.scoped("without a token the server refuses to start, naming the fix", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Support.start({}, Support.live([searching().driver], settings)))
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit) && exit.cause._tag === "Fail") {
        expect(exit.cause.error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
        expect(exit.cause.error.message).toContain("WEBSEARCH_API_TOKENS")
        expect(exit.cause.error.message).toContain("--insecure-no-auth")
      } else {
        expect.fail("expected a typed failure")
      }
    })
  )

  it.scoped("with insecureNoAuth it starts and serves without a token", () =>
    Effect.gen(function* () {
      const base = yield* Support.start({ insecureNoAuth: true }, Support.live([searching().driver], settings))
      expect((yield* search(base, {})).status).toBe(200)
    })
  )

  it.effect("short, empty or comma-carrying tokens are refused at start", () =>
    Effect.gen(function* () {
      for (const tokens of [["short"], [""], ["abcdefghijklmnop,qrstuvwxyz"]]) {
        const exit = yield* Effect.exit(ServerConfig.make({ tokens }))
        expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { reason: "invalid_config" } } })
        if (Exit.isFailure(exit)) expect(JSON.stringify(exit.cause)).not.toContain("abcdefghijklmnop")
      }
    })
  )

  it.effect("WEBSEARCH_API_TOKENS is read comma-separated and added to the option's tokens", () =>
    Effect.gen(function* () {
      const options = yield* ServerConfig.fromConfig({ tokens: [otherToken] })
      const config = yield* ServerConfig.make(options)
      expect(config.tokenDigests).toHaveLength(3)
      expect(Authorization.matches(ServerConfig.digest("env-token-aaaaaaaaaaaa"), config.tokenDigests)).toBe(true)
      expect(Authorization.matches(ServerConfig.digest(otherToken), config.tokenDigests)).toBe(true)
      expect(config.maxBodyBytes).toBe(2048)
      expect(config.rateLimit).toMatchObject({ _tag: "Some", value: { limit: 5 } })
    }).pipe(Effect.withConfigProvider(configProvider))
  )
})

describe("per-token rate limit", () => {
  it.scoped("a token over its quota gets 429 RequestFailed/rate_limited with Retry-After; others are unaffected", () =>
    Effect.gen(function* () {
      const { driver, recorder } = searching()
      const base = yield* Support.start(
        { tokens: [Support.token, otherToken], rateLimit: { limit: 2, window: "1 minute" } },
        Support.live([driver], settings)
      )
      const first = { authorization: `Bearer ${Support.token}` }
      expect((yield* search(base, first)).status).toBe(200)
      expect((yield* search(base, first)).status).toBe(200)
      const limited = yield* search(base, first)
      expect(limited.status).toBe(429)
      const seconds = Number(limited.headers.get("retry-after"))
      expect(seconds).toBeGreaterThan(0)
      expect(seconds).toBeLessThanOrEqual(60)
      expect(yield* Effect.promise(() => limited.json())).toMatchObject({
        _tag: "RequestFailed",
        reason: "rate_limited",
        retryable: true,
        retryAfter: seconds
      })
      expect(recorder.calls).toHaveLength(2)
      expect((yield* search(base, { authorization: `Bearer ${otherToken}` })).status).toBe(200)
    })
  )

  it.scoped("an unreachable quota store refuses with a retryable 502 rather than serving without limits", () =>
    Effect.gen(function* () {
      const broken = Layer.succeed(RateLimiter.RateLimiter, {
        [RateLimiter.TypeId]: RateLimiter.TypeId,
        consume: () => Effect.fail(new RateLimiter.RateLimitStoreError({ message: "redis down" }))
      })
      const base = yield* Support.start(
        { tokens: [Support.token] },
        Support.live([searching().driver], settings),
        broken
      )
      const response = yield* search(base, { authorization: `Bearer ${Support.token}` })
      expect(response.status).toBe(502)
      expect(yield* Effect.promise(() => response.json())).toMatchObject({ reason: "network", retryable: true })
    })
  )
})

describe("server settings", () => {
  it.effect.prop(
    "a token is accepted exactly when it has 16+ characters after trimming and no white space or comma inside",
    [FastCheck.string({ maxLength: 40, unit: FastCheck.constantFrom("a", "b", "Z", "9", "-", " ", ",", "\t") })],
    ([raw]) =>
      Effect.gen(function* () {
        const trimmed = raw.trim()
        const valid = trimmed.length >= 16 && !/[\s,]/.test(trimmed)
        const exit = yield* Effect.exit(ServerConfig.make({ tokens: [raw] }))
        expect(Exit.isSuccess(exit)).toBe(valid)
        // A refusal never repeats the token (long enough not to occur in any message by chance).
        if (Exit.isFailure(exit) && trimmed.length >= 8) expect(JSON.stringify(exit.cause)).not.toContain(trimmed)
      })
  )

  it.effect.prop(
    "maxBodyBytes is accepted exactly from 1 KiB to 16 MiB",
    [FastCheck.oneof(FastCheck.integer({ min: -10, max: 20 * 1024 * 1024 }), FastCheck.double())],
    ([bytes]) =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(ServerConfig.make({ insecureNoAuth: true, maxBodyBytes: bytes }))
        expect(Exit.isSuccess(exit)).toBe(Number.isSafeInteger(bytes) && bytes >= 1024 && bytes <= 16 * 1024 * 1024)
      })
  )
})

describe("token comparison", () => {
  const tokenArb = FastCheck.string({ minLength: 1, maxLength: 64 })
  it.prop(
    "a token matches exactly when it is one of the accepted tokens",
    [tokenArb, FastCheck.array(tokenArb, { maxLength: 5 })],
    ([candidate, accepted]) => {
      expect(Authorization.matches(ServerConfig.digest(candidate), accepted.map(ServerConfig.digest))).toBe(
        accepted.includes(candidate)
      )
    }
  )
})
