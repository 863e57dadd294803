/**
 * The parts `Settings` is made of: the environment read through `Config` (every malformed variable named, keys
 * kept `Redacted`), the one CIDR parser the settings share with the URL policy, the key rotation each registry
 * owns, and the one provider description the registry and the server list.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as ProviderEnvironment from "../src/internal/resolution/environment.js"
import * as ProviderDescription from "../src/ProviderDescription.js"
import * as Cidr from "../src/internal/cidr.js"
import * as Settings from "../src/Settings.js"
import * as UrlPolicy from "../src/UrlPolicy.js"
import * as Presets from "./support/presets.js"
import * as Registry from "./support/registry.js"

const withEnv = (entries: ReadonlyArray<readonly [string, string]>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries)))

describe("the environment, through Config", () => {
  it.effect("every malformed WEBSEARCH_* variable is named with its problem, in one failure", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Settings.fromConfig.pipe(
          withEnv([
            ["WEBSEARCH_MAX_RESULTS", "abc"],
            ["WEBSEARCH_CONCURRENCY", "lots"]
          ])
        )
      )
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(error.message).toBe(
        'invalid settings: WEBSEARCH_MAX_RESULTS: Expected an integer value but received "abc"; ' +
          'WEBSEARCH_CONCURRENCY: Expected an integer value but received "lots" (from environment)'
      )
    })
  )

  it.effect("the document holds only the variables that were set (blank counts as unset)", () =>
    Effect.gen(function* () {
      expect(yield* Settings.fromConfig.pipe(withEnv([]))).toStrictEqual({})
      const document = yield* Settings.fromConfig.pipe(
        withEnv([
          ["WEBSEARCH_DEFAULT_RESEARCH_PROVIDER", "none"],
          ["WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER", "  "],
          ["WEBSEARCH_FALLBACK_FETCH_URLS_PROVIDERS", " jina, ,fetch "],
          ["WEBSEARCH_CACHE_FAILURES_TTL", "0"]
        ])
      )
      expect(document).toStrictEqual({
        defaults: { research: null },
        fallbacks: { fetchUrls: ["jina", "fetch"] },
        cache: { failures: "0" }
      })
    })
  )

  it.effect("a provider's malformed variables are all reported, each by its name", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Registry.fromLayer(Settings.layerConfig()).pipe(
          withEnv([
            ["JINA_RATE_LIMIT", "lots"],
            ["TAVILY_RATE_LIMIT_MAX_WAIT", "5 seconds"],
            ["SEARXNG_FETCH_RESULTS", "maybe"]
          ])
        )
      )
      expect(error.reason).toBe("invalid_config")
      for (const problem of [
        'JINA_RATE_LIMIT: "lots" is not LIMIT/WINDOW (100/1 minute)',
        "TAVILY_RATE_LIMIT_MAX_WAIT: set TAVILY_RATE_LIMIT too",
        'SEARXNG_FETCH_RESULTS: Expected a boolean value but received "maybe"'
      ]) {
        expect(error.message).toContain(problem)
      }
      expect(error.message).toMatch(/ \(from environment\)$/)
    })
  )

  // Issue 36: an application on Settings.layerConfig() can allow a local endpoint.
  it.effect("WEBSEARCH_ALLOW_HOSTS and WEBSEARCH_ALLOW_CIDRS are the URL policy's allowlists, comma-separated", () =>
    Effect.gen(function* () {
      const document = yield* Settings.fromConfig.pipe(
        withEnv([
          ["WEBSEARCH_ALLOW_HOSTS", " searxng:8080, 127.0.0.1 ,"],
          ["WEBSEARCH_ALLOW_CIDRS", "198.18.0.0/15"]
        ])
      )
      expect(document).toStrictEqual({
        urlPolicy: { allowHosts: ["searxng:8080", "127.0.0.1"], allowCidrs: ["198.18.0.0/15"] }
      })
      const policy = UrlPolicy.fromSettings(yield* Settings.make(document))
      expect(Either.isRight(UrlPolicy.checkUrl(policy, "http://searxng:8080/search"))).toBe(true)
      expect(Either.isRight(UrlPolicy.checkUrl(policy, "http://198.18.0.7/"))).toBe(true)
      expect(Either.isLeft(UrlPolicy.checkUrl(policy, "http://10.0.0.1/"))).toBe(true)
    })
  )

  it.effect("a malformed WEBSEARCH_ALLOW_HOSTS or WEBSEARCH_ALLOW_CIDRS entry is named with its variable", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Settings.fromConfig.pipe(
          withEnv([
            ["WEBSEARCH_ALLOW_HOSTS", "good.example,http://bad.example/path"],
            ["WEBSEARCH_ALLOW_CIDRS", "10.0.0.0/8,10.0.0.0/99"]
          ])
        )
      )
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(error.message).toMatch(/WEBSEARCH_ALLOW_HOSTS: "http:\/\/bad\.example\/path" \(entry 2\): /)
      expect(error.message).toMatch(/WEBSEARCH_ALLOW_CIDRS: "10\.0\.0\.0\/99" \(entry 2\): /)
    })
  )

  it.effect("keys and the basic-auth password are read Redacted, and never appear in what was read", () =>
    Effect.gen(function* () {
      const searxng = Registry.drivers.find((driver) => driver.preset.id === "searxng")!
      const read = yield* ProviderEnvironment.read(searxng).pipe(
        withEnv([
          ["SEARXNG_API_KEY", " key-one-0001 , key-two-0002 "],
          ["SEARXNG_BASIC_AUTH_USERNAME", "alice"],
          ["SEARXNG_BASIC_AUTH_PASSWORD", " pass-0003 "]
        ])
      )
      expect(read.problems).toEqual([])
      const keys = read.override.apiKeys as ReadonlyArray<unknown>
      expect(keys.every(Redacted.isRedacted)).toBe(true)
      expect(keys.map((key) => Redacted.value(key as Redacted.Redacted<string>))).toEqual([
        "key-one-0001",
        "key-two-0002"
      ])
      expect(Redacted.isRedacted(read.override.basicAuthPassword)).toBe(true)
      expect(Redacted.value(read.override.basicAuthPassword as Redacted.Redacted<string>)).toBe("pass-0003")
      expect(read.override.basicAuthUsername).toBe("alice")
      const shown = `${JSON.stringify(read)} ${String(read.override.apiKeys)}`
      for (const secret of ["key-one-0001", "key-two-0002", "pass-0003"]) expect(shown).not.toContain(secret)
    })
  )
})

// Entries shaped like CIDR blocks and near misses: the URL policy's parser is the one that decides.
const cidrLike = FastCheck.oneof(
  FastCheck.tuple(
    FastCheck.array(FastCheck.integer({ min: 0, max: 300 }), { minLength: 3, maxLength: 5 }),
    FastCheck.integer({ min: 0, max: 140 })
  ).map(([octets, bits]) => `${octets.join(".")}/${bits}`),
  FastCheck.tuple(
    FastCheck.constantFrom("fd00::", "::1", "2001:db8::", "fe80::1%eth0", "::ffff:10.0.0.1", "1::2::3", "gggg::"),
    FastCheck.integer({ min: 0, max: 140 })
  ).map(([address, bits]) => `${address}/${bits}`),
  FastCheck.constantFrom("10.0.0.0", "10.0.0.0/8/8", " 10.0.0.0/8 ", "010.0.0.0/8", "10.0.0.0/08", "example.com/8", ""),
  FastCheck.string({ maxLength: 12 })
)

describe("Settings.layerConfig takes a Config", () => {
  // The application's own variable name for the default search provider, read from its ConfigProvider.
  const own = Config.map(Config.string("APP_SEARCH_PROVIDER"), (id) => ({ defaults: { searchKeywords: id } }))

  it.effect("the application's own Config is read; the WEBSEARCH_* names are not", () =>
    Effect.gen(function* () {
      const settings = yield* Settings.Settings.pipe(
        Effect.provide(Settings.layerConfig(own)),
        withEnv([
          ["APP_SEARCH_PROVIDER", "brave"],
          ["WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER", "tavily"]
        ])
      )
      expect(settings.defaults.searchKeywords).toBe("brave")
    })
  )

  it.effect("with no argument it reads the WEBSEARCH_* variables, as Settings.config does", () =>
    Effect.gen(function* () {
      const env = withEnv([["WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER", "tavily"]])
      const settings = yield* Settings.Settings.pipe(Effect.provide(Settings.layerConfig()), env)
      expect(settings.defaults.searchKeywords).toBe("tavily")
      expect(yield* env(Settings.config)).toEqual({ defaults: { searchKeywords: "tavily" } })
    })
  )

  it.effect("a Config that fails is invalid_config naming its variable", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Settings.Settings.pipe(Effect.provide(Settings.layerConfig(own)), withEnv([])))
      expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
      expect(error.message).toContain("APP_SEARCH_PROVIDER")
    })
  )
})

describe("allowCidrs", () => {
  it("the settings accept exactly the blocks Cidr.parse reads, with its message; the URL policy reads them too", () => {
    FastCheck.assert(
      FastCheck.property(cidrLike, (entry) => {
        const parsed = Cidr.parse(entry)
        const loaded = Effect.runSync(Effect.either(Settings.make({ urlPolicy: { allowCidrs: [entry] } })))
        expect(Either.isRight(loaded)).toBe(Either.isRight(parsed))
        if (Either.isLeft(loaded) && Either.isLeft(parsed)) expect(loaded.left.message).toContain(parsed.left)
        // Code hands UrlPolicy.make its entries directly; it trims them first, as it always has.
        const policy = UrlPolicy.make({ allowCidrs: [entry] })
        expect(policy.problems.length === 0).toBe(Either.isRight(Cidr.parse(entry.trim())))
      }),
      { numRuns: 300 }
    )
  })
})

describe("key rotation", () => {
  const settings = { providers: { tavily: { apiKeys: ["key-a-0001", "key-b-0002"] } } }
  const key = (registry: Effect.Effect.Success<ReturnType<typeof Registry.load>>) =>
    Effect.map(registry.resolve("tavily", "searchKeywords"), (config) =>
      Option.getOrUndefined(Option.map(config.apiKey, Redacted.value))
    )

  it.effect("each registry keeps its own positions: a second one starts at the first key", () =>
    Effect.gen(function* () {
      const first = yield* Registry.load(settings)
      expect(yield* key(first)).toBe("key-a-0001")
      const second = yield* Registry.load(settings)
      expect(yield* key(second)).toBe("key-a-0001")
      expect(yield* key(first)).toBe("key-b-0002")
    })
  )

  it.effect("concurrent calls share the keys evenly, each call's index naming its key", () =>
    Effect.gen(function* () {
      const registry = yield* Registry.load(settings)
      const configs = yield* Effect.all(
        Array.from({ length: 10 }, () => registry.resolve("tavily", "searchKeywords")),
        { concurrency: "unbounded" }
      )
      const indexes = configs.map((config) => Option.getOrThrow(config.apiKeyIndex))
      expect(indexes.filter((index) => index === 0)).toHaveLength(5)
      expect(indexes.filter((index) => index === 1)).toHaveLength(5)
      for (const config of configs) {
        expect(Redacted.value(Option.getOrThrow(config.apiKey))).toBe(
          ["key-a-0001", "key-b-0002"][Option.getOrThrow(config.apiKeyIndex)]
        )
      }
    })
  )
})

describe("provider description", () => {
  it.effect("the registry's listing is valid under the ProviderDescription schema the server serves", () =>
    Effect.gen(function* () {
      const registry = yield* Registry.load({
        defaults: { searchKeywords: "tavily" },
        providers: { tavily: { apiKeys: ["k-0001"] } }
      })
      const listed = registry.describe()
      expect(listed.map((p) => p.id)).toEqual(Presets.all.map((p) => p.id))
      const decoded = Schema.decodeUnknownSync(Schema.Array(ProviderDescription.ProviderDescription))(listed)
      expect(decoded).toStrictEqual(listed)
      expect(listed.find((p) => p.id === "tavily")).toMatchObject({ apiKeys: 1, defaultFor: ["searchKeywords"] })
    })
  )
})
