import { describe, expect, it } from "@effect/vitest"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Composition from "../src/Composition.js"
import * as Compression from "../src/Compression.js"
import * as ContentBudget from "../src/ContentBudget.js"
import * as Preset from "../src/Preset.js"
import type { DriverContext, ProviderDriver } from "../src/ProviderDriver.js"
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as ResultCache from "../src/ResultCache.js"
import { searchKeywords } from "../src/SearchKeywords.js"
import * as Settings from "../src/Settings.js"
import * as UsageSink from "../src/UsageSink.js"
import * as WebSearch from "../src/WebSearch.js"
import * as Drivers from "./support/drivers.js"
import * as Registry from "./support/registry.js"
import * as Stores from "./support/stores.js"

/** Builds an application layer and hands back its start-up failure. */
const startError = <A, E>(layer: Layer.Layer<A, E>) => Effect.flip(Effect.provide(Effect.void, layer))

/** The ids a start-up message lists after `(composed: `. */
const listedIds = (message: string): ReadonlySet<string> =>
  new Set((/\(composed: ([^)]*)\)/.exec(message)?.[1] ?? "").split(", "))

const env = (entries: ReadonlyArray<readonly [string, string]>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(entries)))

// --- (1) overrides for ids nobody composed ----------------------------------------------------------------

describe("overrides and the composed providers", () => {
  const pool = ["tavily", "brave", "duckduckgo", "jina", "fetch", "searxng"]
  const providerId = FastCheck.stringMatching(/^[a-z0-9][a-z0-9-]{0,30}$/)

  it.effect.prop(
    "any override id not among the composed ids fails the start with invalid_config listing the composed ids",
    { composed: FastCheck.subarray(pool, { minLength: 1 }), id: providerId },
    ({ composed, id }) =>
      Effect.gen(function* () {
        // An id that happens to be composed is the other rule (accepted), checked below.
        if (composed.includes(id)) return
        const drivers = Registry.drivers.filter((d) => composed.includes(d.preset.id))
        const error = yield* Effect.flip(Registry.fromLayer(Settings.layer({ providers: { [id]: {} } }), drivers))
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        expect(error.message.startsWith("invalid settings: ")).toBe(true)
        expect(error.message.endsWith("(from code)")).toBe(true)
        expect(error.message).toContain(`providers.${id}: no composed provider has this id (composed: `)
        // Listed in composition order.
        expect(error.message).toContain(`(composed: ${drivers.map((d) => d.preset.id).join(", ")})`)
        expect(listedIds(error.message)).toEqual(new Set(composed))
      })
  )

  it.effect.prop(
    "an override for a composed id is accepted and resolved",
    { composed: FastCheck.subarray(pool, { minLength: 1 }) },
    ({ composed }) =>
      Effect.gen(function* () {
        const drivers = Registry.drivers.filter((d) => composed.includes(d.preset.id))
        const providers = Object.fromEntries(composed.map((id) => [id, { engines: [`${id}-engine`] }]))
        const registry = yield* Registry.fromLayer(Settings.layer({ providers }), drivers)
        expect(new Set(registry.ids())).toEqual(new Set(composed))
        for (const id of composed) expect(registry.providers.get(id)?.engines).toEqual([`${id}-engine`])
      })
  )
})

// --- (2) a custom provider with options ---------------------------------------------------------------------

const IntranetOptions = Schema.Struct({
  region: Schema.Literal("eu", "us"),
  depth: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 5)), { default: () => 2 })
})

const intranetSeen: Array<unknown> = []

