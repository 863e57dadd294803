import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import { WebSearchApi } from "../src/WebSearchApi.js"
import * as Support from "./support/server.js"

const settings = {
  defaults: { searchKeywords: "tavily", fetchUrls: "tavily" },
  providers: { tavily: { apiKeys: [Support.canaryKey] } }
} as const

const tavily = () =>
  Support.driver("tavily", {
    searchKeywords: (input) =>
      input === "fail"
        ? Effect.fail(WebSearchError.requestFailed("http_429", "quota exhausted", { retryAfter: 12 }))
        : Effect.succeed(Support.results(input, 2)),
    fetchUrls: (url) => Effect.succeed({ title: "Page", content: `Content of ${url}`, url })
  })

const client = (base: string, token = Support.token) =>
  HttpApiClient.make(WebSearchApi, {
    baseUrl: base,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
  })

describe("typed client derived from WebSearchApi", () => {
  it.scoped("calls every endpoint and decodes the answers", () =>
    Effect.gen(function* () {
      const base = yield* Support.start({ tokens: [Support.token] }, Support.live([tavily().driver], settings))
      const api = yield* client(base)
      const searched = yield* api.v1.search({ payload: { keywords: ["effect"], maxResults: 2 } })
      expect(searched.results.map((r) => r.title)).toEqual(["effect result 1", "effect result 2"])
      const fetched = yield* api.v1.fetch({ payload: { urls: ["https://a.example/"] } })
      expect(fetched.results[0].content).toBe("Content of https://a.example/")
      const providers = yield* api.v1.providers()
      expect(providers.find((p) => p.id === "tavily")).toMatchObject({
        apiKeys: 1,
        defaultFor: ["searchKeywords", "fetchUrls"]
      })
      const check = yield* api.v1.check({ path: { id: "tavily" } })
      expect(check.ok).toBe(true)
      expect(yield* api.system.health()).toEqual({ status: "ok" })
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

  it.scoped("server errors arrive as the typed websearch errors", () =>
    Effect.gen(function* () {
      const base = yield* Support.start({ tokens: [Support.token] }, Support.live([tavily().driver], settings))
      const api = yield* client(base)
      const limited = yield* Effect.flip(api.v1.search({ payload: { keywords: ["fail"] } }))
      expect(limited).toBeInstanceOf(WebSearchError.RequestFailed)
      expect(limited).toMatchObject({ reason: "http_429", retryAfter: 12, providerId: "tavily" })
      const unknown = yield* Effect.flip(api.v1.check({ path: { id: "nope" } }))
      expect(unknown).toBeInstanceOf(WebSearchError.Unavailable)
      expect(unknown).toMatchObject({ reason: "unknown_provider" })
      const research = yield* Effect.flip(api.v1.research({ payload: { query: "q", allowedDomains: [] } }))
      expect(research).toBeInstanceOf(WebSearchError.Unavailable)
      expect(research).toMatchObject({ reason: "no_default_provider" })
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

  it.scoped("a wrong token arrives as Unauthorized", () =>
    Effect.gen(function* () {
      const base = yield* Support.start({ tokens: [Support.token] }, Support.live([tavily().driver], settings))
      const api = yield* client(base, "not-the-token-0000000000")
      const refused = yield* Effect.flip(api.v1.providers())
      expect(refused).toMatchObject({ _tag: "Unauthorized" })
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )
})
