/**
 * Test fixtures: presets shaped like the built-in providers' (core itself names no provider, so its tests bring
 * their own), for scripted drivers that stand in for the real ones.
 */
import type { Preset, PresetCapability } from "../../src/Preset.js"

const search = (apiHost?: string): PresetCapability =>
  apiHost === undefined ? { feature: "searchKeywords" } : { feature: "searchKeywords", apiHost }
const fetch = (apiHost?: string): PresetCapability =>
  apiHost === undefined ? { feature: "fetchUrls" } : { feature: "fetchUrls", apiHost }

/** The built-in providers' presets, in display order (each provider module owns its own; core names none). */
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

/** The presets by id. */
export const byId: ReadonlyMap<string, Preset> = new Map(all.map((preset) => [preset.id, preset]))
