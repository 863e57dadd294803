// The README's examples as a consumer writes them, type-checked (tsc --noEmit, never run) against the installed
// packages' declarations under strict settings: tsconfig.nodenext.json and tsconfig.bundler.json.
import { HttpApiClient, HttpClient, HttpClientRequest, HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import type { LanguageModel as LanguageModelService } from "@effect/ai"
import { LanguageModel } from "@effect/ai"
import { NodeHttpClient, NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { TurnCitations, WebSearchToolkit } from "@websearch/ai"
import { FetchUrls, ProviderRegistry, SearchKeywords, Settings, WebSearch, WebSearchClient } from "@websearch/core"
import * as WebSearchError from "@websearch/core/WebSearchError"
import { Fetch, SharedStores } from "@websearch/node"
import { Jina, Tavily } from "@websearch/providers"
import { ServerConfig, WebSearchApi, WebSearchServer } from "@websearch/server"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"

// README "Example"
const Live = Layer.mergeAll(Tavily.layer, Jina.layer).pipe(
  Layer.provide(NodeHttpClient.layerUndici),
  Layer.provideMerge(WebSearch.layer),
  Layer.provide(Settings.layerConfig())
)

const program = Effect.gen(function* () {
  const found = yield* SearchKeywords.searchKeywords({ keywords: ["effect-ts layers"], maxResults: 5 })
  const pages = yield* FetchUrls.fetchUrls({ providerId: "jina", urls: found.results.map((r) => r.url) })
  return pages.results.map((page) => `${page.title}\n${page.content}`)
}).pipe(Effect.catchTag("RequestFailed", (e) => Effect.succeed([`failed: ${e.reason} (retry: ${e.retryable})`])))

export const run = (): Promise<ReadonlyArray<string>> => Effect.runPromise(Effect.provide(program, Live))

// The promise client.
export const viaClient = async (signal: AbortSignal): Promise<string | undefined> => {
  const client = WebSearchClient.make(Live)
  try {
    const response = await client.searchKeywords({ keywords: ["effect"] }, { signal })
    return response.results[0]?.url
  } finally {
    await client.dispose()
  }
}

// A provider of one's own, with the local fetch provider beside it.
const Memory = ProviderRegistry.register({
  preset: {
    id: "memory",
    name: "In-memory search",
    type: "local",
    credentials: "none",
    capabilities: [{ feature: "searchKeywords" }]
  },
  searchKeywords: (keyword) =>
    keyword === ""
      ? Effect.fail(WebSearchError.requestFailed("invalid_input", "empty keyword"))
      : Effect.succeed([{ title: keyword, url: "https://memory.example/", content: keyword }])
})
export const Own = Layer.mergeAll(Memory, Fetch.layer).pipe(
  Layer.provideMerge(WebSearch.layer),
  Layer.provide(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"] } }))
)

// README "Agent surfaces"
declare const Model: Layer.Layer<LanguageModelService.LanguageModel>
const answer = Effect.gen(function* () {
  const prompt = "What changed in Node 22?"
  const response = yield* LanguageModel.generateText({ prompt, toolkit: WebSearchToolkit.toolkit })
  return { text: response.text, sources: TurnCitations.fromResponse(response).sources }
})
export const agent = () =>
  Effect.runPromise(answer.pipe(Effect.provide(WebSearchToolkit.layer()), Effect.provide(Live), Effect.provide(Model)))

// README "HTTP server"
const LiveWithSettings = Layer.mergeAll(Tavily.layer, Jina.layer).pipe(
  Layer.provide(NodeHttpClient.layerUndici),
  Layer.provideMerge(WebSearch.layer),
  Layer.provideMerge(Settings.layerConfig())
)
const Hello = HttpLayerRouter.add("GET", "/hello", HttpServerResponse.text("hi"))
const App = Layer.mergeAll(Hello, WebSearchServer.routes).pipe(
  Layer.provide(ServerConfig.layerConfig()),
  Layer.provide(SharedStores.layerConfig()),
  Layer.provide(LiveWithSettings)
)
export const serve = () =>
  HttpLayerRouter.serve(App).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: 3000 })),
    Layer.launch,
    NodeRuntime.runMain
  )

declare const token: string
export const client = HttpApiClient.make(WebSearchApi.WebSearchApi, {
  baseUrl: "http://127.0.0.1:3000",
  transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
})
