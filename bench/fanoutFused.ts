/**
 * The fused case of the fanout bench (bench/fanout.ts runs it in its measuring child): one `searchKeywords` of 5
 * keywords fused over 3 providers, each the real Tavily driver over undici under an id of its own (so each has
 * its own endpoint, key, quota and concurrency), all pointed at the 50 ms mock. All 15 calls can be in flight at
 * once (5 keywords per provider at the default concurrency 5, the providers side by side), so the ideal wall is
 * one latency. Aim: at most 1.2x. Also against the same 5 keywords on one of those providers alone, in the same
 * run: what fusing three costs over searching one.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Composition from "../packages/core/src/Composition.js"
import * as ProviderRegistry from "../packages/core/src/ProviderRegistry.js"
import * as SearchKeywords from "../packages/core/src/SearchKeywords.js"
import * as Settings from "../packages/core/src/Settings.js"
import * as WebSearch from "../packages/core/src/WebSearch.js"
import * as Tavily from "../packages/providers/src/Tavily.js"

/** The fused search's shape. */
export const fusedKeywordCount = 5
export const fusedProviderIds = ["tavily", "tavily-b", "tavily-c"] as const

const keywords = Array.from({ length: fusedKeywordCount }, (_, i) => `effect typescript fused ${i + 1}`)

// The Tavily driver registered under another id: a provider of its own to the registry.
const tavilyAs = (id: string) =>
  Layer.unwrapEffect(
    Effect.map(Tavily.make, (driver) =>
      ProviderRegistry.register({ ...driver, preset: { ...driver.preset, id, name: `Tavily ${id}` } })
    )
  )

/** The whole of websearch with three Tavily-shaped providers, pointed at the mock on `port`. */
export const fused = (port: number, apiKey: string) => {
  const origin = `http://127.0.0.1:${port}`
  const provider = {
    apiKeys: [apiKey],
    capabilities: { searchKeywords: { apiHost: origin } },
    // Tavily's published 100 calls a minute would throttle the bench after a few runs.
    rateLimit: { limit: 1_000_000, window: "1 second" }
  }
  const runtime = ManagedRuntime.make(
    WebSearch.layer(Composition.sequence(...fusedProviderIds.map(tavilyAs))).pipe(
      Layer.provide(NodeHttpClient.layerUndici),
      Layer.provideMerge(
        Settings.layer({
          defaults: { searchKeywords: null },
          providers: Object.fromEntries(fusedProviderIds.map((id) => [id, provider])),
          urlPolicy: { allowHosts: [`127.0.0.1:${port}`] }
        })
      )
    )
  )
  return {
    /** The same keywords on the first provider alone. */
    single: async () => {
      const response = await runtime.runPromise(SearchKeywords.searchKeywords({ keywords, providerId: "tavily" }))
      if (response.failures.length > 0 || response.results.length !== fusedKeywordCount * 10) {
        throw new Error(`fanout fused: the single-provider search got ${response.results.length} results`)
      }
    },
    run: async () => {
      const response = await runtime.runPromise(
        SearchKeywords.searchKeywords({ keywords, providerIds: [...fusedProviderIds] })
      )
      // The mock answers each provider with the same 10 URLs per keyword: fused, each found by all three.
      const attributed = response.results.every((r) => r.providers?.length === fusedProviderIds.length)
      if (response.failures.length > 0 || response.results.length !== fusedKeywordCount * 10 || !attributed) {
        throw new Error(
          `fanout fused: expected ${fusedKeywordCount * 10} results found by all ${fusedProviderIds.length} providers ` +
            `and no failures, got ${response.results.length} results, failures ${JSON.stringify(response.failures)}`
        )
      }
    },
    dispose: () => runtime.dispose()
  }
}