const intranet: ProviderDriver<typeof IntranetOptions.Type, typeof IntranetOptions.Encoded> = {
  preset: Preset.make({
    id: "intranet",
    name: "Intranet search",
    type: "api",
    credentials: "none",
    capabilities: [{ feature: "searchKeywords", apiHost: "https://search.intranet.example" }]
  }),
  options: IntranetOptions,
  // The variable's text is decoded (and refused naming the field) by the options schema, like a settings value.
  optionsConfig: Config.option(Config.string("INTRANET_REGION")).pipe(
    Config.map(Option.match({ onNone: () => ({}), onSome: (region) => ({ region: region as "eu" | "us" }) }))
  ),
  searchKeywords: (keyword, ctx: DriverContext<typeof IntranetOptions.Type>) =>
    Effect.sync(() => {
      intranetSeen.push(ctx.options)
      return [
        {
          title: `${keyword} in ${ctx.options.region}`,
          url: `https://search.intranet.example/${ctx.options.region}/${ctx.options.depth}`,
          content: keyword
        }
      ]
    })
}

const intranetApp = <E>(settings: Layer.Layer<Settings.Settings, E>) =>
  WebSearch.layer(ProviderRegistry.register(intranet)).pipe(Layer.provideMerge(settings))

describe("a custom provider with its own options", () => {
  it.effect("gets its decoded options (defaults applied) in ctx.options and in the registry", () =>
    Effect.gen(function* () {
      intranetSeen.length = 0
      const response = yield* searchKeywords({ keywords: ["handbook"] })
      expect(response.providerId).toBe("intranet")
      expect(response.results.map((r) => [r.title, r.url])).toEqual([
        ["handbook in eu", "https://search.intranet.example/eu/2"]
      ])
      expect(intranetSeen).toEqual([{ region: "eu", depth: 2 }])
      const registry = yield* ProviderRegistry.ProviderRegistry
      expect(registry.providers.get("intranet")?.options).toEqual({ region: "eu", depth: 2 })
    }).pipe(
      Effect.provide(
        intranetApp(
          Settings.layer({ defaults: { searchKeywords: "intranet" }, providers: { intranet: { region: "eu" } } })
        )
      )
    )
  )

  it.effect.prop(
    "a value its schema refuses fails the start naming providers.intranet.<field>",
    {
      bad: FastCheck.oneof(
        FastCheck.record({ region: FastCheck.string().filter((s) => s !== "eu" && s !== "us") }),
        FastCheck.record({
          region: FastCheck.constantFrom("eu", "us"),
          depth: FastCheck.oneof(
            FastCheck.integer().filter((n) => n < 1 || n > 5),
            FastCheck.string()
          )
        })
      )
    },
    ({ bad }) =>
      Effect.gen(function* () {
        const error = yield* startError(intranetApp(Settings.layer({ providers: { intranet: bad } })))
        expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
        const field = "depth" in bad ? "depth" : "region"
        expect(error.message).toContain(`providers.intranet.${field}`)
        expect(error.message.endsWith("(from code)")).toBe(true)
      })
  )

  it.effect("an option its schema does not know fails the start naming the field; so does a missing one", () =>
    Effect.gen(function* () {
      const unknown = yield* startError(
        intranetApp(Settings.layer({ providers: { intranet: { region: "eu", colour: "red" } } }))
      )
      expect([unknown._tag, unknown.reason]).toEqual(["Unavailable", "invalid_config"])
      expect(unknown.message).toContain("providers.intranet.colour")
      // Its region is required: composing it without one is refused too, rather than calling it with none.
      const missing = yield* startError(intranetApp(Settings.layer({})))
      expect(missing.message).toContain("providers.intranet.region")
    })
  )

  it.effect(
    "its optionsConfig is read from the ConfigProvider when the settings come from Settings.layerConfig()",
    () =>
      Effect.gen(function* () {
        intranetSeen.length = 0
        const app = intranetApp(Settings.layerConfig())
        const response = yield* searchKeywords({ keywords: ["handbook"] }).pipe(Effect.provide(app))
        expect(response.results.map((r) => r.title)).toEqual(["handbook in us"])
        expect(intranetSeen).toEqual([{ region: "us", depth: 2 }])
        // Settings from code do not read the environment, whatever it holds.
        const fromCode = yield* startError(intranetApp(Settings.layer({})))
        expect(fromCode.message).toContain("providers.intranet.region")
      }).pipe(
        env([
          ["INTRANET_REGION", "us"],
          ["WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER", "intranet"]
        ])
      )
  )

  it.effect("a bad value from the environment fails the start naming the field and the environment", () =>
    Effect.gen(function* () {
      const error = yield* startError(intranetApp(Settings.layerConfig()))
      expect(error.reason).toBe("invalid_config")
      expect(error.message).toContain("providers.intranet.region")
      expect(error.message.endsWith("(from environment)")).toBe(true)
    }).pipe(env([["INTRANET_REGION", "mars"]]))
  )
})

