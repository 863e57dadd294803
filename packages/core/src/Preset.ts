/**
 * Provider presets: read-only templates naming each provider, its kind, whether it needs a key, and the
 * capabilities it has with their default endpoints. Drivers arrive with their provider modules; a preset is
 * data only.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Capability } from "./Capability.js"
import { ProviderId } from "./ProviderId.js"

/**
 * One capability of a preset, with the endpoint it calls by default. The endpoint belongs to the capability,
 * not the provider: Jina searches at `https://s.jina.ai` and reads at `https://r.jina.ai`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PresetCapability = Schema.Struct({
  feature: Capability,
  apiHost: Schema.optional(Schema.String)
})

/**
 * @since 0.1.0
 * @category models
 */
export type PresetCapability = typeof PresetCapability.Type

/**
 * A provider preset.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Preset = Schema.Struct({
  id: ProviderId,
  name: Schema.String,
  type: Schema.Literal("api", "mcp", "local"),
  /** Whether calls need an API key (`optional`: works keyless with lower limits). */
  credentials: Schema.Literal("required", "optional", "none"),
  capabilities: Schema.Array(PresetCapability),
  /**
   * The request budget the provider publishes for every plan (or for its keyless tier), applied unless the user
   * sets `providers.<id>.rateLimit`. Calls over it wait up to `maxWaitMillis`, so a fanout is spread out instead
   * of failing on the provider's 429.
   */
  publishedRateLimit: Schema.optional(
    Schema.Struct({ limit: Schema.Int, windowMillis: Schema.Int, maxWaitMillis: Schema.Int })
  )
}).annotations({ identifier: "Preset" })

/**
 * @since 0.1.0
 * @category models
 */
export type Preset = typeof Preset.Type

const search = (apiHost?: string): PresetCapability =>
  apiHost === undefined ? { feature: "searchKeywords" } : { feature: "searchKeywords", apiHost }
const fetch = (apiHost?: string): PresetCapability =>
  apiHost === undefined ? { feature: "fetchUrls" } : { feature: "fetchUrls", apiHost }

/**
 * Every built-in preset, in display order.
 *
 * @since 0.1.0
 * @category presets
 */
export const all: ReadonlyArray<Preset> = [
  {
    id: "tavily",
    name: "Tavily",
    type: "api",
    credentials: "required",
    capabilities: [search("https://api.tavily.com"), fetch("https://api.tavily.com")],
    // The development plan's 100 requests per minute.
    publishedRateLimit: { limit: 100, windowMillis: 60_000, maxWaitMillis: 15_000 }
  },
  {
    id: "exa",
    name: "Exa",
    type: "api",
    credentials: "required",
    capabilities: [search("https://api.exa.ai"), fetch("https://api.exa.ai")]
  },
  {
    id: "exa-mcp",
    name: "Exa MCP",
    type: "mcp",
    credentials: "optional",
    capabilities: [search("https://mcp.exa.ai")],
    // The free tier's published budget: 2 calls per second per IP (a key lifts it; set rateLimit then).
    publishedRateLimit: { limit: 2, windowMillis: 1_000, maxWaitMillis: 15_000 }
  },
  // Self-hosted: no default endpoint, the user must configure the instance's base URL.
  { id: "searxng", name: "SearXNG", type: "api", credentials: "none", capabilities: [search()] },
  {
    id: "jina",
    name: "Jina",
    type: "api",
    // The Reader (r.jina.ai) answers keyless at a lower rate; search (s.jina.ai) needs a key, which its driver checks.
    credentials: "optional",
    capabilities: [search("https://s.jina.ai"), fetch("https://r.jina.ai")]
  },
  {
    id: "zhipu",
    name: "Zhipu",
    type: "api",
    credentials: "required",
    capabilities: [search("https://open.bigmodel.cn/api/paas/v4")]
  },
  {
    id: "bocha",
    name: "Bocha",
    type: "api",
    credentials: "required",
    capabilities: [search("https://api.bochaai.com")]
  },
  {
    id: "querit",
    name: "Querit",
    type: "api",
    credentials: "required",
    capabilities: [search("https://api.querit.ai"), fetch("https://api.querit.ai")]
  },
  {
    id: "brave",
    name: "Brave Search",
    type: "api",
    credentials: "required",
    capabilities: [search("https://api.search.brave.com")],
    // The Free plan's 1 request per second (X-RateLimit-Policy: 1;w=1); paid plans set their own rateLimit.
    publishedRateLimit: { limit: 1, windowMillis: 1_000, maxWaitMillis: 15_000 }
  },
  {
    id: "serper",
    name: "Serper",
    type: "api",
    credentials: "required",
    capabilities: [search("https://google.serper.dev")]
  },
  {
    id: "google",
    name: "Google Custom Search",
    type: "api",
    credentials: "required",
    capabilities: [search("https://www.googleapis.com")]
  },
  {
    id: "bing",
    name: "Bing Web Search",
    type: "api",
    credentials: "required",
    capabilities: [search("https://api.bing.microsoft.com")]
  },
  {
    id: "baidu",
    name: "Baidu Qianfan",
    type: "api",
    credentials: "required",
    capabilities: [search("https://qianfan.baidubce.com")],
    // Qianfan's default component budget is 1 QPS.
    publishedRateLimit: { limit: 1, windowMillis: 1_000, maxWaitMillis: 15_000 }
  },
  {
    id: "ollama",
    name: "Ollama",
    type: "api",
    credentials: "required",
    capabilities: [search("https://ollama.com"), fetch("https://ollama.com")]
  },
  {
    id: "keenable",
    name: "Keenable",
    type: "api",
    credentials: "optional",
    capabilities: [search("https://api.keenable.ai")]
  },
  {
    id: "duckduckgo",
    name: "DuckDuckGo",
    type: "api",
    credentials: "none",
    capabilities: [search("https://html.duckduckgo.com")]
  },
  {
    id: "firecrawl",
    name: "Firecrawl",
    type: "api",
    credentials: "required",
    capabilities: [search("https://api.firecrawl.dev"), fetch("https://api.firecrawl.dev")]
  },
  {
    id: "perplexity",
    name: "Perplexity Search",
    type: "api",
    credentials: "required",
    capabilities: [search("https://api.perplexity.ai")]
  },
  { id: "kagi", name: "Kagi", type: "api", credentials: "required", capabilities: [search("https://kagi.com")] },
  {
    id: "serpapi",
    name: "SerpApi",
    type: "api",
    credentials: "required",
    capabilities: [search("https://serpapi.com")]
  },
  { id: "fetch", name: "Fetch (local)", type: "local", credentials: "none", capabilities: [fetch()] },
  {
    id: "openai",
    name: "OpenAI web search",
    type: "api",
    credentials: "required",
    capabilities: [{ feature: "research", apiHost: "https://api.openai.com/v1" }]
  }
]

/**
 * The built-in presets by id.
 *
 * @since 0.1.0
 * @category presets
 */
export const byId: ReadonlyMap<string, Preset> = new Map(all.map((preset) => [preset.id, preset]))

/**
 * Whether a preset has a capability.
 *
 * @since 0.1.0
 * @category predicates
 */
export const supports = (preset: Preset, capability: Capability): boolean =>
  preset.capabilities.some((c) => c.feature === capability)
