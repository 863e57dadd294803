/**
 * A provider module that registers its own `fetch` driver: composed after the built-in providers, it must
 * replace the built-in driver with the same id.
 */
import * as Preset from "@websearch/core/Preset"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Effect from "effect/Effect"

const preset = Preset.make({
  id: "fetch",
  name: "Fetch (from a module)",
  type: "local",
  credentials: "none",
  capabilities: [{ feature: "fetchUrls" }]
})

export const layer = ProviderRegistry.register({
  preset,
  fetchUrls: (url) => Effect.succeed({ title: "from the module", url, content: "module driver" })
})
