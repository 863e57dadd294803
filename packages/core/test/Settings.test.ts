import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as Settings from "../src/Settings.js"
import type * as WebSearchError from "../src/WebSearchError.js"

const load = (input: unknown) => Settings.make(input)

const loadError = (input: unknown) => Effect.flip(Settings.make(input))

const fromLayer = <R>(
  layer: Layer.Layer<Settings.Settings, WebSearchError.Unavailable, R>
): Effect.Effect<Settings.Service, WebSearchError.Unavailable, R> => Effect.provide(Settings.Settings, layer)

const withEnv = (entries: ReadonlyArray<readonly [string, string]>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries)))

const apiHost = (settings: Settings.Service, id: string, feature: string) =>
  settings.providers.get(id)?.capabilities.find((c) => c.feature === feature)?.apiHost

const tempFile = (name: string, contents: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "websearch-settings-"))
      const file = path.join(dir, name)
      await fs.writeFile(file, contents)
      return { dir, file }
    }),
    ({ dir }) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
  ).pipe(Effect.map(({ file }) => file))

describe("Settings", () => {
  describe("presets and overrides", () => {
    it.effect("with no settings: duckduckgo searches, the local fetch provider fetches, research has no default", () =>
      Effect.gen(function* () {
        const settings = yield* load({})
        expect(settings.defaults).toEqual({ searchKeywords: "duckduckgo", fetchUrls: "fetch", research: null })
        expect(settings.maxResults).toBe(10)
        expect(settings.concurrency).toBe(5)
        expect(Duration.toMillis(settings.timeouts.searchKeywords)).toBe(20_000)
        expect(settings.providers.size).toBeGreaterThan(20)
      })
    )

    it.effect(
      "engineId and fetchResults belong to the providers that take them, from a document or the environment",
      () =>
        Effect.gen(function* () {
          const loaded = yield* load({
            providers: { google: { engineId: "cx-123" }, searxng: { fetchResults: true } }
          })
          expect(loaded.providers.get("google")?.engineId).toEqual(Option.some("cx-123"))
          expect(loaded.providers.get("searxng")?.fetchResults).toEqual(Option.some(true))
          const misplaced = yield* Effect.flip(
            load({ providers: { tavily: { engineId: "cx-123" }, brave: { fetchResults: true } } })
          )
          expect(misplaced.reason).toBe("invalid_config")
          expect(misplaced.message).toContain("providers.tavily.engineId")
          expect(misplaced.message).toContain("providers.brave.fetchResults")
          const fromEnv = yield* Settings.fromConfig.pipe(
            withEnv([
              ["GOOGLE_ENGINE_ID", "cx-env"],
              ["SEARXNG_FETCH_RESULTS", "true"]
            ])
          )
          expect(fromEnv.providers?.google?.engineId).toBe("cx-env")
          expect(fromEnv.providers?.searxng?.fetchResults).toBe(true)
        })
    )

    it.effect(
      "a capability-level apiHost replaces only that capability's endpoint (Jina's two endpoints separately)",
      () =>
        Effect.gen(function* () {
          const fetchOnly = yield* load({
            providers: { jina: { capabilities: { fetchUrls: { apiHost: "https://reader.internal.example" } } } }
          })
          expect(apiHost(fetchOnly, "jina", "searchKeywords")).toBe("https://s.jina.ai")
          expect(apiHost(fetchOnly, "jina", "fetchUrls")).toBe("https://reader.internal.example")

          const searchOnly = yield* load({
            providers: { jina: { capabilities: { searchKeywords: { apiHost: "https://search.internal.example" } } } }
          })
          expect(apiHost(searchOnly, "jina", "searchKeywords")).toBe("https://search.internal.example")
          expect(apiHost(searchOnly, "jina", "fetchUrls")).toBe("https://r.jina.ai")

          const ctx = yield* fetchOnly.resolve("jina", "fetchUrls")
          expect(Option.getOrUndefined(ctx.apiHost)).toBe("https://reader.internal.example")
          // Other providers keep their presets.
          expect(apiHost(fetchOnly, "tavily", "fetchUrls")).toBe("https://api.tavily.com")
        })
    )

    it.effect("overrides merge onto the preset: keys as Redacted, engines, basic auth, model", () =>
      Effect.gen(function* () {
        const settings = yield* load({
          providers: {
            searxng: {
              capabilities: { searchKeywords: { apiHost: "https://searx.example" } },
              engines: [" google ", "bing"],
              basicAuthUsername: "admin",
              basicAuthPassword: "pw-1234"
            },
            openai: { apiKeys: ["sk-test-0001"], model: "gpt-test" }
          }
        })
        const searxng = settings.providers.get("searxng")
        expect(searxng?.name).toBe("SearXNG")
        expect(searxng?.engines).toEqual(["google", "bing"])
        expect(
          Option.map(searxng?.basicAuth ?? Option.none(), (a) => [a.username, Redacted.value(a.password)])
        ).toEqual(Option.some(["admin", "pw-1234"]))
        const openai = settings.providers.get("openai")
        expect(openai?.apiKeys.map(Redacted.value)).toEqual(["sk-test-0001"])
        expect(openai?.model).toEqual(Option.some("gpt-test"))
        expect(settings.providers.get("tavily")?.apiKeys).toEqual([])
      })
    )

    it.effect("resolve rotates keys round-robin per provider and passes maxResults and the capability timeout", () =>
      Effect.gen(function* () {
        const settings = yield* load({
          providers: { tavily: { apiKeys: ["key-a-0001", "key-b-0002"] } },
          maxResults: 7,
          timeouts: { fetchUrls: 1234 }
        })
        const keys: Array<string | undefined> = []
        for (let i = 0; i < 3; i++) {
          const ctx = yield* settings.resolve("tavily", i === 1 ? "fetchUrls" : "searchKeywords")
          keys.push(Option.getOrUndefined(Option.map(ctx.apiKey, Redacted.value)))
        }
        expect(keys).toEqual(["key-a-0001", "key-b-0002", "key-a-0001"])
        const ctx = yield* settings.resolve("tavily", "fetchUrls", { maxResults: 3 })
        expect(ctx.maxResults).toBe(3)
        expect(Duration.toMillis(ctx.timeout)).toBe(1234)
        expect((yield* settings.resolve("duckduckgo", "searchKeywords")).maxResults).toBe(7)
        expect(Option.isNone((yield* settings.resolve("duckduckgo", "searchKeywords")).apiKey)).toBe(true)
      })
    )

    it.effect("resolve fails with unknown_provider and unsupported_capability", () =>
      Effect.gen(function* () {
        const settings = yield* load({})
        const unknown = yield* Effect.flip(settings.resolve("nope", "searchKeywords"))
        expect([unknown.reason, unknown.providerId]).toEqual(["unknown_provider", "nope"])
        const unsupported = yield* Effect.flip(settings.resolve("fetch", "searchKeywords"))
        expect([unsupported.reason, unsupported.providerId, unsupported.capability]).toEqual([
          "unsupported_capability",
          "fetch",
          "searchKeywords"
        ])
      })
    )
  })

  describe("validation", () => {
    it.effect("an override of a capability the preset lacks is rejected naming the field", () =>
      Effect.gen(function* () {
        const error = yield* loadError({
          providers: { brave: { capabilities: { fetchUrls: { apiHost: "https://brave.example" } } } }
        })
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toContain("providers.brave.capabilities.fetchUrls")
        expect(error.message).toContain("brave has no fetchUrls capability")
      })
    )

    it.effect("an unknown provider id is rejected", () =>
      Effect.gen(function* () {
        const error = yield* loadError({ providers: { "not-a-provider": { apiKeys: ["k-0001"] } } })
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain("providers.not-a-provider: unknown provider")
        const badDefault = yield* loadError({ defaults: { searchKeywords: "nope" } })
        expect(badDefault.message).toContain('defaults.searchKeywords: unknown provider "nope"')
      })
    )

    it.effect("an unknown top-level key is rejected", () =>
      Effect.gen(function* () {
        const error = yield* loadError({ maxResults: 5, maxresults: 5 })
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain("maxresults")
        expect(error.message).toContain("(from code)")
        const nested = yield* loadError({ providers: { tavily: { apiKey: "k-0001" } } })
        expect(nested.message).toContain("providers.tavily.apiKey")
      })
    )

    it.effect("a bad blacklist or allowlist entry is reported with its index", () =>
      Effect.gen(function* () {
        const error = yield* loadError({ blacklist: ["example.com", "*://foo.*.com/*", "/ok/"] })
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain("blacklist.1")
        expect(error.message).toContain("foo.*.com")
        expect(error.message).not.toContain("blacklist.0")
        const allow = yield* loadError({ allowlist: ["docs.example", "/x/g"] })
        expect(allow.message).toContain("allowlist.1")
      })
    )

    it.effect("out-of-range limits, unpaired basic auth and bad endpoints name their field", () =>
      Effect.gen(function* () {
        expect((yield* loadError({ concurrency: 0 })).message).toContain("concurrency")
        expect((yield* loadError({ maxResults: 51 })).message).toContain("maxResults")
        expect((yield* loadError({ timeouts: { research: 0 } })).message).toContain("timeouts.research")
        expect((yield* loadError({ providers: { searxng: { basicAuthUsername: "u" } } })).message).toContain(
          "providers.searxng: basicAuthUsername and basicAuthPassword go together"
        )
        const host = yield* loadError({
          providers: { jina: { capabilities: { fetchUrls: { apiHost: "ftp://reader.example" } } } }
        })
        expect(host.message).toContain("providers.jina.capabilities.fetchUrls.apiHost")
        expect((yield* loadError({ providers: { tavily: { apiKeys: ["  "] } } })).message).toContain(
          "providers.tavily.apiKeys.0"
        )
      })
    )

    it.effect("every problem is reported at once", () =>
      Effect.gen(function* () {
        const error = yield* loadError({
          defaults: { fetchUrls: "duckduckgo" },
          providers: { nope: {}, brave: { capabilities: { fetchUrls: {} } } }
        })
        for (const field of ["providers.nope", "providers.brave.capabilities.fetchUrls", "defaults.fetchUrls"]) {
          expect(error.message).toContain(field)
        }
      })
    )
  })

  describe("environment (layerConfig)", () => {
    it.effect(
      "reads TAVILY_API_KEY with two comma-separated keys, the default provider and a per-capability host",
      () =>
        Effect.gen(function* () {
          const settings = yield* fromLayer(Settings.layerConfig()).pipe(
            withEnv([
              ["TAVILY_API_KEY", " tvly-one-0001 , tvly-two-0002 ,"],
              ["WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER", "tavily"],
              ["WEBSEARCH_DEFAULT_RESEARCH_PROVIDER", "none"],
              ["JINA_FETCH_URLS_API_HOST", "https://reader.internal.example"],
              ["BRAVE_API_HOST", "https://brave.internal.example"],
              ["SEARXNG_ENGINES", "google, bing"],
              ["WEBSEARCH_MAX_RESULTS", "4"],
              ["WEBSEARCH_CONCURRENCY", "3"]
            ])
          )
          expect(settings.providers.get("tavily")?.apiKeys.map(Redacted.value)).toEqual([
            "tvly-one-0001",
            "tvly-two-0002"
          ])
          expect(settings.defaults.searchKeywords).toBe("tavily")
          expect(settings.defaults.fetchUrls).toBe("fetch")
          expect(settings.defaults.research).toBeNull()
          expect(apiHost(settings, "jina", "fetchUrls")).toBe("https://reader.internal.example")
          expect(apiHost(settings, "jina", "searchKeywords")).toBe("https://s.jina.ai")
          expect(apiHost(settings, "brave", "searchKeywords")).toBe("https://brave.internal.example")
          expect(settings.providers.get("searxng")?.engines).toEqual(["google", "bing"])
          expect([settings.maxResults, settings.concurrency]).toEqual([4, 3])
        })
    )

    it.effect("JINA_API_HOST is rejected as ambiguous, naming the per-capability variables", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(
          fromLayer(Settings.layerConfig()).pipe(withEnv([["JINA_API_HOST", "https://jina.internal.example"]]))
        )
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toContain("JINA_API_HOST")
        expect(error.message).toContain("JINA_SEARCH_KEYWORDS_API_HOST")
        expect(error.message).toContain("JINA_FETCH_URLS_API_HOST")
        expect(error.message).toContain("(from environment)")
      })
    )

    it.effect("invalid environment values fail with invalid_config naming the variable or field", () =>
      Effect.gen(function* () {
        const notInt = yield* Effect.flip(
          fromLayer(Settings.layerConfig()).pipe(withEnv([["WEBSEARCH_CONCURRENCY", "lots"]]))
        )
        expect(notInt.reason).toBe("invalid_config")
        expect(notInt.message).toContain("WEBSEARCH_CONCURRENCY")
        const badDefault = yield* Effect.flip(
          fromLayer(Settings.layerConfig()).pipe(withEnv([["WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER", "brave"]]))
        )
        expect(badDefault.message).toContain("defaults.fetchUrls")
        expect(badDefault.message).toContain("(from environment)")
      })
    )
  })

  describe("file (layerFile)", () => {
    it.scoped("a valid file loads", () =>
      Effect.gen(function* () {
        const file = yield* tempFile(
          "settings.json",
          JSON.stringify({
            defaults: { fetchUrls: "jina" },
            providers: { jina: { apiKeys: ["jina-file-0001"] } },
            blacklist: ["ads.example"]
          })
        )
        const settings = yield* fromLayer(Settings.layerFile(file)).pipe(Effect.provide(NodeFileSystem.layer))
        expect(settings.defaults.fetchUrls).toBe("jina")
        expect(settings.providers.get("jina")?.apiKeys.map(Redacted.value)).toEqual(["jina-file-0001"])
        expect(settings.filter.blacklist.test("https://ads.example/x")).toBe(true)
      })
    )

    it.scoped("invalid JSON fails with invalid_config naming the file", () =>
      Effect.gen(function* () {
        const file = yield* tempFile("broken.json", "{ not json")
        const error = yield* Effect.flip(fromLayer(Settings.layerFile(file)).pipe(Effect.provide(NodeFileSystem.layer)))
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toContain(file)
        expect(error.message).toContain("not valid JSON")
      })
    )

    it.scoped("invalid JSON next to a key says where the problem is without quoting the text around it", () =>
      Effect.gen(function* () {
        const key = "tvly-SETTINGS-CANARY-0123"
        for (const [text, where] of [
          [`{"providers": {"tavily": {"apiKeys": [x"${key}"]}}}`, "Unexpected token 'x'"],
          [`{"providers": {"tavily": {"apiKeys": ["${key}"}}}`, "after array element at line 1, column 66"],
          [`{\n  "providers": {"tavily": {"apiKeys": ["${key}`, "at line 2, column"]
        ] as const) {
          const file = yield* tempFile("near-key.json", text)
          const error = yield* Effect.flip(
            fromLayer(Settings.layerFile(file)).pipe(Effect.provide(NodeFileSystem.layer))
          )
          expect(error.message).toContain(where)
          expect(error.message).not.toContain("tvly")
        }
      })
    )

    it.scoped("a missing file and an invalid document name the file", () =>
      Effect.gen(function* () {
        const missing = path.join(os.tmpdir(), "websearch-settings-does-not-exist", "settings.json")
        const notFound = yield* Effect.flip(
          fromLayer(Settings.layerFile(missing)).pipe(Effect.provide(NodeFileSystem.layer))
        )
        expect(notFound.reason).toBe("invalid_config")
        expect(notFound.message).toContain(missing)
        const file = yield* tempFile("invalid.json", JSON.stringify({ concurrency: 99 }))
        const invalid = yield* Effect.flip(
          fromLayer(Settings.layerFile(file)).pipe(Effect.provide(NodeFileSystem.layer))
        )
        expect(invalid.message).toContain("concurrency")
        expect(invalid.message).toContain(`(from ${file})`)
      })
    )

    it.scoped("with { env: true } the environment is laid over the file", () =>
      Effect.gen(function* () {
        const file = yield* tempFile(
          "settings.json",
          JSON.stringify({
            defaults: { searchKeywords: "brave", fetchUrls: "jina" },
            providers: {
              jina: {
                apiKeys: ["jina-file-0001"],
                capabilities: { searchKeywords: { apiHost: "https://search.file.example" } }
              }
            },
            maxResults: 6
          })
        )
        const settings = yield* fromLayer(Settings.layerFile(file, { env: true })).pipe(
          Effect.provide(NodeFileSystem.layer),
          withEnv([
            ["WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER", "tavily"],
            ["JINA_API_KEY", "jina-env-0001"],
            ["JINA_FETCH_URLS_API_HOST", "https://reader.env.example"]
          ])
        )
        expect(settings.defaults).toEqual({ searchKeywords: "tavily", fetchUrls: "jina", research: null })
        expect(settings.providers.get("jina")?.apiKeys.map(Redacted.value)).toEqual(["jina-env-0001"])
        expect(apiHost(settings, "jina", "searchKeywords")).toBe("https://search.file.example")
        expect(apiHost(settings, "jina", "fetchUrls")).toBe("https://reader.env.example")
        expect(settings.maxResults).toBe(6)

        const fileOnly = yield* fromLayer(Settings.layerFile(file)).pipe(
          Effect.provide(NodeFileSystem.layer),
          withEnv([["WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER", "tavily"]])
        )
        expect(fileOnly.defaults.searchKeywords).toBe("brave")
      })
    )

    it.scoped("with { env: true } a file that is not a settings object fails with invalid_config naming the file", () =>
      Effect.gen(function* () {
        for (const contents of ["null", "[1, 2]", '"tavily"', JSON.stringify({ providers: { tavily: 5 } })]) {
          const file = yield* tempFile("odd.json", contents)
          const error = yield* Effect.flip(
            fromLayer(Settings.layerFile(file, { env: true })).pipe(
              Effect.provide(NodeFileSystem.layer),
              withEnv([["TAVILY_API_KEY", "tvly-env-0001"]])
            )
          )
          expect([error._tag, error.reason], contents).toEqual(["Unavailable", "invalid_config"])
          expect(error.message, contents).toContain(file)
        }
      })
    )
  })

  describe("merge", () => {
    it("the overlay wins for scalars and lists; defaults, providers, capabilities, urlPolicy and timeouts merge by key", () => {
      const merged = Settings.merge(
        {
          defaults: { searchKeywords: "brave", fetchUrls: "jina" },
          providers: {
            jina: {
              apiKeys: ["base-key-0001"],
              engines: ["a"],
              capabilities: { searchKeywords: { apiHost: "https://s.base.example" } }
            },
            brave: { apiKeys: ["brave-key-0001"] }
          },
          blacklist: ["base.example"],
          maxResults: 5,
          concurrency: 2,
          urlPolicy: { allowHosts: ["base.local"], allowPorts: [8080] },
          timeouts: { searchKeywords: 1000, fetchUrls: 2000 }
        },
        {
          defaults: { searchKeywords: "tavily" },
          providers: {
            jina: {
              apiKeys: ["overlay-key-0001"],
              capabilities: { fetchUrls: { apiHost: "https://r.overlay.example" } }
            },
            tavily: { apiKeys: ["tvly-key-0001"] }
          },
          blacklist: ["overlay.example"],
          maxResults: 9,
          urlPolicy: { allowHosts: ["overlay.local"] },
          timeouts: { fetchUrls: 3000 }
        }
      )
      expect(merged).toEqual({
        defaults: { searchKeywords: "tavily", fetchUrls: "jina" },
        providers: {
          jina: {
            apiKeys: ["overlay-key-0001"],
            engines: ["a"],
            capabilities: {
              searchKeywords: { apiHost: "https://s.base.example" },
              fetchUrls: { apiHost: "https://r.overlay.example" }
            }
          },
          brave: { apiKeys: ["brave-key-0001"] },
          tavily: { apiKeys: ["tvly-key-0001"] }
        },
        blacklist: ["overlay.example"],
        maxResults: 9,
        concurrency: 2,
        urlPolicy: { allowHosts: ["overlay.local"], allowPorts: [8080] },
        timeouts: { searchKeywords: 1000, fetchUrls: 3000 }
      })
    })

    it("merging with an empty document changes nothing", () => {
      const base: Settings.SettingsInput = { defaults: { research: "openai" }, maxResults: 3 }
      expect(Settings.merge(base, {})).toEqual(base)
      expect(Settings.merge({}, base)).toEqual(base)
    })
  })
})

describe("settings error messages", () => {
  it.effect("a malformed environment value names the variable and the problem, nothing else", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Settings.fromConfig.pipe(
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["WEBSEARCH_MAX_RESULTS", "abc"]])))
        )
      )
      expect(error.message).toBe(
        'invalid settings: WEBSEARCH_MAX_RESULTS: Expected an integer value but received "abc" (from environment)'
      )
    })
  )

  it.effect("a malformed nullable provider id reports the id rule, not the null alternative", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Settings.make({ defaults: { fetchUrls: "Not An Id" } }))
      expect(error.message).toContain("defaults.fetchUrls: a provider id is 1-64 characters")
      expect(error.message).not.toContain("Expected null")
    })
  )
})
