/**
 * A provider is resolved once per request: the resolution checks it (known, serving the capability, a key where
 * its preset requires one, an endpoint) before any input is sent, and each input then only takes the next key in
 * rotation. The driver receives a context the resolution checked; called directly without a key, its accessor
 * fails typed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as FetchUrls from "../src/FetchUrls.js"
import * as Preset from "../src/Preset.js"
import * as DriverContext from "../src/internal/resolution/context.js"
import type * as ProviderDriver from "../src/ProviderDriver.js"
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as SearchOptions from "../src/SearchOptions.js"
import * as Settings from "../src/Settings.js"
import * as WebSearch from "../src/WebSearch.js"

const preset = Preset.make({
  id: "keyed",
  name: "Keyed",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://keyed.example/api//" }]
})

/** What the driver saw: one entry per call, with the key and endpoint its accessors gave. */
interface Seen {
  readonly input: string
  readonly key: string
  readonly host: string
}

const recording = (seen: Array<Seen>): ProviderDriver.ProviderDriver => ({
  preset,
  searchKeywords: (keyword, ctx) =>
    Effect.gen(function* () {
      // The resolution checked both before the call: the driver reads them without checking.
      expect(Option.isSome(ctx.apiKey)).toBe(true)
      expect(Option.isSome(ctx.apiHost)).toBe(true)
      const key = yield* DriverContext.apiKey(ctx)
      const host = yield* DriverContext.apiHost(ctx)
      seen.push({ input: keyword, key: Redacted.value(key), host })
      return [{ title: keyword, url: `https://keyed.example/${encodeURIComponent(keyword)}`, content: keyword }]
    })
})

const keysOf = (count: number) => Array.from({ length: count }, (_, i) => `key-${i}`)

/** The registry the application builds, with each call to `find` and `configure` counted. */
const counted = (keys: ReadonlyArray<string>, seen: Array<Seen>) =>
  Effect.gen(function* () {
    const settings = Settings.layer({ defaults: { searchKeywords: "keyed" }, providers: { keyed: { apiKeys: keys } } })
    const real = yield* Effect.provide(
      ProviderRegistry.ProviderRegistry,
      WebSearch.layer(ProviderRegistry.register(recording(seen))).pipe(Layer.provide(settings))
    )
    const counts = { find: 0, configure: 0, resolve: 0 }
    const registry: ProviderRegistry.ProviderRegistry.Service = {
      ...real,
      find: (id, instances) => {
        counts.find++
        return real.find(id, instances)
      },
      configure: (found, options) => {
        counts.configure++
        return real.configure(found, options)
      },
      resolve: (id, capability, options) => {
        counts.resolve++
        return real.resolve(id, capability, options)
      }
    }
    const layer = SearchKeywords.layer.pipe(
      Layer.provideMerge(FetchUrls.layer),
      Layer.provideMerge(Layer.succeed(ProviderRegistry.ProviderRegistry, registry)),
      Layer.provideMerge(settings)
    )
    return { counts, layer }
  })

