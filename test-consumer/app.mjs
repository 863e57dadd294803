// The consumer program: plain Node ESM against the installed @websearch packages (no tsx, no bundler). It
// registers a provider of its own as a Layer (its own id and preset), searches through it, and fetches a loopback
// page with the node `Fetch` provider. It prints one JSON line; run.mjs checks it.
//
//   node app.mjs http://127.0.0.1:PORT/page
//
// Written against today's composition API (ProviderRegistry.register(driver), WebSearch.layer, Settings.layer);
// this is the one file to adapt when that API changes.
import { FetchUrls, ProviderRegistry, SearchKeywords, Settings, WebSearch } from "@websearch/core"
import { Fetch } from "@websearch/node"
import { Effect, Layer } from "effect"

const pageUrl = process.argv[2]

// A provider of the application's own: answers every keyword from memory.
const memory = ProviderRegistry.register({
  preset: {
    id: "memory",
    name: "In-memory search",
    type: "local",
    credentials: "none",
    capabilities: [{ feature: "searchKeywords" }]
  },
  searchKeywords: (keyword) =>
    Effect.succeed([
      { title: `Memory answer for ${keyword}`, url: "https://memory.example/answer", content: `About ${keyword}.` }
    ])
})

const Live = Layer.mergeAll(memory, Fetch.layer).pipe(
  Layer.provideMerge(WebSearch.layer),
  Layer.provide(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] } }))
)

const outcome = (effect) =>
  effect.pipe(
    Effect.map((response) => ({ ok: true, response })),
    Effect.catchAll((error) =>
      Effect.succeed({ ok: false, error: { _tag: error._tag, reason: error.reason, message: error.message } })
    )
  )

const program = Effect.all({
  search: outcome(SearchKeywords.searchKeywords({ providerId: "memory", keywords: ["effect layers"] })),
  fetch: outcome(FetchUrls.fetchUrls({ providerId: "fetch", urls: [pageUrl] }))
})

const result = await Effect.runPromise(
  program.pipe(
    Effect.provide(Live),
    Effect.catchAll((error) =>
      Effect.succeed({ layer: { _tag: error._tag, reason: error.reason, message: error.message } })
    )
  )
)
process.stdout.write(`${JSON.stringify(result)}\n`)
