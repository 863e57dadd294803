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
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as Settings from "../src/Settings.js"
import type * as WebSearchError from "../src/WebSearchError.js"
import * as Presets from "./support/presets.js"
import * as Registry from "./support/registry.js"

const load = (input: unknown) => Settings.make(input)

const loadError = (input: unknown) => Effect.flip(Settings.make(input))

const fromLayer = <R>(
  layer: Layer.Layer<Settings.Settings, WebSearchError.Unavailable, R>
): Effect.Effect<Settings.Settings.Service, WebSearchError.Unavailable, R> => Effect.provide(Settings.Settings, layer)

const withEnv = (entries: ReadonlyArray<readonly [string, string]>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries)))

// Overrides meet the composed providers when the application's layer is built: the registry is what they resolve to.
const apiHost = Registry.apiHost

const registryError = (input: unknown) => Effect.flip(Registry.load(input))

/** The settings a layer loads and the registry of the fixture providers composed over them. */
const composed = <R>(layer: Layer.Layer<Settings.Settings, WebSearchError.Unavailable, R>) =>
  Effect.provide(
    Effect.all({ settings: Settings.Settings, registry: ProviderRegistry.ProviderRegistry }),
    Registry.layer(layer)
  )

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
    it.effect(
      "with no settings core chooses no default provider: the settings say nothing, the registry has none",
      () =>
        Effect.gen(function* () {
          const settings = yield* load({})
          expect(settings.defaults).toEqual({ searchKeywords: undefined, fetchUrls: undefined, research: undefined })
          expect(settings.overrides.size).toBe(0)
          expect(settings.maxResults).toBe(10)
          expect(settings.concurrency).toBe(5)
          expect(Duration.toMillis(settings.timeouts.searchKeywords)).toBe(20_000)
          // Without a bundle proposing defaults, no capability has one; every composed provider is resolved.
          const registry = yield* Registry.load({})
          expect(registry.defaults).toEqual({
            searchKeywords: null,
            fetchUrls: null,
            research: null,
            mapSite: null,
            crawlSite: null
          })
          expect(registry.providers.size).toBe(Presets.all.length)
          expect(registry.providers.size).toBeGreaterThan(20)
        })
    )

    it.effect(
      "engineId and fetchResults belong to the providers that take them, from a document or the environment",
      () =>
        Effect.gen(function* () {
          const loaded = yield* Registry.load({
            providers: { google: { engineId: "cx-123" }, searxng: { fetchResults: true } }
          })
          expect(loaded.providers.get("google")?.options).toEqual({ engineId: "cx-123" })
          expect(loaded.providers.get("searxng")?.options).toEqual({ fetchResults: true })
          expect(loaded.providers.get("tavily")?.options).toBeUndefined()
          const misplaced = yield* registryError({
            providers: { tavily: { engineId: "cx-123" }, brave: { fetchResults: true } }
          })
          expect(misplaced.reason).toBe("invalid_config")
          expect(misplaced.message).toContain('providers.tavily.engineId: Tavily takes no option "engineId"')
          expect(misplaced.message).toContain(
            'providers.brave.fetchResults: Brave Search takes no option "fetchResults"'
          )
          const badValue = yield* registryError({ providers: { searxng: { fetchResults: "often" } } })
          expect(badValue.message).toContain("providers.searxng.fetchResults")
          // The environment is read for the composed providers when the registry is built.
          const env = [
            ["GOOGLE_ENGINE_ID", "cx-env"],
            ["SEARXNG_FETCH_RESULTS", "true"]
          ] as const
          expect((yield* Settings.fromConfig.pipe(withEnv(env))).providers).toBeUndefined()
          const fromEnv = yield* Registry.fromLayer(Settings.layerConfig()).pipe(withEnv(env))
          expect(fromEnv.providers.get("google")?.options).toEqual({ engineId: "cx-env" })
          expect(fromEnv.providers.get("searxng")?.options).toEqual({ fetchResults: true })
        })
    )

    it.effect(
      "a capability-level apiHost replaces only that capability's endpoint (Jina's two endpoints separately)",
      () =>
        Effect.gen(function* () {
          const fetchOnly = yield* Registry.load({
            providers: { jina: { capabilities: { fetchUrls: { apiHost: "https://reader.internal.example" } } } }
          })
          expect(apiHost(fetchOnly, "jina", "searchKeywords")).toBe("https://s.jina.ai")
          expect(apiHost(fetchOnly, "jina", "fetchUrls")).toBe("https://reader.internal.example")

          const searchOnly = yield* Registry.load({
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
        const settings = yield* Registry.load({
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
        const settings = yield* Registry.load({
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
        const settings = yield* Registry.load({})
        const unknown = yield* Effect.flip(settings.resolve("nope", "searchKeywords"))
        expect([unknown.reason, unknown.providerId]).toEqual(["unknown_provider", "nope"])
        expect(unknown.message).toContain('unknown provider "nope": no composed provider has this id (composed: ')
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
        const error = yield* registryError({
          providers: { brave: { capabilities: { fetchUrls: { apiHost: "https://brave.example" } } } }
        })
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message).toContain("providers.brave.capabilities.fetchUrls")
        expect(error.message).toContain("brave has no fetchUrls capability")
      })
    )

    it.effect("an id no composed provider has is rejected at start, naming the composed ids", () =>
      Effect.gen(function* () {
        const document = { providers: { "not-a-provider": { apiKeys: ["k-0001"] } } }
        // Loading cannot know which providers the application composes; starting it does.
        yield* load(document)
        const error = yield* registryError(document)
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain("providers.not-a-provider: no composed provider has this id (composed: ")
        const listed = /\(composed: ([^)]*)\)/.exec(error.message)?.[1].split(", ")
        expect(new Set(listed)).toEqual(new Set(Presets.all.map((p) => p.id)))
        const badDefault = yield* registryError({ defaults: { searchKeywords: "nope" } })
        expect(badDefault.message).toContain('defaults.searchKeywords: no composed provider "nope" (composed: ')
      })
    )

    it.effect("an unknown top-level key is rejected", () =>
      Effect.gen(function* () {
        const error = yield* loadError({ maxResults: 5, maxresults: 5 })
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain("maxresults")
        expect(error.message).toContain("(from code)")
        // A misspelt common field is, to the settings, one of the provider's own options: refused at start.
        const nested = yield* registryError({ providers: { tavily: { apiKey: "k-0001" } } })
        expect(nested.message).toContain('providers.tavily.apiKey: Tavily takes no option "apiKey"')
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
        const error = yield* registryError({
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
          const { registry, settings } = yield* composed(Settings.layerConfig()).pipe(
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
          expect(registry.providers.get("tavily")?.apiKeys.map(Redacted.value)).toEqual([
            "tvly-one-0001",
            "tvly-two-0002"
          ])
          expect(settings.defaults).toEqual({ searchKeywords: "tavily", fetchUrls: undefined, research: null })
          expect(registry.defaults).toEqual({
            searchKeywords: "tavily",
            fetchUrls: null,
            research: null,
            mapSite: null,
            crawlSite: null
          })
          expect(apiHost(registry, "jina", "fetchUrls")).toBe("https://reader.internal.example")
          expect(apiHost(registry, "jina", "searchKeywords")).toBe("https://s.jina.ai")
          expect(apiHost(registry, "brave", "searchKeywords")).toBe("https://brave.internal.example")
          expect(registry.providers.get("searxng")?.engines).toEqual(["google", "bing"])
          expect([settings.maxResults, settings.concurrency]).toEqual([4, 3])
        })
    )

    // Issue 36: the documented form works for every provider; the per-capability variable wins over it.
    it.effect("<ID>_API_HOST sets every capability's endpoint; <ID>_<CAPABILITY>_API_HOST wins for its own", () =>
      Effect.gen(function* () {
        const both = yield* Registry.fromLayer(Settings.layerConfig()).pipe(
          withEnv([
            ["TAVILY_API_HOST", "https://tavily.internal.example"],
            ["JINA_API_HOST", "https://jina.internal.example"],
            ["JINA_FETCH_URLS_API_HOST", "https://reader.internal.example"]
          ])
        )
        expect(apiHost(both, "tavily", "searchKeywords")).toBe("https://tavily.internal.example")
        expect(apiHost(both, "tavily", "fetchUrls")).toBe("https://tavily.internal.example")
        expect(apiHost(both, "jina", "searchKeywords")).toBe("https://jina.internal.example")
        expect(apiHost(both, "jina", "fetchUrls")).toBe("https://reader.internal.example")
        // A host that is not public is still refused under the URL policy, naming the variable's field.
        const refused = yield* Effect.flip(
          Registry.fromLayer(Settings.layerConfig()).pipe(withEnv([["EXA_API_HOST", "http://127.0.0.1:9"]]))
        )
        expect([refused._tag, refused.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(refused.message).toContain("127.0.0.1")
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
          Registry.fromLayer(Settings.layerConfig()).pipe(withEnv([["WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER", "brave"]]))
        )
        expect(badDefault.message).toContain("defaults.fetchUrls: brave has no fetchUrls capability")
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
        const { registry, settings } = yield* composed(Settings.layerFile(file)).pipe(
          Effect.provide(NodeFileSystem.layer)
        )
        expect(settings.defaults.fetchUrls).toBe("jina")
        expect(registry.defaults.fetchUrls).toBe("jina")
        expect(registry.providers.get("jina")?.apiKeys.map(Redacted.value)).toEqual(["jina-file-0001"])
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
        const { registry, settings } = yield* composed(Settings.layerFile(file, { env: true })).pipe(
          Effect.provide(NodeFileSystem.layer),
          withEnv([
            ["WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER", "tavily"],
            ["JINA_API_KEY", "jina-env-0001"],
            ["JINA_FETCH_URLS_API_HOST", "https://reader.env.example"]
          ])
        )
        expect(settings.defaults).toEqual({ searchKeywords: "tavily", fetchUrls: "jina", research: undefined })
        expect(registry.defaults).toEqual({
          searchKeywords: "tavily",
          fetchUrls: "jina",
          research: null,
          mapSite: null,
          crawlSite: null
        })
        expect(registry.providers.get("jina")?.apiKeys.map(Redacted.value)).toEqual(["jina-env-0001"])
        expect(apiHost(registry, "jina", "searchKeywords")).toBe("https://search.file.example")
        expect(apiHost(registry, "jina", "fetchUrls")).toBe("https://reader.env.example")
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
