import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as FetchUrls from "../src/FetchUrls.js"
import type * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as Settings from "../src/Settings.js"
import * as Drivers from "./support/drivers.js"
import * as Registry from "./support/registry.js"

const fetchUrls = FetchUrls.fetchUrls

describe("fetchUrls and the URL policy", () => {
  it.effect("a refused URL fails on its own with ssrf_rejected before any driver call; the others are fetched", () => {
    const fetch = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const refused = [
        "http://127.0.0.1/admin",
        "http://169.254.169.254/latest/meta-data/",
        "http://2130706433:8080/",
        "http://0x0a.1/",
        "http://[::ffff:192.168.0.1]/",
        "http://localhost/",
        "http://printer.local/",
        "https://example.com:8443/",
        "http://metadata.google.internal/computeMetadata/v1/"
      ]
      const response = yield* fetchUrls({ urls: ["https://example.com/a", ...refused, "https://example.org/b"] })
      expect(fetch.recorder.calls.map((c) => c.input)).toEqual(["https://example.com/a", "https://example.org/b"])
      expect(response.results.map((r) => r.sourceInput)).toEqual(["https://example.com/a", "https://example.org/b"])
      expect(response.failures).toHaveLength(refused.length)
      for (const failure of response.failures) {
        expect([failure._tag, failure.reason, failure.retryable]).toEqual(["RequestFailed", "ssrf_rejected", false])
      }
      const messages = response.failures.map((f) => f.message)
      expect(response.failures.map((f) => f.input)).toEqual([
        "http://127.0.0.1/admin",
        "http://169.254.169.254/latest/meta-data/",
        "http://127.0.0.1:8080/",
        "http://10.0.0.1/",
        "http://[::ffff:c0a8:1]/",
        "http://localhost/",
        "http://printer.local/",
        "https://example.com:8443/",
        "http://metadata.google.internal/computeMetadata/v1/"
      ])
      expect(messages[0]).toContain("loopback")
      expect(messages[1]).toContain("cloud metadata")
      expect(messages[3]).toContain("private")
      expect(messages[4]).toContain("private")
      expect(messages[5]).toContain("local name")
      expect(messages[7]).toContain("port 8443")
    }).pipe(Effect.provide(Drivers.layer([fetch])))
  })

  it.effect("when every URL is refused the request fails with the usual all-failed error; no driver is called", () => {
    const fetch = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(fetchUrls({ urls: ["http://10.1.2.3/", "http://[fd00:ec2::254]/"] }))
      expect([error._tag, error.reason, error.providerId, error.capability, error.input]).toEqual([
        "RequestFailed",
        "ssrf_rejected",
        "fetch",
        "fetchUrls",
        "http://10.1.2.3/"
      ])
      expect(error.message).toContain("all 2 inputs failed")
      expect(error.failures?.map((f) => [f.input, f.reason])).toEqual([
        ["http://10.1.2.3/", "ssrf_rejected"],
        ["http://[fd00:ec2::254]/", "ssrf_rejected"]
      ])
      expect(fetch.recorder.calls).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([fetch])))
  })

  it.effect("an allowlisted 127.0.0.1 is handed to the driver", () => {
    const fetch = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const response = yield* fetchUrls({ urls: ["http://127.0.0.1:8080/page", "http://127.0.0.2/"] })
      expect(fetch.recorder.calls.map((c) => c.input)).toEqual(["http://127.0.0.1:8080/page"])
      expect(response.results.map((r) => r.url)).toEqual(["http://127.0.0.1:8080/page"])
      expect(response.failures.map((f) => [f.input, f.reason])).toEqual([["http://127.0.0.2/", "ssrf_rejected"]])
    }).pipe(Effect.provide(Drivers.layer([fetch], { urlPolicy: { allowHosts: ["127.0.0.1"] } })))
  })

  it.effect("a fake-IP proxy block in allowCidrs lets its literals through on the allowed ports", () => {
    const fetch = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const response = yield* fetchUrls({ urls: ["http://198.18.0.7/", "http://198.18.0.7:8080/"] })
      expect(fetch.recorder.calls.map((c) => c.input)).toEqual(["http://198.18.0.7/"])
      expect(response.failures.map((f) => f.message)).toEqual([expect.stringContaining("port 8080")])
    }).pipe(Effect.provide(Drivers.layer([fetch], { urlPolicy: { allowCidrs: ["198.18.0.0/15"] } })))
  })

  it.effect("a refused request does not fall back: another provider must not receive a private URL either", () => {
    const fetch = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    const jina = Drivers.makeDriver("jina", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      const error = yield* Effect.flip(fetchUrls({ urls: ["http://192.168.1.1/"] }))
      expect(error.reason).toBe("ssrf_rejected")
      expect(fetch.recorder.calls).toEqual([])
      expect(jina.recorder.calls).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([fetch, jina], { fallbacks: { fetchUrls: ["jina"] } })))
  })

  it.effect("other schemes and credentials still fail the whole request as invalid input, before any call", () => {
    const fetch = Drivers.makeDriver("fetch", { fetchUrls: Drivers.succeed() })
    return Effect.gen(function* () {
      for (const bad of ["file:///etc/passwd", "https://user:hunter2@example.com/"]) {
        const error = yield* Effect.flip(fetchUrls({ urls: ["https://example.com/", bad] }))
        expect([error.reason, error.input]).toEqual(["invalid_input", bad])
        expect(error.message).not.toContain("hunter2")
      }
      expect(fetch.recorder.calls).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([fetch])))
  })
})

