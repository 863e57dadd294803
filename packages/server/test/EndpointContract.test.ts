/**
 * The server keeps the contract its `HttpApi` declares, over real HTTP on 127.0.0.1: every endpoint of
 * `WebSearchApi` (the test fails when one has no case here) answers values generated from core's own schemas
 * (`Arbitrary.make`) with a body its declared success schema decodes, or with an error one of its declared error
 * schemas decodes at the status it was sent with; and a body endpoint refuses a payload its declared payload schema
 * refuses with `RequestFailed/invalid_input` (400) naming the JSON field at fault.
 */
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { describe, expect, it } from "@effect/vitest"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as WebSearchResponse from "@websearch/core/WebSearchResponse"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as ErrorStatus from "../src/ErrorStatus.js"
import { WebSearchApi } from "../src/WebSearchApi.js"
import * as Management from "./support/management.js"
import * as Support from "./support/server.js"
import * as Site from "./support/site.js"

type Endpoint = HttpApiEndpoint.HttpApiEndpoint.AnyWithProps

// The API's schemas need no service to decode.
const schemaOf = (schema: Schema.Schema.Any) => schema as Schema.Schema<unknown, unknown>

// Every endpoint of the API by "group.endpoint", as the API object holds it.
const endpoints: ReadonlyMap<string, Endpoint> = new Map(
  Object.values(WebSearchApi.groups).flatMap((group) =>
    Object.values(group.endpoints).map((endpoint) => [`${group.identifier}.${endpoint.name}`, endpoint] as const)
  )
)

// What the providers answer in one run: drawn from core's schemas, so every shape the pipeline may pass on is met.
const driverResult = WebSearchResponse.WebSearchResult.pipe(Schema.omit("sourceInput"))
const researchOutput = WebSearchResponse.ResearchResponse.pipe(Schema.omit("providerId", "query"))
const Script = Schema.Struct({
  results: Schema.Array(driverResult).pipe(Schema.maxItems(4)),
  page: driverResult,
  research: researchOutput
})
type Script = typeof Script.Type

const serve = Effect.gen(function* () {
  let script: Script | undefined
  const current = () => {
    if (script === undefined) throw new Error("no script for this run")
    return script
  }
  const tavily = Support.driver("tavily", {
    searchKeywords: () => Effect.sync(() => current().results),
    fetchUrls: (url) => Effect.sync(() => ({ ...current().page, url }))
  })
  const openai = Support.driver("openai", { research: () => Effect.sync(() => current().research) })
  const site = Site.siteDriver(20)
  const services = Support.live([tavily.driver, openai.driver, site.driver], {
    defaults: { searchKeywords: "tavily", fetchUrls: "tavily", research: "openai", ...Site.defaults },
    providers: { tavily: { apiKeys: ["composed-key-0123"] }, openai: { apiKeys: ["composed-key-4567"] } }
  })
  const store = yield* ProviderStore.memory
  const base = yield* Management.start(services, Layer.succeed(ProviderStore.ProviderStore, store))
  return { ...Management.client(base), set: (next: Script) => void (script = next) }
})

const admin = Management.tokens.acmeAdmin
const instances = "/v1/workspaces/acme/providers"

interface Call {
  readonly method: string
  readonly path: string
  readonly body?: unknown
}

