/**
 * Where a workspace admin may send a workspace's calls, through the management API of a real server: a stored key
 * never follows an endpoint or proxy it was not set for (a PATCH that moves one needs the credentials again), an
 * instance's settings are bounded in size, and an endpoint whose name resolves to an internal address is refused
 * before anything is sent, even through the environment's proxy (a real Brave driver over `ProxyHttpClient`, a
 * CONNECT proxy on loopback that records every tunnel it is asked for, an "internal service" that records every
 * request it gets), without the answer saying what the name resolved to.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ProviderQuota from "@websearch/core/ProviderQuota"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as ProviderStoreRules from "@websearch/core/internal/providerStoreRules"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as ProxyHttpClient from "@websearch/node/ProxyHttpClient"
import * as Brave from "@websearch/providers/Brave"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as ConnectProxy from "../../../test-support/connectProxy.js"
import * as DnsAnswers from "../../../test-support/dnsAnswers.js"
import * as Management from "./support/management.js"
import * as Support from "./support/server.js"

const firstKey = "sk-endpoint-first-7d1c"
const newKey = "sk-endpoint-new-3a9e"
const instance = "/v1/workspaces/acme/providers/acme-tavily"

describe("where a workspace's instances send their keys", () => {
  it.scoped(
    "a PATCH that moves an endpoint or the proxy needs the credentials again; a view written back does not",
    () =>
      Effect.gen(function* () {
        const tavily = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
        const services = Support.live([tavily.driver], { urlPolicy: { allowHosts: ["proxy.example.com"] } })
        const { call } = Management.client(yield* Management.start(services, ProviderStore.layerMemory))
        const { acmeAdmin, acmeMember } = Management.tokens
        const settings = {
          capabilities: { searchKeywords: { apiHost: "https://api.tavily.com" } },
          proxyUrl: "http://proxy.example.com:3128"
        }
        const created = yield* call("POST", "/v1/workspaces/acme/providers", acmeAdmin, {
          id: "acme-tavily",
          type: "tavily",
          settings,
          credentials: { apiKeys: [firstKey] }
        })
        expect(created.status).toBe(201)
        for (const [moved, field] of [
          [{ ...settings, capabilities: { searchKeywords: { apiHost: "https://attacker.example" } } }, "apiHost"],
          [{ ...settings, proxyUrl: "http://proxy.attacker.example:3128" }, "proxyUrl"],
          [{ proxyUrl: settings.proxyUrl }, "apiHost"]
        ] as const) {
          const refused = yield* call("PATCH", instance, acmeAdmin, { settings: moved })
          expect(refused.status).toBe(400)
          expect(refused.json).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
          expect(refused.text).toContain(field)
          expect(refused.text).toContain("credentials")
        }
        const kept = yield* call("GET", instance, acmeAdmin)
        expect(kept.json).toMatchObject({ settings, credentials: { apiKeys: 1 }, revision: 1 })
        // The view written back names the same places: nothing moves.
        const back = yield* call("PATCH", instance, acmeAdmin, {
          settings: (kept.json as { settings: unknown }).settings
        })
        expect(back.status).toBe(200)
        // With the new place's keys in the same request, the move is made, and the next search uses them.
        const moved = yield* call("PATCH", instance, acmeAdmin, {
          settings: { capabilities: { searchKeywords: { apiHost: "https://eu.api.tavily.com" } } },
          credentials: { apiKeys: [newKey] }
        })
        expect(moved.status).toBe(200)
        expect(moved.json).toMatchObject({ credentials: { apiKeys: 1 }, revision: 3 })
        const search = yield* call("POST", "/v1/search", acmeMember, { keywords: ["k"], providerId: "acme-tavily" })
        expect(search.status).toBe(200)
        expect(tavily.recorder.calls.map((c) => c.apiKey)).toEqual([newKey])
        // Or moved with no keys at all.
        const bare = yield* call("PATCH", instance, acmeAdmin, {
          settings: { capabilities: { searchKeywords: { apiHost: "https://attacker.example" } } },
          credentials: {}
        })
        expect(bare.json).toMatchObject({ credentials: { apiKeys: 0, basicAuthPassword: false } })
      })
  )

  it.scoped("an instance's settings are bounded: past 16 KiB of JSON, 400 naming the field", () =>
    Effect.gen(function* () {
      const services = Support.live([])
      const { call } = Management.client(
        yield* Management.start(services, ProviderStore.layerMemory, {
          maxBodyBytes: 1024 * 1024
        })
      )
      const big = { options: { blob: "x".repeat(ProviderStoreRules.maxFieldBytes) } }
      const refused = yield* call("POST", "/v1/workspaces/acme/providers", Management.tokens.acmeAdmin, {
        id: "big",
        type: "searxng",
        settings: big
      })
      expect(refused.status).toBe(400)
      expect(refused.text).toMatch(/settings: \d+ bytes of JSON; an instance's settings may take at most 16384/)
      expect(refused.text).not.toContain("xxxx")
    })
  )

  it.scoped(
    "an endpoint whose name resolves to an internal address is refused through the environment's proxy, asking it nothing",
    () =>
      Effect.gen(function* () {
        const proxy = yield* ConnectProxy.scoped
        const internalHits: Array<string> = []
        const internal = yield* Effect.acquireRelease(
          Effect.async<ReturnType<typeof createServer>>((resume) => {
            const server = createServer((request, response) => {
              internalHits.push(request.url ?? "")
              response.writeHead(401, { "content-type": "application/json" })
              response.end(JSON.stringify({ message: "INTERNAL-ADMIN-SECRET db_password=hunter2" }))
            })
            server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
          }),
          (server) => Effect.sync(() => server.close())
        )
        const port = (internal.address() as AddressInfo).port
        yield* DnsAnswers.scoped({ "search.acme-internal.example": { address: "127.0.0.1", family: 4 } })
        const env = ConfigProvider.fromMap(new Map([["HTTP_PROXY", proxy.url()]]))
        const settings: Settings.SettingsInput = { urlPolicy: { allowHosts: [proxy.hostPort], allowPorts: [port] } }
        const services = WebSearch.layer(Brave.layer, ProviderQuota.layerMemory()).pipe(
          Layer.provide(ProxyHttpClient.layer()),
          Layer.provideMerge(Settings.layer(settings)),
          Layer.provide(Layer.setConfigProvider(env))
        )
        const { call, seen } = Management.client(yield* Management.start(services, ProviderStore.layerMemory))
        const { acmeAdmin, acmeMember } = Management.tokens
        // The name looks public: the write is accepted, as it was in the review.
        const created = yield* call("POST", "/v1/workspaces/acme/providers", acmeAdmin, {
          id: "acme-brave",
          type: "brave",
          settings: { capabilities: { searchKeywords: { apiHost: `http://search.acme-internal.example:${port}` } } },
          credentials: { apiKeys: [firstKey] }
        })
        expect(created.status).toBe(201)
        const search = yield* call("POST", "/v1/search", acmeMember, { keywords: ["x"], providerId: "acme-brave" })
        expect(search.json).toMatchObject({ _tag: "RequestFailed", reason: "ssrf_rejected" })
        expect(search.text).toContain("search.acme-internal.example")
        expect(search.text).not.toContain("127.0.0.1")
        expect(search.text).not.toContain("INTERNAL-ADMIN-SECRET")
        expect(proxy.targets).toEqual([])
        expect(internalHits).toEqual([])
        expect(seen.join("\n")).not.toContain(firstKey)
      }),
    60_000
  )
})