describe("user-set endpoints and the URL policy", () => {
  const loadError = (input: Settings.SettingsInput) => Effect.flip(Settings.make(input))

  it.effect("an overridden apiHost must pass the policy; the error names the field and why", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [Settings.SettingsInput, string, string]> = [
        [
          { providers: { searxng: { capabilities: { searchKeywords: { apiHost: "http://searxng:8080" } } } } },
          "providers.searxng.capabilities.searchKeywords.apiHost",
          "single-label"
        ],
        [
          { providers: { jina: { capabilities: { fetchUrls: { apiHost: "http://127.0.0.1:9/reader" } } } } },
          "providers.jina.capabilities.fetchUrls.apiHost",
          "loopback"
        ],
        [
          { providers: { searxng: { capabilities: { searchKeywords: { apiHost: "https://searx.corp.internal" } } } } },
          "providers.searxng.capabilities.searchKeywords.apiHost",
          "*.internal"
        ],
        [
          { providers: { brave: { capabilities: { searchKeywords: { apiHost: "http://169.254.169.254/" } } } } },
          "providers.brave.capabilities.searchKeywords.apiHost",
          "cloud metadata"
        ],
        [
          {
            urlPolicy: { allowCidrs: ["10.0.0.0/8"] },
            providers: { searxng: { capabilities: { searchKeywords: { apiHost: "http://10.0.0.5:8080" } } } }
          },
          "providers.searxng.capabilities.searchKeywords.apiHost",
          "port 8080"
        ]
      ]
      for (const [input, field, why] of cases) {
        const error = yield* loadError(input)
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toContain(`${field}: `)
        expect(error.message).toContain(why)
      }
    })
  )

  it.effect("an allowlisted host, an allowed port or a public name loads", () =>
    Effect.gen(function* () {
      const apiHost = (registry: ProviderRegistry.ProviderRegistry.Service, id: string) =>
        registry.providers.get(id)?.capabilities[0].apiHost
      const searx = yield* Registry.load({
        urlPolicy: { allowHosts: ["searxng"] },
        providers: { searxng: { capabilities: { searchKeywords: { apiHost: "http://searxng:8080" } } } }
      })
      expect(apiHost(searx, "searxng")).toBe("http://searxng:8080")
      const cidr = yield* Registry.load({
        urlPolicy: { allowCidrs: ["10.0.0.0/8"], allowPorts: [8080] },
        providers: { searxng: { capabilities: { searchKeywords: { apiHost: "http://10.0.0.5:8080" } } } }
      })
      expect(apiHost(cidr, "searxng")).toBe("http://10.0.0.5:8080")
      const reader = yield* Registry.load({
        urlPolicy: { allowHosts: ["127.0.0.1:9"] },
        providers: { jina: { capabilities: { fetchUrls: { apiHost: "http://127.0.0.1:9/reader" } } } }
      })
      expect(reader.providers.get("jina")?.capabilities[1].apiHost).toBe("http://127.0.0.1:9/reader")
      const named = yield* Registry.load({
        providers: { searxng: { capabilities: { searchKeywords: { apiHost: "https://searx.example.org" } } } }
      })
      expect(apiHost(named, "searxng")).toBe("https://searx.example.org")
    })
  )

  it.effect("endpoints from the environment are checked the same way", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Registry.fromLayer(Settings.layerConfig()).pipe(
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["SEARXNG_API_HOST", "http://localhost:8888"]])))
        )
      )
      expect(error.reason).toBe("invalid_config")
      expect(error.message).toContain("providers.searxng.capabilities.searchKeywords.apiHost")
      expect(error.message).toContain("local name")
      expect(error.message).toContain("(from environment)")
    })
  )
})
