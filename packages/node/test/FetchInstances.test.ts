/**
 * A provider instance of the local fetcher's type reads pages with its own options: `userAgent` (sent, and the
 * robots.txt group it is judged by), `respectRobotsTxt` and `render`, whether the instance comes from the settings
 * (`instances.<id>`) or from a workspace's store (`ProviderInstance.withInstances`). The composed `fetch` provider
 * keeps the application's options. Real sockets on 127.0.0.1.
 */
import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderStoreRules from "@websearch/core/internal/providerStoreRules"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { IncomingMessage } from "node:http"
import * as BrowserRenderer from "../src/BrowserRenderer.js"
import * as Fetch from "../src/Fetch.js"
import * as SafeTransport from "../src/SafeTransport.js"
import * as LocalServer from "./support/localServer.js"

const paragraphs = [
  "Instances of one provider type keep their own settings, and a fetch instance reads pages as it was told to.",
  "A workspace that asks to respect robots.txt gets robots.txt respected, whatever the application's default."
]

const robots = ["User-agent: careful-bot", "Disallow: /private", "", "User-agent: *", "Disallow: /nobody", ""].join(
  "\n"
)

const site = (agents: Array<string>) => {
  const page = (title: string) => (request: IncomingMessage) => {
    agents.push(`${request.url} ${request.headers["user-agent"]}`)
    return LocalServer.html(LocalServer.articlePage(title, paragraphs))
  }
  return {
    "/robots.txt": (request: IncomingMessage) => {
      agents.push(`${request.url} ${request.headers["user-agent"]}`)
      return { headers: { "content-type": "text/plain" }, body: robots }
    },
    "/private": page("Private"),
    "/open": page("Open")
  }
}

const careful = { userAgent: "careful-bot/1.0 (+https://example.com/bot)", respectRobotsTxt: true }

const live = (input: Settings.SettingsInput) =>
  WebSearch.layer(Fetch.layerWith({ workers: false })).pipe(Layer.provideMerge(Settings.layer(input)))

describe("fetch provider instances", () => {
  it.scopedLive("a settings instance's userAgent and respectRobotsTxt apply to its calls, and only to them", () =>
    Effect.gen(function* () {
      const agents: Array<string> = []
      const server = yield* LocalServer.start(site(agents))
      const input: Settings.SettingsInput = {
        urlPolicy: { allowHosts: ["127.0.0.1"] },
        instances: { "careful-fetch": { type: "fetch", ...careful } }
      }
      const urls = [server.url("/private"), server.url("/open")]
      const own = yield* FetchUrls.fetchUrls({ urls, providerId: "careful-fetch" }).pipe(Effect.provide(live(input)))
      expect(own.results.map((r) => r.title)).toEqual(["Open"])
      expect(own.failures).toMatchObject([{ input: urls[0], reason: "robots_disallowed" }])
      expect(own.failures[0].message).toContain('"careful-bot"')
      // The composed provider does not respect robots.txt (the default) and sends the default User-Agent.
      const plain = yield* FetchUrls.fetchUrls({ urls: [urls[0]] }).pipe(Effect.provide(live(input)))
      expect(plain.results.map((r) => r.title)).toEqual(["Private"])
      expect(agents).toEqual([
        `/robots.txt ${careful.userAgent}`,
        `/open ${careful.userAgent}`,
        `/private ${SafeTransport.defaultUserAgent}`
      ])
    })
  )

  it.scopedLive("a stored instance's options apply the same way; render: always without a renderer is refused", () =>
    Effect.gen(function* () {
      const agents: Array<string> = []
      const server = yield* LocalServer.start(site(agents))
      const input: Settings.SettingsInput = { urlPolicy: { allowHosts: ["127.0.0.1"] } }
      const stored = yield* ProviderStoreRules.newInstance("acme", {
        id: "acme-fetch",
        type: "fetch",
        settings: { options: careful },
        credentials: {}
      })
      const rendering = yield* ProviderStoreRules.newInstance("acme", {
        id: "acme-render",
        type: "fetch",
        settings: { options: { render: "always" } },
        credentials: {}
      })
      const call = (providerId: string) =>
        FetchUrls.fetchUrls({ urls: [server.url("/private")], providerId }).pipe(
          ProviderInstance.withInstances("acme", [stored, rendering]),
          Effect.provide(live(input)),
          Effect.flip
        )
      const refused = yield* call("acme-fetch")
      expect([refused._tag, refused.reason]).toEqual(["RequestFailed", "robots_disallowed"])
      expect(agents).toEqual([`/robots.txt ${careful.userAgent}`])
      const unrendered = yield* call("acme-render")
      expect([unrendered._tag, unrendered.reason]).toEqual(["Unavailable", "invalid_config"])
      expect(unrendered.message).toContain('instance "acme-render"')
      expect(unrendered.message).toContain("BrowserRenderer")
      expect(agents).toEqual([`/robots.txt ${careful.userAgent}`])
    })
  )

  it.scopedLive(
    "an instance's render: always renders its pages with the composed renderer; the provider's never does not",
    () =>
      Effect.gen(function* () {
        const server = yield* LocalServer.start({
          "/": LocalServer.html(`<!doctype html><html><head><title>Shell</title></head>
<body><div id="root"></div><script src="/app.js"></script></body></html>`),
          "/app.js": {
            headers: { "content-type": "text/javascript" },
            body: `document.getElementById("root").innerHTML = "<article><h1>Built</h1>" + ${JSON.stringify(
              paragraphs.map((p) => `<p>${p}</p>`).join("")
            )} + "</article>"`
          }
        })
        const input: Settings.SettingsInput = {
          urlPolicy: { allowHosts: ["127.0.0.1"] },
          instances: { "rendering-fetch": { type: "fetch", render: "always" } }
        }
        const rendering = WebSearch.layer(
          Fetch.layerWith({ workers: false }).pipe(Layer.provide(BrowserRenderer.layer()))
        ).pipe(Layer.provideMerge(Settings.layer(input)))
        const [own, plain] = yield* Effect.all(
          [
            FetchUrls.fetchUrls({ urls: [server.url("/")], providerId: "rendering-fetch" }),
            Effect.flip(FetchUrls.fetchUrls({ urls: [server.url("/")] }))
          ],
          { concurrency: 1 }
        ).pipe(Effect.provide(rendering))
        expect(own.results[0]?.content).toContain(paragraphs[0])
        expect(server.count("/app.js")).toBe(1)
        expect(plain.reason).toBe("empty_content")
      }),
    60_000
  )
})
