/**
 * A provider module that registers its own `fetch` driver: composed after the built-in providers, it must
 * replace the built-in driver with the same id.
 */
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Effect from "effect/Effect"
import * as Presets from "./presets.js"

const preset = Presets.byId.get("fetch")
if (preset === undefined) throw new Error("the fetch preset is missing")

export const layer = ProviderRegistry.register({
  preset,
  fetchUrls: (url) => Effect.succeed({ title: "from the module", url, content: "module driver" })
})
