/**
 * The public driver skeleton, as a user writing their own provider uses it: a provider module made only of a
 * preset, a request mapping and a response schema, run through the whole of websearch against a local server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Preset from "@websearch/core/Preset"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as ProviderHttp from "../src/ProviderHttp.js"
import * as Server from "./support/providerServer.js"

const preset = Preset.make({
  id: "acme",
  name: "Acme Search",
  type: "api",
  credentials: "optional",
  capabilities: [
    { feature: "searchKeywords", apiHost: "https://api.acme.example" },
    { feature: "fetchUrls", apiHost: "https://api.acme.example" }
  ]
})

const SearchAnswer = Schema.Struct({
  hits: Schema.Array(Schema.Struct({ title: Schema.String, url: Schema.String, text: Schema.String }))
})

const PageAnswer = Schema.Struct({ page: Schema.Struct({ url: Schema.String, text: Schema.String }) })

// A key placement per mode, so one module shows each: the search takes its key in a header, in the query or as
// a Bearer token (required); the page fetch works without one.
const placements = {
  header: { key: ProviderHttp.header("x-acme-key", "Key ") },
  query: {
    key: ProviderHttp.inRequest,
    urlParams: (key: Option.Option<Redacted.Redacted<string>>) => ({
      q: "x",
      api_key: Option.match(key, { onNone: () => "", onSome: Redacted.value })
    })
  },
  bearer: {}
} as const

const moduleWith = (mode: keyof typeof placements) => {
  const make = ProviderHttp.make(preset, (client) => ({
    searchKeywords: ProviderHttp.searchKeywords(preset, (call, ctx) =>
      ProviderHttp.getJson(client, call, {
        path: "/v1/search",
        urlParams: { q: call.input, limit: String(ctx.maxResults) },
        schema: SearchAnswer,
        // A refusal in a 200 body: `{ "refused": "…" }`.
        inBody: (json) =>
          typeof json === "object" && json !== null && "refused" in json
            ? { kind: "quota", status: "refused", message: String(json.refused) }
            : undefined,
        ...placements[mode]
      }).pipe(
        Effect.map(({ body }) => ({
          results: body.hits.map((hit) => ({ title: hit.title, url: hit.url, content: hit.text })),
          dropped: 0
        }))
      )
    ),
    fetchUrls: ProviderHttp.fetchUrls(preset, (call) =>
      ProviderHttp.postJson(client, call, {
        path: "/v1/page",
        body: { url: call.input },
        key: ProviderHttp.optional(ProviderHttp.bearer),
        schema: PageAnswer
      }).pipe(Effect.map(({ body }) => ({ title: body.page.url, url: body.page.url, content: body.page.text })))
    )
  }))
  return ProviderHttp.layer(make)
}

let server: Server.ProviderServer
beforeAll(async () => {
  server = await Server.start()
})
afterAll(() => server.close())

const hits = { hits: [{ title: "One", url: "https://one.example/", text: "first" }] }

describe("ProviderHttp: a provider of one's own", () => {
  it("GETs the endpoint with the query and the key where the placement puts it, and maps the decoded body", async () => {
    for (const mode of ["header", "query", "bearer"] as const) {
      server.handle = Server.json(hits)
      server.requests.length = 0
      const response = Server.success(await Server.search(server, "acme", moduleWith(mode), ["coffee"]))
      expect(response.results).toEqual([
        { title: "One", url: "https://one.example/", content: "first", sourceInput: "coffee" }
      ])
      const sent = server.requests[0]
      expect(sent.method).toBe("GET")
      expect(sent.path).toBe("/v1/search")
      expect(sent.headers.accept).toContain("application/json")
      if (mode === "header") expect(sent.headers["x-acme-key"]).toBe(`Key ${Server.canary}`)
      if (mode === "query") expect(sent.query.get("api_key")).toBe(Server.canary)
      if (mode === "bearer") expect(sent.headers.authorization).toBe(`Bearer ${Server.canary}`)
      if (mode !== "query") expect(sent.query.get("q")).toBe("coffee")
    }
  })

  it("a required key that is missing fails before any request, naming where to set it", async () => {
    server.requests.length = 0
    const error = Server.failure(await Server.search(server, "acme", moduleWith("header"), ["coffee"], { keys: [] }))
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "missing_credentials" })
    expect(error.message).toContain("providers.acme.apiKeys or ACME_API_KEY")
    expect(server.requests).toHaveLength(0)
  })

  it("an optional key is left out when none is configured, and sent when one is", async () => {
    server.handle = Server.json({ page: { url: "https://one.example/", text: "the page" } })
    for (const keys of [[], [Server.canary]]) {
      server.requests.length = 0
      const response = Server.success(
        await Server.fetch(server, "acme", moduleWith("bearer"), ["https://one.example/"], { keys })
      )
      expect(response.results[0].content).toBe("the page")
      expect(server.requests[0].method).toBe("POST")
      expect(server.requests[0].body).toEqual({ url: "https://one.example/" })
      expect(server.requests[0].headers.authorization).toBe(keys.length === 0 ? undefined : `Bearer ${Server.canary}`)
    }
  })

  it("reads refusals: a 401 names the key, a refusal in a 200 body fails the call, the key is never shown", async () => {
    server.handle = Server.reply(401, { message: `bad key ${Server.canary}` })
    const rejected = Server.failure(await Server.search(server, "acme", moduleWith("header"), ["coffee"]))
    expect(rejected).toMatchObject({ _tag: "Unavailable", reason: "credentials_rejected" })
    expect(rejected.message).toContain("Acme Search rejected the API key (HTTP 401): bad key [redacted]")
    server.handle = Server.json({ refused: "out of credits" })
    const refused = Server.failure(await Server.search(server, "acme", moduleWith("header"), ["coffee"]))
    expect(refused).toMatchObject({ _tag: "RequestFailed", reason: "rate_limited", retryable: false })
    expect(refused.message).toContain("(code refused): out of credits")
  })

  it("a body that is not JSON, and JSON of another shape, are ResponseInvalid/decode_failed saying which", async () => {
    server.handle = Server.reply(200, "<html>maintenance</html>", { "content-type": "text/html" })
    const notJson = Server.failure(await Server.search(server, "acme", moduleWith("header"), ["coffee"]))
    expect(notJson).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(notJson.message).toContain("answered with a body that is not JSON (text/html")
    server.handle = Server.json({ hits: [{ title: "One", url: 7 }] })
    const shape = Server.failure(await Server.search(server, "acme", moduleWith("header"), ["coffee"]))
    expect(shape).toMatchObject({ _tag: "ResponseInvalid", reason: "decode_failed" })
    expect(shape.message).toContain("answered with an unexpected shape")
    // The schema's own problems, each at its place as code writes it, not the JSON parse wrapped around them.
    expect(shape.message).toContain(
      "unexpected shape: hits[0].url: Expected string, actual 7; hits[0].text: is missing"
    )
    expect(shape.message).not.toContain("parseJson")
  })
})
