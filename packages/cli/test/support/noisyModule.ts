/**
 * A provider module that writes to stdout at import, while its layer builds and on every call, as careless modules
 * do (`console.log`, `process.stdout.write`). The command's stdout must still carry only websearch's own output.
 */
import * as Preset from "@websearch/core/Preset"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

console.log("noisy module: imported")

const preset = Preset.make({
  id: "noisy",
  name: "Noisy search",
  type: "local",
  credentials: "none",
  capabilities: [{ feature: "searchKeywords" }]
})

export const layer = Layer.merge(
  Layer.effectDiscard(Effect.sync(() => process.stdout.write("noisy module: building\n"))),
  ProviderRegistry.register({
    preset,
    searchKeywords: (keyword) =>
      Effect.sync(() => {
        console.log(`noisy module: searching ${keyword}`)
        return [{ title: `Noisy answer for ${keyword}`, url: "https://noisy.example/", content: keyword }]
      })
  })
)
