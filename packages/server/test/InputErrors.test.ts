/**
 * Invalid input over HTTP: every field rule of the three capability bodies answers 400 with the same tagged body
 * as every other error (`RequestFailed/invalid_input`, not retryable, the capability named), and a message in the
 * API's own words that names the field as a JSON caller writes it (`keywords[3]`, `urls[1]`) and says why, with no
 * Effect type name in it; no provider is called. The rules with a domain are also checked as properties, on the
 * core validation the server answers with.
 */
import { describe, expect, it } from "@effect/vitest"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Support from "./support/server.js"

const settings = {
  defaults: { searchKeywords: "tavily", fetchUrls: "tavily", research: "openai" },
  providers: { tavily: { apiKeys: [Support.canaryKey] }, openai: { apiKeys: [Support.canaryKey] } }
} as const

const serve = Effect.gen(function* () {
  const tavily = Support.driver("tavily", {
    searchKeywords: (input) => Effect.succeed(Support.results(input)),
    fetchUrls: (url) => Effect.succeed({ title: "t", content: "c", url })
  })
  const openai = Support.driver("openai", {
    research: (query) => Effect.succeed({ report: query, queries: [query], sources: [], images: [] })
  })
  const base = yield* Support.start({ tokens: [Support.token] }, Support.live([tavily.driver, openai.driver], settings))
  return { base, calls: () => tavily.recorder.calls.length + openai.recorder.calls.length }
})

// Each field's name, taken from the schema, so the expectation follows the request's fields as they change.
const fieldsOf = (schema: { readonly fields: Record<string, unknown> }) => Object.keys(schema.fields).join(", ")

const cases: ReadonlyArray<readonly [string, "search" | "fetch" | "research", unknown, string]> = [
  ["keywords missing", "search", {}, "keywords: is required"],
  ["keywords not a list", "search", { keywords: "effect" }, "keywords: not a list"],
  ["keywords empty", "search", { keywords: [] }, "keywords: at least one keyword is required"],
  ["keywords over 20", "search", { keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }, "keywords: at most 20"],
  ["a keyword not a string", "search", { keywords: ["a", "b", "c", 4] }, "keywords[3]: not a string"],
  [
    "a keyword too long",
    "search",
    { keywords: ["a", "x".repeat(1001)] },
    "keywords[1]: at most 1000 characters (it has 1001)"
  ],
  ["every keyword blank", "search", { keywords: [" ", ""] }, "keywords: every keyword is empty"],
  ["maxResults not a number", "search", { keywords: ["a"], maxResults: "5" }, "maxResults: not a number"],
  ["maxResults not an integer", "search", { keywords: ["a"], maxResults: 2.5 }, "maxResults: not an integer"],
  ["maxResults out of range", "search", { keywords: ["a"], maxResults: 51 }, "maxResults: maxResults must be an"],
  ["providerId not a string", "search", { keywords: ["a"], providerId: 3 }, "providerId: not a string"],
  ["providerId malformed", "search", { keywords: ["a"], providerId: "Not An Id" }, "providerId: a provider id is"],
  [
    "an unknown field",
    "search",
    { keywords: ["a"], depth: 3 },
    `depth: is not a known field (the fields are ${fieldsOf(WebSearchRequest.SearchKeywordsRequest)})`
  ],
  ["not an object", "search", [1, 2], "request: not an object"],
  ["urls missing", "fetch", {}, "urls: is required"],
  ["urls over 20", "fetch", { urls: Array.from({ length: 21 }, (_, i) => `https://a${i}.example/`) }, "urls: at most"],
  [
    "a URL of another scheme",
    "fetch",
    { urls: ["https://a.example/", "https://b.example/", "https://c.example/", "ftp://files.example/x"] },
    "urls[3]: not an http(s) URL"
  ],
  ["a URL that does not parse", "fetch", { urls: ["https://a.example/", "nope"] }, "urls[1]: not an http(s) URL"],
  ["a URL not a string", "fetch", { urls: [7] }, "urls[0]: not a string"],
  ["a URL too long", "fetch", { urls: [`https://a.example/${"x".repeat(8200)}`] }, "urls[0]: at most 8192 characters"],
  [
    "an unknown fetch field",
    "fetch",
    { urls: ["https://a.example/"], keywords: ["a"] },
    `keywords: is not a known field (the fields are ${fieldsOf(WebSearchRequest.FetchUrlsRequest)})`
  ],
  ["query missing", "research", { allowedDomains: [] }, "query: is required"],
  ["query blank", "research", { query: "  ", allowedDomains: [] }, "query: query must not be empty"],
  ["query not a string", "research", { query: 5, allowedDomains: [] }, "query: not a string"],
  [
    "allowedDomains not a list",
    "research",
    { query: "q", allowedDomains: "example.org" },
    "allowedDomains: not a list"
  ],
  [
    "a domain with a scheme",
    "research",
    { query: "q", allowedDomains: ["example.org", "https://x.example/"] },
    'allowedDomains[1]: "https://x.example/" is not a domain name'
  ]
]