// --- (3) optional services go in as parts ---------------------------------------------------------------------

const counter: ContentBudget.TokenCounter.Service = { count: (text) => text.length }
const ranker: Compression.ChunkRanker.Service = { rank: (_query, chunks) => Effect.succeed(chunks.map(() => 0)) }
const sink: UsageSink.UsageSink.Service = { report: () => Effect.void }

const misplaced: ReadonlyArray<readonly [string, string, Layer.Layer<never>]> = [
  ["a TokenCounter", "ContentBudget.layerTokenCounter", Layer.succeed(ContentBudget.TokenCounter, counter)],
  ["a ChunkRanker", "Compression.layerChunkRanker", Layer.succeed(Compression.ChunkRanker, ranker)],
  ["a UsageSink", "UsageSink.layer", Layer.succeed(UsageSink.UsageSink, sink)]
]

const ddgApp = (...parts: ReadonlyArray<Layer.Layer<never, never, Composition.Composition>>) => {
  const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(2) })
  return { ddg, app: Drivers.layer([ddg], {}, undefined, parts) }
}

describe("optional services cannot be composed silently in the wrong place", () => {
  it.effect.each(misplaced)("%s provided into WebSearch.layer's context fails the start", ([what, part, service]) =>
    Effect.gen(function* () {
      const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1) })
      const app = WebSearch.layer(ProviderRegistry.register(ddg.driver)).pipe(
        Layer.provide(service),
        Layer.provideMerge(Settings.layer({ defaults: { searchKeywords: "duckduckgo" } }))
      )
      const error = yield* startError(app)
      expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
      expect(error.message).toContain(`${what} was provided to WebSearch.layer's context`)
      expect(error.message).toContain(`WebSearch.layer(..., ${part}(...))`)
      expect(ddg.recorder.calls).toEqual([])
    })
  )

  it.effect.each(misplaced)("%s provided to one call fails that call with invalid_config", ([what, part, service]) => {
    const { app, ddg } = ddgApp()
    return Effect.gen(function* () {
      const error = yield* Effect.flip(searchKeywords({ keywords: ["effect"] }).pipe(Effect.provide(service)))
      expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
      expect(error.message).toContain(`${what} was provided to this call or beside WebSearch.layer`)
      expect(error.message).toContain(part)
      expect(ddg.recorder.calls).toEqual([])
      // The same call without it is answered: the failure is the misplacement, not the application.
      expect((yield* searchKeywords({ keywords: ["effect"] })).results).toHaveLength(2)
    }).pipe(Effect.provide(app))
  })

  it.effect("the same services composed as parts are accepted and held by the registry", () => {
    const { app } = ddgApp(
      ContentBudget.layerTokenCounter(counter),
      Compression.layerChunkRanker(ranker),
      UsageSink.layer(sink)
    )
    return Effect.gen(function* () {
      const registry = yield* ProviderRegistry.ProviderRegistry
      expect(registry.services.tokenCounter).toBe(counter)
      expect(registry.services.chunkRanker).toBe(ranker)
      expect(registry.services.usageSink).toBe(sink)
      expect((yield* searchKeywords({ keywords: ["effect"] })).results).toHaveLength(2)
    }).pipe(Effect.provide(app))
  })

  it.effect("the composed token counter and chunk ranker are the ones a search's post-processing uses", () => {
    const ranked: Array<string> = []
    const counted: Array<string> = []
    const page = "effect layers compose services. ".repeat(100)
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.results([{ title: "Layers", url: "https://a.example/", content: page }])
    })
    const app = Drivers.layer(
      [ddg],
      {
        budget: { method: "cutoff", unit: "tokens", limit: 40 },
        compression: { method: "rank", chunkSize: 200, topChunks: 1 }
      },
      undefined,
      [
        ContentBudget.layerTokenCounter({ count: (text) => (counted.push(text), text.length) }),
        Compression.layerChunkRanker({
          rank: (query, chunks) => Effect.sync(() => (ranked.push(query), chunks.map((_, i) => i)))
        })
      ]
    )
    return Effect.gen(function* () {
      const response = yield* searchKeywords({ keywords: ["effect"] })
      expect(ranked).toEqual(["effect"])
      expect(counted.length).toBeGreaterThan(0)
      // One character per token under the composed counter: the budget of 40 tokens leaves at most 40 characters.
      expect(response.results[0].content.length).toBeLessThanOrEqual(40)
    }).pipe(Effect.provide(app))
  })

  it.effect("a driver reporting through the public UsageSink.report and compressing reaches the composed parts", () => {
    // A driver of the application's own, written against the public API only: it passes no sink or ranker.
    const reported: Array<string> = []
    const ranked: Array<string> = []
    const fact = (input: string): UsageSink.UsageFact => ({
      callId: input,
      providerId: "own",
      capability: "searchKeywords",
      model: "none",
      inputTokens: 1,
      cachedInputTokens: 0,
      outputTokens: 1,
      toolCalls: 0,
      outcome: "succeeded"
    })
    const own = ProviderRegistry.register({
      preset: Preset.make({
        id: "own",
        name: "Own",
        type: "local",
        credentials: "none",
        capabilities: [{ feature: "searchKeywords" }]
      }),
      searchKeywords: (keyword) =>
        Effect.gen(function* () {
          yield* UsageSink.report(fact(keyword))
          const page = {
            title: keyword,
            url: "https://own.example/",
            sourceInput: keyword,
            content: "effect layers compose. ".repeat(40)
          }
          return yield* Compression.compress([page], keyword, { method: "rank", chunkSize: 200, topChunks: 1 })
        })
    })
    const app = WebSearch.layer(
      own,
      UsageSink.layer({ report: (f) => Effect.sync(() => void reported.push(f.callId)) }),
      Compression.layerChunkRanker({
        rank: (query, chunks) => Effect.sync(() => (ranked.push(query), chunks.map((_, i) => i)))
      })
    ).pipe(Layer.provide(Settings.layer({ defaults: { searchKeywords: "own" } })))
    return Effect.gen(function* () {
      yield* searchKeywords({ keywords: ["effect"] })
      expect(reported).toEqual(["effect"])
      expect(ranked).toEqual(["effect"])
    }).pipe(Effect.provide(app))
  })

  it.effect("a ResultCache part is used: two identical searches make one driver call", () => {
    const store = Stores.cacheStore()
    const { app, ddg } = ddgApp(ResultCache.layer(store))
    return Effect.gen(function* () {
      const first = yield* searchKeywords({ keywords: ["effect"] })
      const second = yield* searchKeywords({ keywords: ["effect"] })
      expect(ddg.recorder.started).toEqual(["effect"])
      expect(second.results).toEqual(first.results)
      expect(store.entries.size).toBe(1)
    }).pipe(Effect.provide(app))
  })

  it.effect("two result caches composed fail the start", () =>
    Effect.gen(function* () {
      const { app, ddg } = ddgApp(ResultCache.layer(Stores.cacheStore()), ResultCache.layer(Stores.cacheStore()))
      const error = yield* startError(app)
      expect([error._tag, error.reason]).toEqual(["Unavailable", "invalid_config"])
      expect(error.message).toContain("resultCache was contributed 2 times")
      expect(ddg.recorder.calls).toEqual([])
    })
  )
})