describe("the resolution of a request's provider", () => {
  it.effect("a provider whose preset requires a key has none: the pipeline refuses, the driver never runs", () =>
    Effect.gen(function* () {
      const seen: Array<Seen> = []
      const { counts, layer } = yield* counted([], seen)
      const error = yield* Effect.flip(
        Effect.provide(SearchKeywords.searchKeywords({ keywords: ["a", "b"], providerId: "keyed" }), layer)
      )
      expect([error._tag, error.reason, error.providerId]).toEqual(["Unavailable", "missing_credentials", "keyed"])
      expect(error.message).toContain("KEYED_API_KEY")
      expect(seen).toEqual([])
      expect(counts.configure).toBe(0)
    })
  )

  it.effect.prop(
    "each input takes the next key once, from one lookup per request, and the driver gets a checked context",
    { keys: FastCheck.integer({ min: 1, max: 4 }), inputs: FastCheck.integer({ min: 1, max: 6 }) },
    ({ inputs, keys }) =>
      Effect.gen(function* () {
        const seen: Array<Seen> = []
        const { counts, layer } = yield* counted(keysOf(keys), seen)
        const keywords = Array.from({ length: inputs }, (_, i) => `q${i}`)
        for (const request of [0, 1]) {
          const response = yield* Effect.provide(
            SearchKeywords.searchKeywords({ keywords, providerId: "keyed" }),
            layer
          )
          expect(response.results.map((result) => result.sourceInput)).toEqual(keywords)
          // One lookup for the request, one rotation step per input: never a second lookup per input.
          expect(counts).toEqual({ find: request + 1, configure: (request + 1) * inputs, resolve: 0 })
        }
        // Two requests of `inputs` inputs took the next `2 * inputs` positions of the rotation, each once.
        const expected = Array.from({ length: 2 * inputs }, (_, i) => `key-${i % keys}`).sort()
        expect(seen.map((call) => call.key).sort()).toEqual(expected)
        expect(new Set(seen.map((call) => call.host))).toEqual(new Set(["https://keyed.example/api"]))
      }),
    { fastCheck: { numRuns: 20 } }
  )

  it.effect("called directly without a key or an endpoint, the context's accessors fail typed", () =>
    Effect.gen(function* () {
      const real = yield* Effect.provide(
        ProviderRegistry.ProviderRegistry,
        WebSearch.layer(ProviderRegistry.register(recording([]))).pipe(
          Layer.provide(Settings.layer({ providers: { keyed: { apiKeys: ["k"] } } }))
        )
      )
      const config = yield* real.resolve("keyed", "searchKeywords")
      const bare = { ...config, apiKey: Option.none(), apiHost: Option.none() }
      const key = yield* Effect.flip(DriverContext.apiKey(bare))
      expect([key._tag, key.reason, key.providerId, key.capability]).toEqual([
        "Unavailable",
        "missing_credentials",
        "keyed",
        "searchKeywords"
      ])
      expect(key.message).toBe("Keyed needs an API key: set providers.keyed.apiKeys or KEYED_API_KEY")
      const host = yield* Effect.flip(DriverContext.apiHost(bare))
      expect([host._tag, host.reason]).toEqual(["Unavailable", "invalid_config"])
      expect(host.message).toBe(
        "Keyed has no endpoint for searchKeywords: set providers.keyed.capabilities.searchKeywords.apiHost"
      )
    })
  )

  const withHost = (apiHost: string): ProviderDriver.DriverContext => ({
    provider: {
      ...preset,
      apiKeys: [],
      engines: [],
      basicAuth: Option.none(),
      model: Option.none(),
      rateLimit: Option.none(),
      proxyUrl: Option.none(),
      options: undefined
    },
    capability: "searchKeywords",
    apiHost: Option.some(apiHost),
    apiKey: Option.none(),
    apiKeyIndex: Option.none(),
    maxResults: 5,
    searchOptions: SearchOptions.none,
    timeout: Duration.seconds(1),
    options: undefined,
    fetchUrls: () => Effect.die("not called")
  })

  it.prop(
    "an endpoint loses its trailing slashes, whatever their number, and nothing else",
    { base: FastCheck.webUrl({ withQueryParameters: false, withFragments: false }), slashes: FastCheck.nat(2000) },
    ({ base, slashes }) => {
      const trimmed = base.replace(/\/+$/, "")
      expect(Effect.runSync(DriverContext.apiHost(withHost(trimmed + "/".repeat(slashes))))).toBe(trimmed)
    }
  )

  it("a run of 100,000 slashes is trimmed in one pass", () => {
    expect(Effect.runSync(DriverContext.apiHost(withHost(`https://a.example${"/".repeat(100_000)}`)))).toBe(
      "https://a.example"
    )
    expect(Effect.runSync(DriverContext.apiHost(withHost("/".repeat(100_000))))).toBe("")
  })
})
