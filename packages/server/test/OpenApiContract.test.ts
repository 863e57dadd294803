/**
 * The served OpenAPI document as a client generated from it uses it: compiled by Ajv in the document's own dialect
 * (JSON Schema 2020-12, strict), every header the server sends declared on the response it comes with, and the
 * answers of a live server, successes and errors alike, valid against the schema the document gives them.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ResultCache from "@websearch/core/ResultCache"
import * as WebSearchError from "@websearch/core/WebSearchError"
import { Ajv2020 } from "ajv/dist/2020.js"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Support from "./support/server.js"

interface Response_ {
  readonly content?: Record<string, { readonly schema?: unknown }>
  readonly headers?: Record<string, unknown>
}

interface Document {
  readonly paths: Record<string, Record<string, { readonly responses: Record<string, Response_> }>>
  readonly components: { readonly schemas: Record<string, unknown> }
}

// The top-level fields of an OpenAPI document: not JSON Schema keywords, but where its schemas live.
const openApiFields = ["openapi", "info", "servers", "paths", "components", "security", "tags", "externalDocs"]

const pointer = (...parts: ReadonlyArray<string>) =>
  `openapi.json#/${parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`

/** Ajv with the whole document added: each of its schemas compiles from where the document holds it. */
const compile = (document: Document) => {
  // Strict about keywords, numbers and tuples; not strictTypes, which wants a `type` beside every `maximum`, where
  // the document refines a referenced schema (`{"$ref": "#/components/schemas/Int", "maximum": 50}`, valid 2020-12).
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true })
  ajv.addVocabulary(openApiFields)
  ajv.addSchema(document as object, "openapi.json")
  return ajv
}

// Headers any HTTP server sends; every other one is the API's and must be in the document.
const transport = new Set(["content-type", "content-length", "date", "connection", "keep-alive", "transfer-encoding"])

const entries = () => {
  const store = new Map<string, unknown>()
  return ResultCache.layer({
    get: (key) => Effect.sync(() => Option.fromNullable(store.get(key))),
    set: (key, value) => Effect.sync(() => void store.set(key, value))
  })
}

const serve = (rateLimit?: { readonly limit: number; readonly window: Duration.DurationInput }) => {
  const tavily = Support.driver("tavily", {
    searchKeywords: (input) =>
      input === "explode"
        ? Effect.fail(WebSearchError.requestFailed("http_5xx", "tavily: server error", { retryAfter: 1 }))
        : Effect.succeed(Support.results(input, 2)),
    fetchUrls: (url) => Effect.succeed({ title: `Page ${url}`, content: `Content of ${url}`, url })
  })
  const openai = Support.researcher()
  return Support.start(
    { tokens: [Support.token], ...(rateLimit === undefined ? {} : { rateLimit }) },
    Support.live(
      [tavily.driver, openai.driver],
      {
        defaults: { searchKeywords: "tavily", fetchUrls: "tavily", research: "openai" },
        providers: { tavily: { apiKeys: [Support.canaryKey] }, openai: { apiKeys: [Support.canaryKey] } }
      },
      [entries()]
    )
  )
}

const served = (base: string) =>
  Effect.promise(() => fetch(`${base}/openapi.json`).then((r) => r.json() as Promise<Document>))

interface Exchange {
  readonly name: string
  readonly method: "get" | "post"
  /** The path as the document writes it. */
  readonly path: string
  readonly url: string
  readonly body?: unknown
  readonly token?: boolean
  readonly status: number
}

const exchanges: ReadonlyArray<Exchange> = [
  { name: "root", method: "get", path: "/", url: "/", status: 200 },
  { name: "health", method: "get", path: "/health", url: "/health", status: 200 },
  { name: "search", method: "post", path: "/v1/search", url: "/v1/search", body: { keywords: ["a"] }, status: 200 },
  // Answered from the cache this time: X-Websearch-Cache says hit.
  {
    name: "search again",
    method: "post",
    path: "/v1/search",
    url: "/v1/search",
    body: { keywords: ["a"] },
    status: 200
  },
  {
    name: "search, invalid",
    method: "post",
    path: "/v1/search",
    url: "/v1/search",
    body: { keywords: [] },
    status: 400
  },
  {
    name: "search, no token",
    method: "post",
    path: "/v1/search",
    url: "/v1/search",
    body: { keywords: ["a"] },
    token: false,
    status: 401
  },
  {
    name: "fetch",
    method: "post",
    path: "/v1/fetch",
    url: "/v1/fetch",
    body: { urls: ["https://a.example/x"] },
    status: 200
  },
  // allowedDomains is optional over HTTP too: none means the open web.
  { name: "research", method: "post", path: "/v1/research", url: "/v1/research", body: { query: "q" }, status: 200 },
  { name: "providers", method: "get", path: "/v1/providers", url: "/v1/providers", status: 200 },
  {
    name: "check",
    method: "post",
    path: "/v1/providers/{id}/check",
    url: "/v1/providers/tavily/check",
    status: 200
  },
  {
    name: "check, unknown provider",
    method: "post",
    path: "/v1/providers/{id}/check",
    url: "/v1/providers/nobody/check",
    status: 503
  },
  { name: "provider types", method: "get", path: "/v1/provider-types", url: "/v1/provider-types", status: 200 },
  // Last: the provider's Retry-After holds its later calls off for that long.
  {
    name: "search, a provider 5xx with Retry-After",
    method: "post",
    path: "/v1/search",
    url: "/v1/search",
    body: { keywords: ["explode"] },
    status: 502
  }
]

