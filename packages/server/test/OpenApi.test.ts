/**
 * The served OpenAPI document against a maintained OpenAPI linter (Redocly's, with its `recommended` rules: the
 * structure of OpenAPI 3.1, component names, servers, a summary per operation, ...), and the document's own
 * promises: the package's real version, a description per operation, an example per request body that the API
 * itself accepts, and per operation only the errors that operation can answer.
 */
import { describe, expect, it } from "@effect/vitest"
import { createConfig, lintFromString } from "@redocly/openapi-core"
import * as PageType from "@websearch/core/PageType"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as SiteRequest from "@websearch/core/SiteRequest"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import { createRequire } from "node:module"
import * as Support from "./support/server.js"

const { version } = createRequire(import.meta.url)("../package.json") as { version: string }

interface Operation {
  readonly summary?: string
  readonly description?: string
  readonly requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> }
  readonly responses: Record<string, unknown>
}

interface Document {
  readonly info: { readonly version: string }
  readonly servers?: ReadonlyArray<{ readonly url: string }>
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, unknown> }
}

const serve = () => {
  const { driver } = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
  return Support.start(
    { tokens: [Support.token] },
    Support.live([driver], { defaults: { searchKeywords: "tavily" }, providers: { tavily: { apiKeys: ["k"] } } })
  )
}

const served = Effect.gen(function* () {
  const base = yield* serve()
  const response = yield* Effect.promise(() => fetch(`${base}/openapi.json`))
  expect(response.status).toBe(200)
  return yield* Effect.promise(() => response.text())
})

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation }))
  )

