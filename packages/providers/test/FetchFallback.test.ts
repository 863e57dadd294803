/**
 * The fetch fallback chain (`fallbacks.fetchUrls`, off by default): a URL the local `fetch` provider cannot read is
 * tried on the next provider (here Jina's Reader on a local server), and a URL the allowlist marks private is never
 * handed to a remote provider, whatever the local attempt did.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as ProviderQuota from "@websearch/core/ProviderQuota"
import * as Settings from "@websearch/core/Settings"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Fetch from "@websearch/node/Fetch"
import * as SafeTransport from "@websearch/node/SafeTransport"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Jina from "../src/Jina.js"
import * as Server from "./support/providerServer.js"

const readerFixture = Server.fixture<Server.FixtureJson>("jina_reader.json")

let reader: Server.ProviderServer
let pages: Server.ProviderServer
const resolved: Array<string> = []
beforeAll(async () => {
  reader = await Server.start(Server.json(readerFixture.response.body))
  pages = await Server.start(Server.reply(500, "the local page server is down"))
})
afterAll(async () => {
  await reader.close()
  await pages.close()
})

const settingsWith = (fallbacks: ReadonlyArray<string>): Settings.SettingsInput => ({
  defaults: { fetchUrls: "fetch" },
  ...(fallbacks.length === 0 ? {} : { fallbacks: { fetchUrls: fallbacks } }),
  providers: { jina: { capabilities: { fetchUrls: { apiHost: reader.url } } } },
  urlPolicy: { allowHosts: [reader.hostPort, pages.hostPort] }
})

// The local fetcher runs on a transport whose resolver knows no public name: no test may leave loopback.
const live = (settings: Settings.SettingsInput) => {
  const transport = Layer.unwrapEffect(
    Effect.map(Settings.Settings, (loaded) =>
      SafeTransport.layer({
        policy: UrlPolicy.fromSettings(loaded),
        lookup: (hostname) => {
          resolved.push(hostname)
          return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }))
        }
      })
    )
  )
  return WebSearch.layer(
    Fetch.layerOnTransport().pipe(Layer.provide(transport)),
    Jina.layer.pipe(Layer.provide(NodeHttpClient.layerUndici)),
    ProviderQuota.layerMemory()
  ).pipe(Layer.provideMerge(Settings.layer(settings)))
}

const fetchUrls = (urls: ReadonlyArray<string>, fallbacks: ReadonlyArray<string>) =>
  Effect.runPromise(
    Effect.exit(FetchUrls.fetchUrls({ urls: [...urls] })).pipe(Effect.provide(live(settingsWith(fallbacks))))
  )

describe("fetchUrls fallback chain", () => {
  it("is off by default: a page the local fetcher cannot read fails, and no remote provider is asked", async () => {
    reader.requests.length = 0
    const exit = await fetchUrls(["https://unreachable.example.com/article"], [])
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error).toMatchObject({
      providerId: "fetch",
      reason: "dns_failed"
    })
    expect(reader.requests).toHaveLength(0)
  })

  it("fetch -> jina: a public page the local fetcher cannot read is read by Jina's Reader", async () => {
    reader.requests.length = 0
    resolved.length = 0
    const url = "https://unreachable.example.com/article"
    const exit = await fetchUrls([url], ["jina"])
    expect(resolved).toContain("unreachable.example.com")
    expect(Exit.isSuccess(exit) && exit.value).toMatchObject({
      providerId: "jina",
      results: [{ title: readerFixture.response.body.data.title, sourceInput: url }]
    })
    expect(reader.requests).toHaveLength(1)
    expect(reader.requests[0].body).toMatchObject({ url })
  })

  it("an allowlisted private URL that fails locally is never sent to Jina", async () => {
    reader.requests.length = 0
    pages.requests.length = 0
    const exit = await fetchUrls([`${pages.url}/internal/report`], ["jina"])
    expect(pages.requests).toHaveLength(1)
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error).toMatchObject({
      _tag: "RequestFailed",
      reason: "ssrf_rejected",
      providerId: "jina"
    })
    expect(reader.requests).toHaveLength(0)
  })
})
