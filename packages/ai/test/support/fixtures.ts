/**
 * Test doubles for the agent surfaces: in-memory provider drivers for the three capabilities (answers from
 * tables, every call recorded), the websearch Layer around them, and a scripted `LanguageModel` whose answers
 * are functions of the prompt it receives.
 */
import * as LanguageModel from "@effect/ai/LanguageModel"
import type * as Prompt from "@effect/ai/Prompt"
import type * as Response from "@effect/ai/Response"
import * as Preset from "@websearch/core/Preset"
import type { DriverResult, ProviderDriver } from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"

// Presets shaped like the built-in providers these doubles stand in for (core names no provider).
const presets: Record<string, Preset.Preset> = {
  duckduckgo: Preset.make({
    id: "duckduckgo",
    name: "DuckDuckGo",
    type: "api",
    credentials: "none",
    capabilities: [{ feature: "searchKeywords", apiHost: "https://html.duckduckgo.com" }]
  }),
  fetch: Preset.make({
    id: "fetch",
    name: "Fetch (local)",
    type: "local",
    credentials: "none",
    capabilities: [{ feature: "fetchUrls" }]
  }),
  openai: Preset.make({
    id: "openai",
    name: "OpenAI web search",
    type: "api",
    credentials: "required",
    capabilities: [{ feature: "research", apiHost: "https://api.openai.com/v1" }]
  })
}

const preset = (id: string): Preset.Preset => {
  const found = presets[id]
  if (found === undefined) throw new Error(`no preset ${id}`)
  return found
}

/** The results a search for `keyword` returns, unless the table says otherwise. */
export const searchResults = (keyword: string, count = 2): ReadonlyArray<DriverResult> =>
  Array.from({ length: count }, (_, i) => ({
    title: `${keyword} result ${i + 1}`,
    url: `https://results.example/${encodeURIComponent(keyword)}/${i + 1}`,
    content: `Snippet ${i + 1} about ${keyword}.`
  }))

/** The page a fetch of `url` returns, unless the table says otherwise. */
export const page = (url: string): DriverResult => ({ title: `Page at ${url}`, url, content: `Full text of ${url}.` })

export interface Tables {
  /** keyword -> results, or an error for that keyword. */
  readonly search?: Readonly<Record<string, ReadonlyArray<DriverResult> | WebSearchError.WebSearchError>>
  /** URL -> page, or an error for that URL. */
  readonly fetch?: Readonly<Record<string, DriverResult | WebSearchError.WebSearchError>>
}

export interface Recorded {
  readonly searched: Array<string>
  readonly fetched: Array<string>
  readonly researched: Array<string>
}

const isError = (u: unknown): u is WebSearchError.WebSearchError => WebSearchError.isWebSearchError(u)

/** Drivers for duckduckgo (search), fetch (fetch) and openai (research), answering from the tables. */
export const drivers = (
  tables: Tables = {}
): { readonly drivers: ReadonlyArray<ProviderDriver>; readonly recorded: Recorded } => {
  const recorded: Recorded = { searched: [], fetched: [], researched: [] }
  const search: ProviderDriver = {
    preset: preset("duckduckgo"),
    searchKeywords: (keyword) =>
      Effect.suspend(() => {
        recorded.searched.push(keyword)
        const entry = tables.search?.[keyword]
        return isError(entry) ? Effect.fail(entry) : Effect.succeed(entry ?? searchResults(keyword))
      })
  }
  const fetch: ProviderDriver = {
    preset: preset("fetch"),
    fetchUrls: (url) =>
      Effect.suspend(() => {
        recorded.fetched.push(url)
        const entry = tables.fetch?.[url]
        return isError(entry) ? Effect.fail(entry) : Effect.succeed(entry ?? page(url))
      })
  }
  const research: ProviderDriver = {
    preset: preset("openai"),
    research: (request) =>
      Effect.sync(() => {
        recorded.researched.push(request.query)
        return {
          report: `A report on ${request.query}.`,
          queries: [request.query],
          sources: [
            { title: "Report source A", url: "https://research.example/a" },
            { title: "Report source B", url: "https://research.example/b" }
          ],
          images: []
        }
      })
  }
  return { drivers: [search, fetch, research], recorded }
}

