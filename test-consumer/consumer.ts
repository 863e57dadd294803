// The README's examples as a consumer writes them, type-checked (tsc --noEmit, never run) against the installed
// packages' declarations under strict settings: tsconfig.nodenext.json and tsconfig.bundler.json.
import type { LanguageModel as LanguageModelService } from "@effect/ai"
import { LanguageModel } from "@effect/ai"
import { HttpApiClient, HttpClient, HttpClientRequest, HttpLayerRouter, HttpServerResponse } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { TurnCitations, WebSearchToolkit } from "@websearch/ai"
import {
  FetchUrls,
  PageType,
  Preset,
  ProviderRegistry,
  SearchKeywords,
  Settings,
  WebSearch,
  WebSearchClient,
  WebSearchError,
  WebSearchResponse
} from "@websearch/core"
import { Wall } from "@websearch/extract"
import { Fetch, SharedStores } from "@websearch/node"
import { Jina, Providers, Tavily } from "@websearch/providers"
import { ServerConfig, WebSearchApi, WebSearchServer } from "@websearch/server"
import { Config, Effect, Layer, Option, Redacted, Schema } from "effect"
import { createServer } from "node:http"

// README "Example"
const Live = WebSearch.layer(Tavily.layer, Jina.layer).pipe(
  Layer.provide(NodeHttpClient.layerUndici),
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

// README "Composing the layers": the three usual shapes.
export const OneProcess = WebSearch.layer(Providers.layer, Fetch.layer, SharedStores.layerMemory()).pipe(
  Layer.provide(NodeHttpClient.layerUndici),
  Layer.provide(Settings.layerConfig())
)
export const Replica = WebSearch.layer(Providers.layer, Fetch.layer, SharedStores.layerConfig()).pipe(
  Layer.provide(NodeHttpClient.layerUndici),
  Layer.provide(Settings.layerConfig())
)
const Canned = ProviderRegistry.register({
  preset: {
    id: "canned",
    name: "Canned",
    type: "local",
    credentials: "none",
    capabilities: [{ feature: "searchKeywords" }]
  },
  searchKeywords: (keyword) => Effect.succeed([{ title: keyword, url: "https://example.com/", content: keyword }])
})
export const TestLive = WebSearch.layer(Canned).pipe(
  Layer.provide(Settings.layer({ defaults: { searchKeywords: "canned" } }))
)

// README "Your own provider"
export const preset = Preset.make({
  id: "intranet",
  name: "Intranet search",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://search.intranet.example" }],
  publishedRateLimit: { limit: 10, windowMillis: 1_000, maxWaitMillis: 5_000 }
})
export const Options = Schema.Struct({ collection: Schema.optionalWith(Schema.String, { default: () => "all" }) })
const optionsConfig = Config.all({
  collection: Config.option(Config.string("INTRANET_COLLECTION")).pipe(Config.map(Option.getOrUndefined))
})
const Answer = Schema.Struct({
  hits: Schema.Array(Schema.Struct({ title: Schema.String, link: Schema.String, summary: Schema.String }))
})
export const intranet = Layer.unwrapEffect(
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    return ProviderRegistry.register({
      preset,
      options: Options,
      optionsConfig,
      searchKeywords: (keyword, ctx) =>
        client
          .execute(
            HttpClientRequest.get(`${Option.getOrElse(ctx.apiHost, () => "")}/api/search`).pipe(
              HttpClientRequest.setUrlParams({ q: keyword, collection: ctx.options.collection, limit: ctx.maxResults }),
              HttpClientRequest.bearerToken(Option.getOrElse(Option.map(ctx.apiKey, Redacted.value), () => ""))
            )
          )
          .pipe(
            Effect.flatMap((response) => response.json),
            Effect.flatMap(Schema.decodeUnknown(Answer)),
            Effect.map((answer) =>
              answer.hits.map((hit) => ({ title: hit.title, url: hit.link, content: hit.summary }))
            ),
            Effect.mapError(() =>
              WebSearchError.requestFailed("network", `the intranet search failed for "${keyword}"`)
            )
          )
    })
  })
)
const IntranetLive = WebSearch.layer(intranet).pipe(
  Layer.provide(NodeHttpClient.layerUndici),
  Layer.provide(Settings.layerConfig())
)
export const holidays = () =>
  Effect.runPromise(SearchKeywords.searchKeywords({ keywords: ["holidays"] }).pipe(Effect.provide(IntranetLive)))

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
const ServerLive = WebSearch.layer(Providers.layer, Fetch.layer, SharedStores.layerConfig()).pipe(
  Layer.provide(NodeHttpClient.layerUndici),
  Layer.provideMerge(Settings.layerConfig())
)
const Hello = HttpLayerRouter.add("GET", "/hello", HttpServerResponse.text("hi"))
const App = Layer.mergeAll(Hello, WebSearchServer.routes).pipe(
  Layer.provide(ServerConfig.layerConfig()),
  Layer.provide(ServerLive)
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

// README "Page types and walls": the kind of page each fetched result was read as, walls as a typed failure.
export const readAs = (response: WebSearchResponse.WebSearchResponse): ReadonlyArray<PageType.PageType | undefined> =>
  response.results.map((result) => result.pageType)
export const wallKind = (html: string, text: string): Wall.Kind | undefined => Wall.detect({ html, text })?.kind
export const isBlocked = (error: WebSearchError.WebSearchError): boolean =>
  error._tag === "RequestFailed" && error.reason === "blocked" && !error.retryable