/** Sends one exchange; checks its status, its body against the document's schema and its headers. */
const exchange = (base: string, document: Document, ajv: ReturnType<typeof compile>, ex: Exchange) =>
  Effect.gen(function* () {
    const response = yield* Effect.promise(() =>
      fetch(`${base}${ex.url}`, {
        method: ex.method.toUpperCase(),
        headers: {
          ...(ex.token === false ? {} : { authorization: `Bearer ${Support.token}` }),
          ...(ex.body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(ex.body === undefined ? {} : { body: JSON.stringify(ex.body) })
      })
    )
    const text = yield* Effect.promise(() => response.text())
    expect(response.status, `${ex.name}: ${text.slice(0, 300)}`).toBe(ex.status)
    const documented = document.paths[ex.path]?.[ex.method]?.responses[String(ex.status)]
    expect(documented, `${ex.name}: ${ex.method} ${ex.path} ${ex.status} is not documented`).toBeDefined()
    if (documented?.content !== undefined) {
      const validate = ajv.getSchema(
        pointer("paths", ex.path, ex.method, "responses", String(ex.status), "content", "application/json", "schema")
      )!
      expect(validate(JSON.parse(text)), `${ex.name}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
    const declared = new Set(Object.keys(documented?.headers ?? {}).map((name) => name.toLowerCase()))
    const sent: Array<string> = []
    response.headers.forEach((_value, name) => {
      if (!transport.has(name)) sent.push(name)
    })
    for (const name of sent) expect(declared, `${ex.name}: ${name} is sent but not declared`).toContain(name)
    return { headers: response.headers, sent }
  })

// Many requests against a live server: generous on a busy machine.
describe("the OpenAPI document, as a generated client reads it", { timeout: 120_000 }, () => {
  it.scoped("Ajv compiles it in the 2020-12 dialect (strict), with every component and response schema", () =>
    Effect.gen(function* () {
      const document = yield* served(yield* serve())
      const ajv = compile(document)
      for (const name of Object.keys(document.components.schemas)) {
        expect(ajv.getSchema(pointer("components", "schemas", name)), name).toBeTypeOf("function")
      }
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          for (const [status, response] of Object.entries(operation.responses)) {
            if (response.content === undefined) continue
            const at = pointer("paths", path, method, "responses", status, "content", "application/json", "schema")
            expect(ajv.getSchema(at), `${method} ${path} ${status}`).toBeTypeOf("function")
          }
        }
      }
    })
  )

  // Live: the server's own waits (a provider's hold-off) run on the real clock.
  it.scopedLive("a live server's answers match the document: statuses, bodies and every header it sends", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      const document = yield* served(base)
      const ajv = compile(document)
      const seen = new Map<string, Headers>()
      for (const ex of exchanges) seen.set(ex.name, (yield* exchange(base, document, ajv, ex)).headers)
      // The headers the README documents were met, so the checks above covered them.
      expect(seen.get("search")!.get("x-websearch-cache")).toBe("miss")
      expect(seen.get("search again")!.get("x-websearch-cache")).toBe("hit")
      expect(seen.get("search, a provider 5xx with Retry-After")!.get("retry-after")).toBe("1")
      expect(seen.get("search, no token")!.get("www-authenticate")).toBe('Bearer realm="websearch"')
    })
  )

  it.scoped("the per-token rate limit's 429 and its Retry-After are documented on every authenticated route", () =>
    Effect.gen(function* () {
      const base = yield* serve({ limit: 1, window: "1 minute" })
      const document = yield* served(base)
      const ajv = compile(document)
      const providers = exchanges.find((ex) => ex.name === "providers")!
      yield* exchange(base, document, ajv, providers)
      const { headers } = yield* exchange(base, document, ajv, {
        ...providers,
        name: "providers, limited",
        status: 429
      })
      expect(Number(headers.get("retry-after"))).toBeGreaterThan(0)
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (!path.startsWith("/v1/")) continue
          expect(Object.keys(operation.responses["429"]?.headers ?? {}), `${method} ${path}`).toContain("Retry-After")
        }
      }
    })
  )
})