describe("the OpenAPI document", () => {
  it.scoped("passes Redocly's recommended rules with no error and no warning but the two documented ones", () =>
    Effect.gen(function* () {
      const source = yield* served
      const config = yield* Effect.promise(() => createConfig({ extends: ["recommended"] }))
      const problems = yield* Effect.promise(() => lintFromString({ source, absoluteRef: "/openapi.json", config }))
      const found = problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)
      // `/` and `/health` cannot answer a 4xx: they read no input and need no token. The rule's advice (declare
      // one) would document a response that never comes.
      expect(found).toEqual([
        "warn operation-4xx-response #/paths/~1/get/responses: Operation must have at least one `4XX` response.",
        "warn operation-4xx-response #/paths/~1health/get/responses: Operation must have at least one `4XX` response."
      ])
    })
  )

  it.scoped("describes a fetched result's pageType and the blocked reason", () =>
    Effect.gen(function* () {
      const source = yield* served
      const document = JSON.parse(source) as Document
      const result = document.components.schemas.WebSearchResult as {
        readonly properties: Record<string, unknown>
        readonly required?: ReadonlyArray<string>
      }
      expect(JSON.stringify(result.properties.pageType)).toContain("PageType")
      expect(result.required ?? []).not.toContain("pageType")
      const pageType = document.components.schemas.PageType as { readonly enum: ReadonlyArray<string> }
      expect(pageType.enum).toEqual([...PageType.PageType.literals])
      expect(source).toContain('"blocked"')
    })
  )

  it.scoped("is a 3.1 document of the real version, with servers, summaries, descriptions and valid names", () =>
    Effect.gen(function* () {
      const document = JSON.parse(yield* served) as Document
      expect(document.info.version).toBe(version)
      expect(document.servers).toEqual([{ url: "/", description: "The server that served this document" }])
      for (const name of Object.keys(document.components.schemas)) expect(name).toMatch(/^[a-zA-Z0-9.\-_]+$/)
      const all = operations(document)
      expect(all.map((o) => `${o.method} ${o.path}`).sort()).toEqual([
        "delete /v1/crawls/{id}",
        "delete /v1/workspaces/{workspace}/providers/{id}",
        "get /",
        "get /health",
        "get /v1/crawls/{id}",
        "get /v1/provider-types",
        "get /v1/providers",
        "get /v1/workspaces/{workspace}/providers",
        "get /v1/workspaces/{workspace}/providers/{id}",
        "patch /v1/workspaces/{workspace}/providers/{id}",
        "post /v1/crawls",
        "post /v1/fetch",
        "post /v1/map",
        "post /v1/providers/{id}/check",
        "post /v1/research",
        "post /v1/search",
        "post /v1/workspaces/{workspace}/providers",
        "post /v1/workspaces/{workspace}/providers/{id}/test",
        "put /v1/workspaces/{workspace}/providers/{id}/credentials"
      ])
      for (const { operation } of all) {
        expect(operation.summary?.length).toBeGreaterThan(0)
        expect(operation.description?.length).toBeGreaterThan(0)
      }
    })
  )

  it.scoped("lists per operation only the statuses that operation can answer", () =>
    Effect.gen(function* () {
      const document = JSON.parse(yield* served) as Document
      const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses).sort()
      const capability = ["200", "400", "401", "413", "429", "499", "502", "503", "504"]
      expect(statuses("/v1/search", "post")).toEqual(capability)
      expect(statuses("/v1/fetch", "post")).toEqual(capability)
      expect(statuses("/v1/research", "post")).toEqual(capability)
      expect(statuses("/v1/map", "post")).toEqual(capability)
      // A crawl is created (201), or refused past the workspace's pages (409) besides a capability's errors.
      expect(statuses("/v1/crawls", "post")).toEqual([
        "201",
        "400",
        "401",
        "409",
        "413",
        "429",
        "499",
        "502",
        "503",
        "504"
      ])
      // Reading a crawl: bad paging (400), not the workspace's (404), a shared store down (503).
      expect(statuses("/v1/crawls/{id}", "get")).toEqual(["200", "400", "401", "404", "429", "502", "503"])
      expect(statuses("/v1/crawls/{id}", "delete")).toEqual(["204", "401", "404", "429", "502", "503"])
      // No body to refuse and no provider call: only the token and the per-token limit can fail.
      expect(statuses("/v1/providers", "get")).toEqual(["200", "401", "429", "502"])
      expect(statuses("/v1/providers/{id}/check", "post")).toEqual(["200", "401", "429", "502", "503"])
      // The catalogue reads no input; the instance routes add the workspace's rights (403/404), the store (503)
      // and, with a body, its validation (400, 413) and, for a write that can collide, 409.
      const instances = "/v1/workspaces/{workspace}/providers"
      const one = `${instances}/{id}`
      const scoped = ["401", "403", "404", "429", "502", "503"]
      expect(statuses("/v1/provider-types", "get")).toEqual(["200", "401", "429", "502"])
      expect(statuses(instances, "get")).toEqual(["200", ...scoped].sort())
      expect(statuses(instances, "post")).toEqual(["201", "400", "409", "413", ...scoped].sort())
      expect(statuses(one, "get")).toEqual(["200", ...scoped].sort())
      expect(statuses(one, "patch")).toEqual(["200", "400", "409", "413", ...scoped].sort())
      expect(statuses(one, "delete")).toEqual(["204", ...scoped].sort())
      expect(statuses(`${one}/credentials`, "put")).toEqual(["200", "400", "413", ...scoped].sort())
      expect(statuses(`${one}/test`, "post")).toEqual(["200", ...scoped].sort())
      expect(statuses("/health", "get")).toEqual(["200"])
      expect(statuses("/", "get")).toEqual(["200"])
      // The platform's decode error is never answered (the bodies are validated by the core schemas).
      expect(JSON.stringify(document)).not.toContain("HttpApiDecodeError")
    })
  )

  it.scoped("has an example for every request body, and the API accepts each one", () =>
    Effect.gen(function* () {
      const document = JSON.parse(yield* served) as Document
      const strict = <A, I>(schema: Schema.Schema<A, I>) => Schema.decodeUnknown(schema, { onExcessProperty: "error" })
      const decoders: Record<string, (body: unknown) => Effect.Effect<unknown, unknown>> = {
        "post /v1/search": WebSearchRequest.normalizeSearchKeywords,
        "post /v1/fetch": WebSearchRequest.normalizeFetchUrls,
        "post /v1/research": WebSearchRequest.decodeResearch,
        "post /v1/map": SiteRequest.decodeMapSite,
        "post /v1/crawls": SiteRequest.decodeCrawlSite,
        "post /v1/workspaces/{workspace}/providers": strict(ProviderStore.CreateInstance),
        "patch /v1/workspaces/{workspace}/providers/{id}": strict(ProviderStore.UpdateInstance),
        "put /v1/workspaces/{workspace}/providers/{id}/credentials": strict(ProviderInstance.InstanceCredentials)
      }
      const withBody = operations(document).filter((o) => o.operation.requestBody !== undefined)
      expect(withBody.map((o) => `${o.method} ${o.path}`).sort()).toEqual(Object.keys(decoders).sort())
      for (const { method, path, operation } of withBody) {
        const examples = Object.values(operation.requestBody!.content["application/json"].examples ?? {})
        expect(examples.length).toBeGreaterThan(0)
        for (const example of examples) {
          expect(Exit.isSuccess(yield* Effect.exit(decoders[`${method} ${path}`](example.value)))).toBe(true)
        }
      }
    })
  )

  it.scoped("GET / answers the service's name, version and links, without a token", () =>
    Effect.gen(function* () {
      const base = yield* serve()
      const response = yield* Effect.promise(() => fetch(`${base}/`))
      expect(response.status).toBe(200)
      const body = (yield* Effect.promise(() => response.json())) as {
        name: string
        version: string
        links: Record<string, string>
      }
      expect(body).toMatchObject({ name: "websearch", version, links: { docs: "/docs", openapi: "/openapi.json" } })
      for (const link of Object.values(body.links)) {
        expect((yield* Effect.promise(() => fetch(`${base}${link}`))).status).toBe(200)
      }
    })
  )
})