// One call per endpoint for a run's generated values; an instance route works on the instance `id`, a crawl route
// on the crawl the run started (`{crawl}`, its id).
const calls = (id: string, name: string, keyword: string, apiKeys: ReadonlyArray<string>): Record<string, Call> => ({
  "v1.search": { method: "POST", path: "/v1/search", body: { keywords: [keyword] } },
  "v1.fetch": { method: "POST", path: "/v1/fetch", body: { urls: ["https://example.com/page"] } },
  "v1.research": { method: "POST", path: "/v1/research", body: { query: keyword } },
  "v1.map": { method: "POST", path: "/v1/map", body: { url: `${Site.origin}/`, search: keyword } },
  "v1.startCrawl": { method: "POST", path: "/v1/crawls", body: { url: `${Site.origin}/`, maxPages: 5, delay: 0 } },
  "v1.crawlStatus": { method: "GET", path: "/v1/crawls/{crawl}?offset=0&limit=3" },
  "v1.cancelCrawl": { method: "DELETE", path: "/v1/crawls/{crawl}" },
  "v1.providers": { method: "GET", path: "/v1/providers" },
  "v1.check": { method: "POST", path: "/v1/providers/tavily/check" },
  "management.providerTypes": { method: "GET", path: "/v1/provider-types" },
  "management.createInstance": { method: "POST", path: instances, body: { id, type: "tavily", name } },
  "management.listInstances": { method: "GET", path: instances },
  "management.readInstance": { method: "GET", path: `${instances}/${id}` },
  "management.updateInstance": { method: "PATCH", path: `${instances}/${id}`, body: { name: `${name} (new)` } },
  "management.setCredentials": { method: "PUT", path: `${instances}/${id}/credentials`, body: { apiKeys } },
  "management.testInstance": { method: "POST", path: `${instances}/${id}/test` },
  "management.deleteInstance": { method: "DELETE", path: `${instances}/${id}` },
  "system.root": { method: "GET", path: "/" },
  "system.health": { method: "GET", path: "/health" }
})

const successStatus = (endpoint: Endpoint) => HttpApiSchema.getStatusSuccess(endpoint.successSchema)

// The declared error schemas of an endpoint, each with its status (an error set is a union of them).
const members = (ast: AST.AST): ReadonlyArray<AST.AST> => (AST.isUnion(ast) ? ast.types.flatMap(members) : [ast])
const declaredErrors = (endpoint: Endpoint) =>
  members(endpoint.errorSchema.ast).map((ast) => ({
    status: HttpApiSchema.getStatusErrorAST(ast),
    decode: Schema.decodeUnknownEither(Schema.make(ast))
  }))

/** Whether an answer is one the endpoint declares: a success its success schema decodes, or a declared error. */
const conforms = (endpoint: Endpoint, status: number, json: unknown): "success" | "error" | string => {
  if (status === successStatus(endpoint)) {
    // No content is what NoContent declares; any other success has a body the success schema decodes.
    if (HttpApiSchema.isVoid(endpoint.successSchema.ast)) return json === undefined ? "success" : "a body on 204"
    // Strict: a field the schema does not declare is drift too.
    const decoded = Schema.decodeUnknownEither(schemaOf(endpoint.successSchema), { onExcessProperty: "error" })(json)
    return Either.isRight(decoded) ? "success" : `success body: ${decoded.left.message}`
  }
  const matching = declaredErrors(endpoint).filter((error) => error.status === status)
  return matching.some((error) => Either.isRight(error.decode(json)))
    ? "error"
    : `status ${status} with ${JSON.stringify(json)?.slice(0, 300)} is not a declared answer`
}

