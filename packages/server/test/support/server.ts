/**
 * Test doubles for the server: scripted provider drivers (each capability is a function of the input that
 * returns an Effect, and every call records whether it completed or was interrupted) and a helper that starts
 * the real server on 127.0.0.1 with a free port for the duration of one test.
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import * as HttpServer from "@effect/platform/HttpServer"
import type * as Composition from "@websearch/core/Composition"
import type * as Preset from "@websearch/core/Preset"
import type { DriverContext, DriverResult, ProviderDriver } from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import type { ResearchResponse } from "@websearch/core/WebSearchResponse"
import * as Exa from "@websearch/providers/Exa"
import * as OpenAi from "@websearch/providers/OpenAi"
import * as SearXng from "@websearch/providers/SearXng"
import * as Tavily from "@websearch/providers/Tavily"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as WebSearchServer from "../../src/WebSearchServer.js"

/** A token long enough for the server's rules. */
export const token = "test-token-0123456789abcdef"

/** A provider key that must never appear in any response. */
export const canaryKey = "sk-canary-7f3a9c2e51d84b6b"

/** What a scripted driver saw. */
export interface Recorder {
  readonly calls: Array<{ readonly input: string; readonly apiKey: string | undefined }>
  readonly completed: Array<string>
  readonly interrupted: Array<string>
}

type Behaviour<A> = (input: string, ctx: DriverContext) => Effect.Effect<A, WebSearchError.WebSearchError>

/** Results for a search input: `count` generated results. */
export const results = (input: string, count = 2): ReadonlyArray<DriverResult> =>
  Array.from({ length: count }, (_, i) => ({
    title: `${input} result ${i + 1}`,
    content: `Content ${i + 1} for ${input}.`,
    url: `https://results.example/${encodeURIComponent(input)}/${i + 1}`
  }))

// The built-in presets the scripted drivers stand in for, without the whole-site capabilities (mapSite,
// crawlSite), which these drivers never script.
const presets: ReadonlyMap<string, Preset.Preset> = new Map(
  [Tavily.preset, Exa.preset, SearXng.preset, OpenAi.preset].map((preset) => [
    preset.id,
    {
      ...preset,
      capabilities: preset.capabilities.filter((c) => c.feature !== "mapSite" && c.feature !== "crawlSite")
    }
  ])
)

/** A scripted driver for a built-in preset; only the given capabilities are implemented. */
export const driver = (
  providerId: string,
  behaviour: {
    readonly searchKeywords?: Behaviour<ReadonlyArray<DriverResult>>
    readonly fetchUrls?: Behaviour<DriverResult>
    readonly research?: Behaviour<Omit<ResearchResponse, "providerId" | "query">>
  }
): { readonly driver: ProviderDriver; readonly recorder: Recorder } => {
  const preset = presets.get(providerId)
  if (preset === undefined) throw new Error(`no preset ${providerId}`)
  const recorder: Recorder = { calls: [], completed: [], interrupted: [] }
  const record =
    <A>(f: Behaviour<A> | undefined) =>
    (input: string, ctx: DriverContext) =>
      Effect.suspend(() => {
        recorder.calls.push({ input, apiKey: Option.getOrUndefined(Option.map(ctx.apiKey, Redacted.value)) })
        return f!(input, ctx)
      }).pipe(
        Effect.onExit((exit) =>
          Effect.sync(() => {
            if (Exit.isInterrupted(exit)) recorder.interrupted.push(input)
            else recorder.completed.push(input)
          })
        )
      )
  const out: { -readonly [K in keyof ProviderDriver]: ProviderDriver[K] } = { preset }
  if (behaviour.searchKeywords) out.searchKeywords = record(behaviour.searchKeywords)
  if (behaviour.fetchUrls) out.fetchUrls = record(behaviour.fetchUrls)
  if (behaviour.research) {
    const research = record(behaviour.research)
    out.research = (request, ctx) => research(request.query, ctx)
  }
  return { driver: out, recorder }
}

/** A scripted `openai` research driver: a short report citing one source. */
export const researcher = () =>
  driver("openai", {
    research: (query) =>
      Effect.succeed({
        report: `A report on ${query}`,
        queries: [query],
        sources: [{ title: "Source", url: "https://source.example/1" }],
        images: []
      })
  })

/** The capability services with these drivers, settings and other parts (a result cache, shared stores). */
export const live = <ROut = never>(
  drivers: ReadonlyArray<ProviderDriver>,
  settings: Settings.SettingsInput = {},
  parts: ReadonlyArray<Layer.Layer<ROut, WebSearchError.Unavailable, Composition.Composition>> = []
): Layer.Layer<WebSearch.WebSearch | Settings.Settings | ROut, WebSearchError.Unavailable> =>
  WebSearch.layer(...drivers.map((d) => ProviderRegistry.register(d)), ...parts).pipe(
    Layer.provideMerge(Settings.layer(settings))
  ) as Layer.Layer<WebSearch.WebSearch | Settings.Settings | ROut, WebSearchError.Unavailable>

/** The base URL of a running server. */
export const baseUrl = (server: HttpServer.HttpServer): string => {
  const address = server.address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return `http://127.0.0.1:${address.port}`
}

/** Starts the server on 127.0.0.1 with a free port for the current scope; returns its base URL. */
export const start = (
  options: WebSearchServer.Options,
  services: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable>,
  rateLimiter: Layer.Layer<RateLimiter.RateLimiter> = WebSearchServer.layerRateLimiterMemory
): Effect.Effect<string, WebSearchError.Unavailable, Scope.Scope> =>
  WebSearchServer.layer({ port: 0, host: "127.0.0.1", logRequests: false, ...options }).pipe(
    Layer.provide(rateLimiter),
    Layer.provide(services),
    Layer.build,
    Effect.map((context) => baseUrl(Context.get(context, HttpServer.HttpServer)))
  )

/** `fetch` with the test token and a JSON body. */
export const post = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })
