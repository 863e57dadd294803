import { describe, expect, it } from "@effect/vitest"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fileURLToPath } from "node:url"
import * as Live from "../src/internal/live.js"
import * as ProviderModules from "../src/internal/providerModules.js"
import * as Presets from "./support/presets.js"

const common = { json: true, verbose: false, config: undefined, provider: undefined, allowHosts: [], allowCidrs: [] }
const override = fileURLToPath(new URL("./support/fetchOverrideModule.ts", import.meta.url))

// Stands in for the binary's local fetcher, which proposes itself as the default fetchUrls provider.
const builtIn = Layer.merge(
  ProviderRegistry.register({
    preset: Presets.byId.get("fetch")!,
    fetchUrls: (url) => Effect.succeed({ title: "built in", url, content: "built-in driver" })
  }),
  ProviderRegistry.proposeDefaults("test bundle", { fetchUrls: "fetch" })
)

describe("ProviderModules", () => {
  it("paths: comma-separated, trimmed, empty entries dropped, order kept", () => {
    expect(ProviderModules.paths({ WEBSEARCH_PROVIDER_MODULES: " ./a.mjs, ,/abs/b.mjs,file:///c.mjs, " })).toEqual([
      "./a.mjs",
      "/abs/b.mjs",
      "file:///c.mjs"
    ])
    expect(ProviderModules.paths({})).toEqual([])
  })

  it.effect("a module's driver is composed after the built-in providers and replaces the one with its id", () =>
    Effect.gen(function* () {
      const page = yield* FetchUrls.fetchUrls({ urls: ["https://example.com/"] })
      expect(page.results.map((r) => r.content)).toEqual(["module driver"])
    }).pipe(Effect.provide(Live.layer(common, { WEBSEARCH_PROVIDER_MODULES: override }, builtIn)))
  )

  it.effect("without modules the built-in driver answers", () =>
    Effect.gen(function* () {
      const page = yield* FetchUrls.fetchUrls({ urls: ["https://example.com/"] })
      expect(page.results.map((r) => r.content)).toEqual(["built-in driver"])
    }).pipe(Effect.provide(Live.layer(common, {}, builtIn)))
  )

  it.effect(
    "a module whose layer is not a Layer, or that cannot be loaded, is Unavailable/invalid_config naming it",
    () =>
      Effect.gen(function* () {
        const notALayer = fileURLToPath(new URL("./support/notAProviderModule.ts", import.meta.url))
        const error = yield* Effect.flip(ProviderModules.load(notALayer))
        expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
        expect(error.message).toBe(
          `provider module "${notALayer}" (WEBSEARCH_PROVIDER_MODULES) does not export a provider Layer named "layer"`
        )
        const missing = yield* Effect.flip(ProviderModules.load("./nope.mjs", "/nonexistent"))
        expect(missing.message).toContain(
          'provider module "./nope.mjs" (WEBSEARCH_PROVIDER_MODULES) could not be loaded'
        )
      })
  )
})