// --- (4) a bundle's default proposals -------------------------------------------------------------------------

const standIn = (id: string) =>
  ProviderRegistry.register({ preset: Registry.drivers.find((d) => d.preset.id === id)!.preset })

const defaultsOf = (
  settings: Settings.SettingsInput,
  ...proposals: ReadonlyArray<readonly [string, string]>
): Effect.Effect<ProviderRegistry.ProviderRegistry.Service["defaults"], unknown> =>
  Effect.provide(
    ProviderRegistry.ProviderRegistry,
    WebSearch.layer(
      standIn("duckduckgo"),
      standIn("brave"),
      standIn("jina"),
      ...proposals.map(([source, id]) => ProviderRegistry.proposeDefaults(source, { searchKeywords: id }))
    ).pipe(Layer.provide(Settings.layer(settings)))
  ).pipe(Effect.map((registry) => registry.defaults))

describe("a bundle's default proposals", () => {
  it.effect("one proposal becomes the default; two parts proposing the same one agree", () =>
    Effect.gen(function* () {
      expect(yield* defaultsOf({}, ["bundle A", "brave"])).toEqual({
        searchKeywords: "brave",
        fetchUrls: null,
        research: null,
        mapSite: null,
        crawlSite: null
      })
      expect((yield* defaultsOf({}, ["bundle A", "jina"], ["bundle B", "jina"])).searchKeywords).toBe("jina")
      expect((yield* defaultsOf({})).searchKeywords).toBeNull()
    })
  )

  it.effect("a proposed default answers requests that name no provider", () => {
    const brave = Drivers.makeDriver("brave", { searchKeywords: Drivers.succeed(1) })
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(1) })
    return Effect.gen(function* () {
      const response = yield* searchKeywords({ keywords: ["effect"] })
      expect(response.providerId).toBe("brave")
      expect([brave.recorder.started, ddg.recorder.started]).toEqual([["effect"], []])
    }).pipe(
      Effect.provide(
        WebSearch.layer(
          ProviderRegistry.register(ddg.driver),
          ProviderRegistry.register(brave.driver),
          ProviderRegistry.proposeDefaults("bundle A", { searchKeywords: "brave" })
        ).pipe(Layer.provideMerge(Settings.layer({ providers: { brave: { apiKeys: ["brave-key-0001"] } } })))
      )
    )
  })

  it.effect.prop(
    "conflicting proposals fail the start naming both, unless the settings choose",
    {
      pair: FastCheck.uniqueArray(FastCheck.constantFrom("duckduckgo", "brave", "jina"), { minLength: 2, maxLength: 2 })
    },
    ({ pair: [a, b] }) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(defaultsOf({}, ["bundle A", a], ["bundle B", b]))
        expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
        const message = (error as { readonly message: string }).message
        expect(message).toContain("defaults.searchKeywords: the composed parts propose different defaults (")
        expect(message).toContain(`bundle A: ${a}`)
        expect(message).toContain(`bundle B: ${b}`)
        expect(message).toContain("choose one in defaults.searchKeywords")
        // The settings' choice settles it, whichever composed provider it names.
        expect(
          (yield* defaultsOf({ defaults: { searchKeywords: b } }, ["bundle A", a], ["bundle B", b])).searchKeywords
        ).toBe(b)
        expect(
          (yield* defaultsOf({ defaults: { searchKeywords: "jina" } }, ["bundle A", a], ["bundle B", b])).searchKeywords
        ).toBe("jina")
      })
  )

  it.effect("the settings' defaults win over a proposal, including null for none", () =>
    Effect.gen(function* () {
      expect((yield* defaultsOf({ defaults: { searchKeywords: "jina" } }, ["bundle A", "brave"])).searchKeywords).toBe(
        "jina"
      )
      expect(
        (yield* defaultsOf({ defaults: { searchKeywords: null } }, ["bundle A", "brave"])).searchKeywords
      ).toBeNull()
    })
  )

  it.effect("a proposal naming a provider that is not composed fails the start naming the proposer", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(defaultsOf({}, ["bundle A", "tavily"]))
      const message = (error as { readonly message: string }).message
      expect(message).toContain(
        "defaults.searchKeywords: bundle A proposes tavily, which is not a composed searchKeywords provider (composed: "
      )
      expect(listedIds(message)).toEqual(new Set(["duckduckgo", "brave", "jina"]))
    })
  )
})
