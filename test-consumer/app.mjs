// The consumer program: plain Node ESM against the installed @websearch packages (no tsx, no bundler). It
// registers a provider of its own as a Layer (its own id, preset and options schema), sets an override for it in
// the settings, searches through it, fetches a loopback page with the node `Fetch` provider, and shows that a bad
// option and an override for a provider that is not composed fail at start. It prints one JSON line; run.mjs
// checks it.
//
//   node app.mjs http://127.0.0.1:PORT/page
import { FetchUrls, Preset, ProviderRegistry, SearchKeywords, Settings, WebSearch } from "@websearch/core"
import { Fetch } from "@websearch/node"
import { Effect, Layer, Schema } from "effect"

const pageUrl = process.argv[2]

// A provider of the application's own: answers every keyword from memory, greeting as its option says.
const Options = Schema.Struct({ greeting: Schema.optionalWith(Schema.String, { default: () => "Hello" }) })
const memory = ProviderRegistry.register({
  preset: Preset.make({
    id: "memory",
    name: "In-memory search",
    type: "local",
    credentials: "none",
    capabilities: [{ feature: "searchKeywords" }]
  }),
  options: Options,
  searchKeywords: (keyword, ctx) =>
    Effect.succeed([
      {
        title: `${ctx.options.greeting}: memory answer for ${keyword}`,
        url: "https://memory.example/answer",
        content: `About ${keyword}.`
      }
    ])
})

const settings = (providers) =>
  Settings.layer({ defaults: { searchKeywords: "memory" }, urlPolicy: { allowHosts: ["127.0.0.1"] }, providers })

const live = (providers) => WebSearch.layer(memory, Fetch.layer).pipe(Layer.provide(settings(providers)))

const outcome = (effect) =>
  effect.pipe(
    Effect.map((response) => ({ ok: true, response })),
    Effect.catchAll((error) =>
      Effect.succeed({ ok: false, error: { _tag: error._tag, reason: error.reason, message: error.message } })
    )
  )

const program = Effect.all({
  search: outcome(SearchKeywords.searchKeywords({ keywords: ["effect layers"] })),
  fetch: outcome(FetchUrls.fetchUrls({ urls: [pageUrl] }))
})

const startFailure = (layer) =>
  Effect.runPromise(
    Effect.void.pipe(
      Effect.provide(layer),
      Effect.as(null),
      Effect.catchAll((error) => Effect.succeed({ _tag: error._tag, reason: error.reason, message: error.message }))
    )
  )

const result = await Effect.runPromise(
  program.pipe(
    Effect.provide(live({ memory: { greeting: "Welcome" } })),
    Effect.catchAll((error) =>
      Effect.succeed({ layer: { _tag: error._tag, reason: error.reason, message: error.message } })
    )
  )
)
result.badOption = await startFailure(live({ memory: { greeting: 42 } }))
result.unknownOverride = await startFailure(live({ mem: { greeting: "typo" } }))
process.stdout.write(`${JSON.stringify(result)}\n`)