describe("invalid input over HTTP", () => {
  it.scoped("every field rule answers 400 with the tagged error naming the field, before any provider call", () =>
    Effect.gen(function* () {
      const { base, calls } = yield* serve
      const capability = { search: "searchKeywords", fetch: "fetchUrls", research: "research" } as const
      for (const [name, endpoint, body, says] of cases) {
        const response = yield* Effect.promise(() => Support.post(`${base}/v1/${endpoint}`, body))
        expect(response.status, name).toBe(400)
        const answer = (yield* Effect.promise(() => response.json())) as Record<string, unknown>
        expect(answer, name).toMatchObject({
          _tag: "RequestFailed",
          reason: "invalid_input",
          retryable: false,
          capability: capability[endpoint]
        })
        expect(answer.message, name).toContain(`invalid ${capability[endpoint]} request: `)
        expect(answer.message, name).toContain(says)
        // No Effect type names or schema syntax.
        expect(answer.message, name).not.toMatch(/Expected |ReadonlyArray|maxLength\(|\{ readonly|is missing/)
      }
      expect(calls()).toBe(0)
    })
  )
})

const message = (effect: Effect.Effect<unknown, { readonly message: string }>) =>
  Effect.runSync(Effect.match(effect, { onFailure: (error) => error.message, onSuccess: () => "accepted" }))

describe("input rules as properties", () => {
  it.prop(
    "a keyword of any length over 1000 at any position is named with its index and length",
    [FastCheck.integer({ min: 0, max: 19 }), FastCheck.integer({ min: 1001, max: 4000 })],
    ([index, length]) => {
      const keywords = Array.from({ length: index + 1 }, (_, i) => (i === index ? "k".repeat(length) : `k${i}`))
      expect(message(WebSearchRequest.normalizeSearchKeywords({ keywords }))).toBe(
        `invalid searchKeywords request: keywords[${index}]: at most 1000 characters (it has ${length})`
      )
    }
  )

  it.prop(
    "a URL of any non-http scheme at any position is named with its index",
    [FastCheck.integer({ min: 0, max: 19 }), FastCheck.constantFrom("ftp", "file", "gopher", "ws", "data", "mailto")],
    ([index, scheme]) => {
      const urls = Array.from({ length: index + 1 }, (_, i) =>
        i === index ? `${scheme}://host.example/x` : `https://a${i}.example/`
      )
      expect(message(WebSearchRequest.normalizeFetchUrls({ urls }))).toMatch(
        new RegExp(`^invalid fetchUrls request: urls\\[${index}\\]: not an http\\(s\\) URL: `)
      )
    }
  )

  it.prop(
    "a value of the wrong JSON type in a keyword slot says which slot and what was expected",
    [
      FastCheck.integer({ min: 0, max: 19 }),
      FastCheck.oneof(FastCheck.integer(), FastCheck.boolean(), FastCheck.constant(null), FastCheck.object())
    ],
    ([index, value]) => {
      const keywords: Array<unknown> = Array.from({ length: index + 1 }, (_, i) => `k${i}`)
      keywords[index] = value
      expect(message(WebSearchRequest.normalizeSearchKeywords({ keywords }))).toBe(
        `invalid searchKeywords request: keywords[${index}]: not a string`
      )
    }
  )

  it.prop(
    "a list of 21 to 200 inputs is refused by its length alone",
    [FastCheck.integer({ min: 21, max: 200 })],
    ([count]) => {
      const keywords = Array.from({ length: count }, (_, i) => `k${i}`)
      expect(message(WebSearchRequest.normalizeSearchKeywords({ keywords }))).toBe(
        "invalid searchKeywords request: keywords: at most 20 keywords per request"
      )
    }
  )
})
