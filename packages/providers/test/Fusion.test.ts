/**
 * A fused search end to end: two small providers built on ProviderHttp (as a provider module is), each with a
 * local HTTP server of its own on 127.0.0.1, composed with WebSearch.layer over undici. One provider fails one
 * keyword (HTTP 500), the other has a budget of two calls: fused order, attribution, failures and each budget.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type * as Preset from "@websearch/core/Preset"
import * as ProviderQuota from "@websearch/core/ProviderQuota"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as ProviderHttp from "../src/ProviderHttp.js"
import * as Server from "./support/providerServer.js"

const Answer = Schema.Struct({
  hits: Schema.Array(Schema.Struct({ name: Schema.String, link: Schema.String, text: Schema.String }))
})

// A provider as a module writes one: a preset, a GET with the keyword, the answer decoded and mapped.
const provider = (id: string, searchOptions: ReadonlyArray<"timeRange"> = []) => {
  const preset: Preset.Preset = {
    id,
    name: `Provider ${id}`,
    type: "api",
    credentials: "none",
    capabilities: [{ feature: "searchKeywords" }]
  }
  const make = ProviderHttp.make(preset, (client) => ({
    searchOptions,
    searchKeywords: ProviderHttp.searchKeywords(preset, (call, ctx) =>
      ProviderHttp.getJson(client, call, {
        path: "/search",
        key: ProviderHttp.optional(ProviderHttp.bearer),
        schema: Answer,
        urlParams: {
          q: call.input,
          n: String(ctx.maxResults),
          ...(ctx.searchOptions.timeRange === undefined ? {} : { recency: ctx.searchOptions.timeRange })
        }
      }).pipe(
        Effect.map(({ body }) => ({
          results: body.hits.map((hit) => ({ title: hit.name, url: hit.link, content: hit.text })),
          dropped: 0
        }))
      )
    )
  }))
  return ProviderHttp.layer(make)
}

// Alpha ranks the keyword's shared page first, its own second; beta its own first, the shared page second.
const hits = (who: string, q: string) => {
  const shared = { name: `${who} on shared ${q}`, link: `https://shared.example/${q}`, text: `${who} snippet` }
  const own = { name: `${who} own ${q}`, link: `https://${who}.example/${q}`, text: `${who} snippet` }
  return { hits: who === "alpha" ? [shared, own] : [own, shared] }
}

let alpha: Server.ProviderServer
let beta: Server.ProviderServer
beforeAll(async () => {
  alpha = await Server.start((request, res) => Server.json(hits("alpha", request.query.get("q") ?? ""))(request, res))
  beta = await Server.start((request, res) =>
    request.query.get("q") === "k2"
      ? Server.reply(500, { error: "beta is down for k2" })(request, res)
      : Server.json(hits("beta", request.query.get("q") ?? ""))(request, res)
  )
})
afterAll(async () => {
  await alpha.close()
  await beta.close()
})

const live = (settings: Settings.SettingsInput) =>
  WebSearch.layer(provider("alpha", ["timeRange"]), provider("beta", ["timeRange"]), ProviderQuota.layerMemory()).pipe(
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provideMerge(Settings.layer(settings))
  )

const settings = (more: Settings.SettingsInput = {}): Settings.SettingsInput => ({
  defaults: { searchKeywords: null, fetchUrls: null, research: null },
  // One call at a time per provider, so which keyword meets the end of alpha's budget is known.
  concurrency: 1,
  providers: {
    // Two calls, then a wait far past maxWait: the third keyword is refused, not sent.
    alpha: {
      capabilities: { searchKeywords: { apiHost: alpha.url } },
      rateLimit: { limit: 2, window: "1 hour", maxWait: 0 }
    },
    beta: { capabilities: { searchKeywords: { apiHost: beta.url } } }
  },
  urlPolicy: { allowHosts: [alpha.hostPort, beta.hostPort] },
  ...more
})

describe("fused search over real HTTP", () => {
  it.effect("fuses each keyword across providers; one provider's failure and the other's budget are partial", () =>
    Effect.gen(function* () {
      alpha.requests.length = 0
      beta.requests.length = 0
      const response = yield* SearchKeywords.searchKeywords({
        keywords: ["k1", "k2", "k3"],
        providerIds: ["alpha", "beta"],
        maxResults: 5,
        timeRange: "week"
      })
      expect([response.providerId, response.providerIds]).toEqual(["fusion", ["alpha", "beta"]])
      expect(response.results.map((r) => [r.sourceInput, r.title, r.providers])).toEqual([
        // Both found the shared page (1/61 + 1/62); beta's own at its rank 1 beats alpha's own at rank 2.
        ["k1", "alpha on shared k1", ["alpha", "beta"]],
        ["k1", "beta own k1", ["beta"]],
        ["k1", "alpha own k1", ["alpha"]],
        // Beta failed k2: alpha's ranking alone, in its own order.
        ["k2", "alpha on shared k2", ["alpha"]],
        ["k2", "alpha own k2", ["alpha"]],
        // Alpha's budget was spent: beta's ranking alone.
        ["k3", "beta own k3", ["beta"]],
        ["k3", "beta on shared k3", ["beta"]]
      ])
      expect(response.failures.map((f) => [f.input, f.providerId, f._tag, f.reason])).toEqual([
        ["k2", "beta", "RequestFailed", "http_5xx"],
        ["k3", "alpha", "RequestFailed", "rate_limited"]
      ])
      // Each provider within its own budget: alpha was sent two keywords, never the third; beta all three.
      expect(alpha.requests.map((r) => r.query.get("q"))).toEqual(["k1", "k2"])
      expect(new Set(beta.requests.map((r) => r.query.get("q")))).toEqual(new Set(["k1", "k2", "k3"]))
      // Each was given the option it declares, mapped to its own parameter.
      expect([...alpha.requests, ...beta.requests].every((r) => r.query.get("recency") === "week")).toBe(true)
      expect(response.appliedOptions).toEqual([
        { providerId: "alpha", native: ["timeRange"], local: [] },
        { providerId: "beta", native: ["timeRange"], local: [] }
      ])
    }).pipe(Effect.provide(live(settings())))
  )

  it.effect("the request fails only when every provider failed every keyword, listing each pair", () =>
    Effect.gen(function* () {
      alpha.requests.length = 0
      // Alpha's two calls spent on a search of its own; then beta fails k2 and alpha may not call again.
      yield* SearchKeywords.searchKeywords({ keywords: ["a1", "a2"], providerId: "alpha" })
      const error = yield* Effect.flip(
        SearchKeywords.searchKeywords({ keywords: ["k2"], providerIds: ["alpha", "beta"] })
      )
      expect(error.message).toContain("every provider failed every keyword")
      expect(error.failures?.map((f) => [f.input, f.providerId, f.reason])).toEqual([
        ["k2", "alpha", "rate_limited"],
        ["k2", "beta", "http_5xx"]
      ])
      expect(alpha.requests.map((r) => r.query.get("q"))).toEqual(["a1", "a2"])
    }).pipe(Effect.provide(live(settings())))
  )
})
