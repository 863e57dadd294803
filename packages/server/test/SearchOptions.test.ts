import { describe, expect, it } from "@effect/vitest"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Support from "./support/server.js"

const keys = { tavily: { apiKeys: [Support.canaryKey] }, exa: { apiKeys: [Support.canaryKey] } }

// Tavily ranks the shared page first, Exa second; Exa fails the keyword "down".
const tavily = () =>
  Support.driver("tavily", {
    searchKeywords: (input) =>
      Effect.succeed([
        { title: `tavily shared ${input}`, content: "t", url: `https://shared.example/${input}` },
        { title: `tavily own ${input}`, content: "t", url: `https://tavily.example/${input}` }
      ])
  })
const exa = () =>
  Support.driver("exa", {
    searchKeywords: (input) =>
      input === "down"
        ? Effect.fail(WebSearchError.requestFailed("http_5xx", "exa answered 503"))
        : Effect.succeed([
            { title: `exa own ${input}`, content: "e", url: `https://exa.example/${input}` },
            { title: `exa shared ${input}`, content: "e", url: `https://shared.example/${input}` }
          ])
  })

// Bodies and the OpenAPI document of many shapes: a wrong path fails the assertion that reads it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>

const json = (response: Response) => Effect.promise(() => response.json() as Promise<Json>)

describe("search options and fused search over HTTP", () => {
  it.scoped("POST /v1/search with providerIds answers a fused response, attributed, with per-provider failures", () =>
    Effect.gen(function* () {
      const t = tavily()
      const e = exa()
      const base = yield* Support.start(
        { tokens: [Support.token] },
        Support.live([t.driver, e.driver], { providers: keys })
      )
      const response = yield* Effect.promise(() =>
        Support.post(`${base}/v1/search`, {
          keywords: ["up", "down"],
          providerIds: ["tavily", "exa"],
          excludeDomains: ["Tavily.Example."]
        })
      )
      expect(response.status).toBe(200)
      const body = yield* json(response)
      expect([body.providerId, body.providerIds]).toEqual(["fusion", ["tavily", "exa"]])
      expect(body.results.map((r: Json) => [r.title, r.providers])).toEqual([
        ["tavily shared up", ["tavily", "exa"]],
        ["exa own up", ["exa"]],
        ["tavily shared down", ["tavily"]]
      ])
      expect(body.failures).toMatchObject([{ input: "down", providerId: "exa", reason: "http_5xx" }])
      expect(body.appliedOptions).toEqual([
        { providerId: "tavily", native: [], local: ["excludeDomains"] },
        { providerId: "exa", native: [], local: ["excludeDomains"] }
      ])
    })
  )

  it.scoped("invalid options answer 400 naming the field; an option no provider applies, 400 before any call", () =>
    Effect.gen(function* () {
      const t = tavily()
      const base = yield* Support.start(
        { tokens: [Support.token] },
        Support.live([t.driver], { defaults: { searchKeywords: "tavily" }, providers: { tavily: keys.tavily } })
      )
      const bad = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: ["q"], country: "XX" }))
      expect(bad.status).toBe(400)
      const badBody = yield* json(bad)
      expect(badBody.message).toContain("country: country must be an ISO 3166-1 alpha-2 code")
      const refused = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: ["q"], topic: "news" }))
      expect(refused.status).toBe(400)
      const refusedBody = yield* json(refused)
      expect([refusedBody.reason, refusedBody.providerId]).toEqual(["invalid_input", "tavily"])
      expect(refusedBody.message).toContain("tavily cannot apply topic")
      const both = yield* Effect.promise(() =>
        Support.post(`${base}/v1/search`, { keywords: ["q"], providerId: "tavily", providerIds: ["tavily", "exa"] })
      )
      expect(both.status).toBe(400)
      expect(t.recorder.calls).toEqual([])
    })
  )

  it.scoped("GET /openapi.json documents the options, providerIds and what a fused response adds", () =>
    Effect.gen(function* () {
      const base = yield* Support.start(
        { tokens: [Support.token] },
        Support.live([tavily().driver], { providers: { tavily: keys.tavily } })
      )
      const spec = yield* json(yield* Effect.promise(() => fetch(`${base}/openapi.json`)))
      const schemas = spec.components.schemas
      const request = spec.paths["/v1/search"].post.requestBody.content["application/json"].schema
      const requestSchema = request.$ref === undefined ? request : schemas[request.$ref.split("/").pop()]
      expect(Object.keys(requestSchema.properties)).toEqual(
        expect.arrayContaining([
          "providerIds",
          "timeRange",
          "includeDomains",
          "excludeDomains",
          "language",
          "country",
          "safeSearch",
          "topic"
        ])
      )
      expect(requestSchema.properties.timeRange.enum).toEqual(["day", "week", "month", "year"])
      expect(Object.keys(schemas.WebSearchResponse.properties)).toEqual(
        expect.arrayContaining(["providerIds", "appliedOptions"])
      )
      expect(Object.keys(schemas.WebSearchResult.properties)).toContain("providers")
      expect(Object.keys(schemas.AppliedOptions.properties).sort()).toEqual(["local", "native", "providerId"])
    })
  )
})
