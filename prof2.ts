import * as Preset from "/work/main/packages/core/src/Preset.js"
import * as ProviderRegistry from "/work/main/packages/core/src/ProviderRegistry.js"
import * as SearchKeywords from "/work/main/packages/core/src/SearchKeywords.js"
import * as Settings from "/work/main/packages/core/src/Settings.js"
import * as WebSearch from "/work/main/packages/core/src/WebSearch.js"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
const driver = { preset: Preset.byId.get("duckduckgo")!, searchKeywords: () => Effect.succeed([]) }
const keywords = Array.from({ length: 20 }, (_, i) => `keyword ${i}`)
const runtime = ManagedRuntime.make(ProviderRegistry.register(driver).pipe(Layer.provideMerge(WebSearch.layer), Layer.provide(Settings.layer({}))))
for (let b = 0; b < 8; b++) {
  const t = performance.now()
  for (let i = 0; i < 500; i++) await runtime.runPromise(SearchKeywords.searchKeywords({ keywords }))
  global.gc?.()
  console.log(b, ((performance.now() - t) / 500).toFixed(2), "ms/op", (process.memoryUsage().heapUsed / 1e6).toFixed(0), "MB heap")
}
