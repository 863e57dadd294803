import { describe, expect, it } from "@effect/vitest"
import * as ResultCache from "@websearch/core/ResultCache"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Support from "./support/server.js"

const tavily = () =>
  Support.driver("tavily", {
    searchKeywords: (input) => Effect.succeed(Support.results(input, 2)),
    // A page read by a fetcher that says what kind of page it was (the local one does), and one that does not.
    fetchUrls: (url) =>
      Effect.succeed({
        title: `Page ${url}`,
        content: `Content of ${url}`,
        url,
        ...(url.endsWith("/x") ? { pageType: "forum" as const } : {})
      })
  })

const openai = Support.researcher

const settings = {
  defaults: { searchKeywords: "tavily", fetchUrls: "tavily", research: "openai" },
  providers: { tavily: { apiKeys: [Support.canaryKey] }, openai: { apiKeys: [Support.canaryKey] } }
} as const

// Settings may only name composed providers: without the openai driver, research has no default.
const settingsFor = (drivers: ReadonlyArray<{ readonly preset: { readonly id: string } }>) =>
  drivers.some((d) => d.preset.id === "openai")
    ? settings
    : {
        defaults: { searchKeywords: "tavily", fetchUrls: "tavily", research: null },
        providers: { tavily: { apiKeys: [Support.canaryKey] } }
      }

const serve = (drivers = [tavily().driver, openai().driver]) =>
  Support.start({ tokens: [Support.token] }, Support.live(drivers, settingsFor(drivers)))

const json = (response: Response) => Effect.promise(() => response.json() as Promise<Record<string, unknown>>)