describe("the declared contract, over HTTP", () => {
  it("every endpoint of the API has a case here", () => {
    expect([...endpoints.keys()].sort()).toEqual(Object.keys(calls("i", "n", "k", [])).sort())
  })

  it.scoped(
    "every endpoint answers generated provider values with a body its declared schemas decode",
    () =>
      Effect.gen(function* () {
        const server = yield* serve
        const successes = new Map<string, number>()
        const identifier = FastCheck.stringMatching(/^[a-z][a-z0-9-]{0,20}$/)
        const text = FastCheck.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0)
        yield* Effect.promise(() =>
          FastCheck.assert(
            FastCheck.asyncProperty(
              Arbitrary.make(Script),
              identifier,
              text,
              text,
              FastCheck.array(FastCheck.stringMatching(/^[A-Za-z0-9_-]{8,40}$/), { maxLength: 3 }),
              async (script, suffix, name, keyword, apiKeys) => {
                server.set(script)
                // Created first and deleted last, so each instance route has its instance.
                let crawl = "none"
                for (const [key, call] of Object.entries(calls(`i-${suffix}`, name, keyword, apiKeys))) {
                  const path = call.path.replace("{crawl}", crawl)
                  const answer = await Effect.runPromise(server.call(call.method, path, admin, call.body))
                  if (key === "v1.startCrawl") crawl = (answer.json as { id: string }).id
                  const verdict = conforms(endpoints.get(key)!, answer.status, answer.json)
                  expect(verdict, `${key}: ${answer.text.slice(0, 300)}`).toMatch(/^(success|error)$/)
                  if (verdict === "success") successes.set(key, (successes.get(key) ?? 0) + 1)
                }
              }
            ),
            { numRuns: 25 }
          )
        )
        // Not vacuous: every endpoint answered a success at least once.
        expect([...endpoints.keys()].filter((key) => !successes.has(key))).toEqual([])
      }),
    60_000
  )

  // A value the declared payload schema refuses (checked here with that schema), put into an otherwise valid body.
  const refused = (endpoint: Endpoint, body: Record<string, unknown>, field: string) =>
    FastCheck.jsonValue({ maxDepth: 2 })
      .map((value) => ({ ...body, [field]: value }))
      .filter((candidate) =>
        Either.isLeft(
          Schema.decodeUnknownEither(schemaOf(Option.getOrThrow(endpoint.payloadSchema)))(candidate, {
            onExcessProperty: "error"
          })
        )
      )

  const bodies = [
    ["v1.search", "/v1/search", "POST", { keywords: ["effect"] }, ["keywords", "maxResults", "timeRange", "language"]],
    ["v1.fetch", "/v1/fetch", "POST", { urls: ["https://example.com/"] }, ["urls", "maxLength", "startIndex"]],
    ["v1.research", "/v1/research", "POST", { query: "effect layers" }, ["query", "allowedDomains"]],
    ["v1.map", "/v1/map", "POST", { url: "https://example.com/" }, ["url", "limit", "includePaths"]],
    ["v1.startCrawl", "/v1/crawls", "POST", { url: "https://example.com/" }, ["url", "maxPages", "maxDepth", "delay"]],
    [
      "management.createInstance",
      instances,
      "POST",
      { id: "refused", type: "searxng" },
      ["id", "type", "name", "settings"]
    ],
    ["management.updateInstance", `${instances}/refused`, "PATCH", { name: "x" }, ["name", "revision", "credentials"]],
    ["management.setCredentials", `${instances}/refused/credentials`, "PUT", {}, ["apiKeys", "basicAuthPassword"]]
  ] as const

  it.scoped(
    "a payload the declared payload schema refuses answers 400 naming the field",
    () =>
      Effect.gen(function* () {
        const server = yield* serve
        for (const [key, path, method, body, fields] of bodies) {
          const endpoint = endpoints.get(key)!
          expect(endpoint.payloadSchema._tag, key).toBe("Some")
          for (const field of fields) {
            yield* Effect.promise(() =>
              FastCheck.assert(
                FastCheck.asyncProperty(refused(endpoint, body, field), async (payload) => {
                  const answer = await Effect.runPromise(server.call(method, path, admin, payload))
                  expect(answer.status, `${key} ${JSON.stringify(payload)}`).toBe(400)
                  expect(answer.json).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
                  expect((answer.json as { message: string }).message, `${key} ${JSON.stringify(payload)}`).toContain(
                    field
                  )
                  const error = Schema.decodeUnknownSync(WebSearchError.RequestFailed)(answer.json)
                  expect(ErrorStatus.statusOf(error)).toBe(400)
                }),
                { numRuns: 15 }
              )
            )
          }
        }
      }),
    60_000
  )
})