/** websearch with these drivers and settings (an OpenAI key so research resolves). */
export const live = (
  list: ReadonlyArray<ProviderDriver>,
  settings: Settings.SettingsInput = {}
): Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable> =>
  WebSearch.layer(
    ...list.map((d) => ProviderRegistry.register(d)),
    // The defaults the CLI's bundle proposes, for the doubles composed here.
    ProviderRegistry.proposeDefaults("test bundle", {
      ...(list.some((d) => d.preset.id === "duckduckgo") ? { searchKeywords: "duckduckgo" } : {}),
      ...(list.some((d) => d.preset.id === "fetch") ? { fetchUrls: "fetch" } : {})
    })
  ).pipe(
    Layer.provideMerge(
      Settings.layer({
        defaults: { research: list.some((d) => d.preset.id === "openai") ? "openai" : null },
        providers: list.some((d) => d.preset.id === "openai") ? { openai: { apiKeys: ["sk-test-key-123456"] } } : {},
        ...settings
      })
    )
  )

const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  reasoningTokens: undefined,
  cachedInputTokens: undefined
})

/** A finish part with the given usage. */
export const finish = (input = 10, output = 5): Response.PartEncoded => ({
  type: "finish",
  reason: "stop",
  usage: usage(input, output)
})

/** A text answer. */
export const text = (value: string, input = 10, output = 5): Array<Response.PartEncoded> => [
  { type: "text", text: value },
  finish(input, output)
]

/** A tool call. */
export const toolCall = (id: string, name: string, params: unknown): Response.PartEncoded => ({
  type: "tool-call",
  id,
  name,
  params
})

// Streaming splits a text part into start, delta and end, as providers stream them.
const streamed = (part: Response.PartEncoded, index: number): Array<Response.StreamPartEncoded> =>
  part.type === "text"
    ? [
        { type: "text-start", id: `t${index}` },
        { type: "text-delta", id: `t${index}`, delta: part.text },
        { type: "text-end", id: `t${index}` }
      ]
    : [part as Response.StreamPartEncoded]

/** What the scripted model was asked: the prompt and the names of the tools it was offered. */
export interface ModelCall {
  readonly prompt: Prompt.Prompt
  readonly tools: ReadonlyArray<string>
  readonly json: boolean
}

/**
 * A scripted `LanguageModel`: `script` answers each call (its index and what was asked) with encoded parts;
 * `streamText` streams the same parts.
 */
export const scriptedModel = (
  script: (call: ModelCall, index: number) => Array<Response.PartEncoded>
): { readonly layer: Layer.Layer<LanguageModel.LanguageModel>; readonly calls: Array<ModelCall> } => {
  const calls: Array<ModelCall> = []
  const answer = (options: LanguageModel.ProviderOptions) =>
    Effect.sync(() => {
      const call = {
        prompt: options.prompt,
        tools: options.tools.map((t) => t.name),
        json: options.responseFormat.type === "json"
      }
      calls.push(call)
      return script(call, calls.length - 1)
    })
  const layer = Layer.effect(
    LanguageModel.LanguageModel,
    LanguageModel.make({
      generateText: answer,
      streamText: (options) =>
        Stream.flatMap(Stream.fromEffect(answer(options)), (parts) => Stream.fromIterable(parts.flatMap(streamed)))
    })
  )
  return { layer, calls }
}

/** The text of every message of a prompt, joined. */
export const promptText = (prompt: Prompt.Prompt): string =>
  prompt.content
    .map((m) =>
      typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("\n")
    )
    .join("\n---\n")