describe("endpoints over HTTP", () => {
  it.scoped("POST /v1/search answers a WebSearchResponse from the default provider", () =>
    Effect.gen(function* () {
      const { driver, recorder } = tavily()
      const base = yield* serve([driver])
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: [" effect ", "ts"] }))
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toContain("application/json")
      const body = yield* json(response)
      expect(body).toMatchObject({
        providerId: "tavily",
        capability: "searchKeywords",
        inputs: ["effect", "ts"],
        query: "effect | ts",
        failures: []
      })
      expect((body.results as Array<{ sourceInput: string }>).map((r) => r.sourceInput)).toEqual([
        "effect",
        "effect",
        "ts",
        "ts"
      ])
      expect(recorder.calls.map((c) => c.input)).toEqual(["effect", "ts"])
    })
  )

  it.scoped("POST /v1/search honours providerId and maxResults", () =>
    Effect.gen(function* () {
      const { driver, recorder } = Support.driver("exa", {
        searchKeywords: (input, ctx) => Effect.succeed(Support.results(input, ctx.maxResults))
      })
      const base = yield* Support.start(
        { tokens: [Support.token] },
        Support.live([driver], { providers: { exa: { apiKeys: ["exa-key-123456"] } } })
      )
      const response = yield* Effect.promise(() =>
        Support.post(`${base}/v1/search`, { providerId: "exa", keywords: ["q"], maxResults: 3 })
      )
      expect(response.status).toBe(200)
      const body = yield* json(response)
      expect(body.providerId).toBe("exa")
      expect(body.results).toHaveLength(3)
      expect(recorder.calls).toHaveLength(1)
    })
  )

  it.scoped("POST /v1/fetch answers the pages of the URLs", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      const response = yield* Effect.promise(() =>
        Support.post(`${base}/v1/fetch`, { urls: ["https://a.example/x", "https://b.example/y"] })
      )
      expect(response.status).toBe(200)
      const body = yield* json(response)
      expect(body).toMatchObject({ capability: "fetchUrls", inputs: ["https://a.example/x", "https://b.example/y"] })
      expect((body.results as Array<{ title: string }>).map((r) => r.title)).toEqual([
        "Page https://a.example/x",
        "Page https://b.example/y"
      ])
      expect((body.results as Array<{ pageType?: string }>).map((r) => r.pageType)).toEqual(["forum", undefined])
    })
  )

  it.scoped("POST /v1/research answers a ResearchResponse", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      const response = yield* Effect.promise(() =>
        Support.post(`${base}/v1/research`, { query: "  capital of France  ", allowedDomains: ["Wikipedia.org"] })
      )
      expect(response.status).toBe(200)
      const body = yield* json(response)
      expect(body).toMatchObject({
        providerId: "openai",
        query: "capital of France",
        report: "A report on capital of France",
        sources: [{ title: "Source", url: "https://source.example/1" }]
      })
    })
  )

  it.scoped("GET /v1/providers describes the composed providers and defaults, with key counts only", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      const response = yield* Effect.promise(() =>
        fetch(`${base}/v1/providers`, { headers: { authorization: `Bearer ${Support.token}` } })
      )
      expect(response.status).toBe(200)
      const rows = (yield* Effect.promise(() => response.json())) as Array<Record<string, unknown>>
      const byId = new Map(rows.map((r) => [r.id, r]))
      expect(byId.get("tavily")).toMatchObject({
        apiKeys: 1,
        defaultFor: ["searchKeywords", "fetchUrls"]
      })
      expect(byId.get("openai")).toMatchObject({ apiKeys: 1, defaultFor: ["research"] })
      // Only composed providers are listed.
      expect(rows.map((r) => r.id)).toEqual(["tavily", "openai"])
    })
  )

  it.scoped("POST /v1/providers/{id}/check runs every capability of the provider", () =>
    Effect.gen(function* () {
      const { driver, recorder } = tavily()
      const base = yield* serve([driver])
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/providers/tavily/check`, {}))
      expect(response.status).toBe(200)
      const body = yield* json(response)
      expect(body).toMatchObject({
        providerId: "tavily",
        ok: true,
        capabilities: [
          { capability: "searchKeywords", ok: true, results: 2 },
          { capability: "fetchUrls", ok: true, results: 1 }
        ]
      })
      expect(recorder.calls.map((c) => c.input)).toEqual(["test query", "https://example.com/"])
    })
  )

  it.scoped("a failing capability is reported inside a 200 check with its typed error", () =>
    Effect.gen(function* () {
      const { driver } = Support.driver("tavily", {
        searchKeywords: () => Effect.fail(WebSearchError.unavailable("credentials_rejected", "Tavily refused the key")),
        fetchUrls: () => Effect.fail(WebSearchError.requestFailed("http_5xx", "Tavily answered 503"))
      })
      const base = yield* serve([driver])
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/providers/tavily/check`, {}))
      expect(response.status).toBe(200)
      const body = yield* json(response)
      expect(body.ok).toBe(false)
      expect(body.capabilities).toMatchObject([
        { capability: "searchKeywords", ok: false, error: { _tag: "Unavailable", reason: "credentials_rejected" } },
        { capability: "fetchUrls", ok: false, error: { _tag: "RequestFailed", reason: "http_5xx", retryable: true } }
      ])
    })
  )

  it.scoped("GET /health answers without a token", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      const response = yield* Effect.promise(() => fetch(`${base}/health`))
      expect(response.status).toBe(200)
      expect(yield* json(response)).toEqual({ status: "ok" })
    })
  )

  it.scoped("GET /openapi.json documents every endpoint, the bearer scheme and the error statuses", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      const response = yield* Effect.promise(() => fetch(`${base}/openapi.json`))
      expect(response.status).toBe(200)
      const spec = (yield* json(response)) as {
        paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown }>>
        components: { securitySchemes: Record<string, { scheme?: string }>; schemas: Record<string, unknown> }
      }
      // One named schema for a failed input, as client generators need it.
      expect(Object.keys(spec.components.schemas)).toContain("InputFailure")
      expect(Object.keys(spec.paths).sort()).toEqual([
        "/",
        "/health",
        "/v1/crawls",
        "/v1/crawls/{id}",
        "/v1/fetch",
        "/v1/map",
        "/v1/provider-types",
        "/v1/providers",
        "/v1/providers/{id}/check",
        "/v1/research",
        "/v1/search",
        "/v1/workspaces/{workspace}/providers",
        "/v1/workspaces/{workspace}/providers/{id}",
        "/v1/workspaces/{workspace}/providers/{id}/credentials",
        "/v1/workspaces/{workspace}/providers/{id}/test"
      ])
      expect(Object.keys(spec.paths["/v1/search"].post.responses).sort()).toEqual(
        ["200", "400", "401", "413", "429", "499", "502", "503", "504"].sort()
      )
      expect(spec.paths["/v1/search"].post.security).toEqual([{ bearer: [] }])
      expect(spec.paths["/health"].get.security ?? []).toEqual([])
      expect(spec.components.securitySchemes.bearer.scheme).toBe("bearer")
    })
  )

  it.scoped("X-Websearch-Cache says miss, hit or partial when a result cache is provided", () =>
    Effect.gen(function* () {
      const entries = new Map<string, unknown>()
      const store: ResultCache.Store = {
        get: (key) => Effect.sync(() => Option.fromNullable(entries.get(key))),
        set: (key, value) => Effect.sync(() => void entries.set(key, value))
      }
      const { driver, recorder } = tavily()
      const base = yield* Support.start(
        { tokens: [Support.token] },
        Support.live([driver], settingsFor([driver]), [ResultCache.layer(store)])
      )
      const search = (keywords: Array<string>) => Effect.promise(() => Support.post(`${base}/v1/search`, { keywords }))
      const first = yield* search(["alpha"])
      expect(first.headers.get("x-websearch-cache")).toBe("miss")
      const again = yield* search(["alpha"])
      expect(again.headers.get("x-websearch-cache")).toBe("hit")
      expect(yield* json(again)).toEqual(yield* json(first))
      const mixed = yield* search(["alpha", "beta"])
      expect(mixed.headers.get("x-websearch-cache")).toBe("partial")
      expect(recorder.calls.map((c) => c.input)).toEqual(["alpha", "beta"])
    })
  )

  it.scoped("no X-Websearch-Cache header without a cache", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: ["a"] }))
      expect(response.status).toBe(200)
      expect(response.headers.get("x-websearch-cache")).toBeNull()
    })
  )

  it.scoped("an unknown path is 404 with the typed error as its body, anywhere on the server", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      for (const [method, path] of [
        ["GET", "/v1/nothing"],
        ["POST", "/v1/searches"],
        ["GET", "/nothing?token=secret-in-the-query"],
        ["DELETE", "/v1/providers/tavily"]
      ] as const) {
        const response = yield* Effect.promise(() =>
          fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${Support.token}` } })
        )
        expect(response.status, `${method} ${path}`).toBe(404)
        expect(response.headers.get("content-type")).toContain("application/json")
        const body = (yield* json(response)) as { message: string }
        expect(body).toMatchObject({ _tag: "RequestFailed", reason: "not_found", retryable: false })
        expect(body.message).toBe(
          `${method} ${path.split("?")[0]} is not a route of this API (the routes are listed in /openapi.json)`
        )
      }
    })
  )

  it.scoped("a path of the API asked with another method is 405 with Allow and the typed error", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      for (const [method, path, allow] of [
        ["GET", "/v1/search", "POST"],
        ["PUT", "/v1/fetch", "POST"],
        ["POST", "/health", "GET, HEAD"],
        ["DELETE", "/openapi.json", "GET, HEAD"],
        ["GET", "/v1/providers/tavily/check", "POST"],
        ["POST", "/v1/workspaces/acme/providers/x", "GET, PATCH, DELETE, HEAD"]
      ] as const) {
        const response = yield* Effect.promise(() =>
          fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${Support.token}` } })
        )
        expect(response.status, `${method} ${path}`).toBe(405)
        expect(response.headers.get("allow")).toBe(allow)
        expect(yield* json(response)).toEqual({
          _tag: "RequestFailed",
          reason: "method_not_allowed",
          retryable: false,
          message: `${method} is not allowed on ${path}: it answers ${allow}`
        })
      }
    })
  )
})
