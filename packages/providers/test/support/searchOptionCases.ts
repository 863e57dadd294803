/**
 * The table of what every search provider sends for each search option: for one probe (an option and a value),
 * the parameters that differ from the same search without options, exactly. A probe a provider has no row for
 * must change nothing in its request; the options with rows must be exactly the provider's declaration.
 *
 * `now` is the time the drivers see (a fixed clock), so ranges counted back from it are exact.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as Effect from "effect/Effect"
import * as Baidu from "../../src/Baidu.js"
import * as Bing from "../../src/Bing.js"
import * as Bocha from "../../src/Bocha.js"
import * as Brave from "../../src/Brave.js"
import * as DuckDuckGo from "../../src/DuckDuckGo.js"
import * as Exa from "../../src/Exa.js"
import * as ExaMcp from "../../src/ExaMcp.js"
import * as Firecrawl from "../../src/Firecrawl.js"
import * as GoogleSearch from "../../src/GoogleSearch.js"
import * as Jina from "../../src/Jina.js"
import * as Kagi from "../../src/Kagi.js"
import * as Keenable from "../../src/Keenable.js"
import * as Ollama from "../../src/Ollama.js"
import * as Perplexity from "../../src/Perplexity.js"
import * as Querit from "../../src/Querit.js"
import * as SearXng from "../../src/SearXng.js"
import * as SerpApi from "../../src/SerpApi.js"
import * as Serper from "../../src/Serper.js"
import * as Tavily from "../../src/Tavily.js"
import * as Zhipu from "../../src/Zhipu.js"
import * as Server from "./providerServer.js"

/** The time the drivers see: 2026-03-15T12:00:00Z. */
export const now = Date.UTC(2026, 2, 15, 12)

/**
 * A driver of any provider: the table holds drivers whose own options differ in type, and the test hands each
 * the options its row names.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDriver = ProviderDriver.ProviderDriver<any, any>

/** One option set to one value. */
export type Probe = SearchOptions.SearchOptions

/** The probes every provider is tried with: each value of each option, and the pairs that change a mapping. */
export const probes: ReadonlyArray<Probe> = [
  { timeRange: "day" },
  { timeRange: "week" },
  { timeRange: "month" },
  { timeRange: "year" },
  { includeDomains: ["docs.example.com"] },
  { includeDomains: ["a.example", "b.example"] },
  { includeDomains: ["a.example"], excludeDomains: ["x.example"] },
  { excludeDomains: ["spam.example"] },
  { excludeDomains: ["x.example", "y.example"] },
  { language: "de" },
  { language: "ja" },
  { language: "he" },
  { language: "zh", country: "TW" },
  { language: "pt", country: "BR" },
  { country: "DE" },
  { safeSearch: "off" },
  { safeSearch: "moderate" },
  { safeSearch: "strict" },
  { topic: "general" },
  { topic: "news" }
]

/** The name of a probe in a table: `timeRange=day`, `language=zh,country=TW`. */
export const probeName = (probe: Probe): string =>
  Object.entries(probe)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : String(v)}`)
    .join(",")

/** Where a provider's parameters are read from. */
export type Carrier = "json" | "query" | "form"

/** One provider's row. */
export interface Case {
  readonly providerId: string
  readonly make: Effect.Effect<AnyDriver, never, HttpClient.HttpClient>
  readonly layer: Server.ProviderLayer
  readonly declared: ReadonlyArray<SearchOptions.SearchOption> | undefined
  readonly carrier: Carrier
  readonly answer: Server.Handler
  /** The provider's decoded options (`ctx.options`; in the settings, `override`), for one that needs some. */
  readonly options?: Readonly<Record<string, unknown>>
  /** Parameters that differ between any two requests (a JSON-RPC id), left out of the comparison. */
  readonly volatile?: ReadonlyArray<string>
  /** What each probe changes, by `probeName`; a probe left out changes nothing. */
  readonly sent: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

const body = (name: string) => Server.json(Server.fixture<Server.FixtureJson>(name).response.body)

const timeRanges = (values: readonly [string, string, string, string], key: string) => ({
  "timeRange=day": { [key]: values[0] },
  "timeRange=week": { [key]: values[1] },
  "timeRange=month": { [key]: values[2] },
  "timeRange=year": { [key]: values[3] }
})

const tbs = timeRanges(["qdr:d", "qdr:w", "qdr:m", "qdr:y"], "tbs")

// The same search without options sends `kw`; a keyword of its own makes the query diffs readable.
const google = (key: string, lower: boolean) => ({
  "language=de": { hl: "de" },
  "language=ja": { hl: "ja" },
  "language=he": { hl: "he" },
  "language=zh,country=TW": { hl: "zh", [key]: lower ? "tw" : "TW" },
  "language=pt,country=BR": { hl: "pt", [key]: lower ? "br" : "BR" },
  "country=DE": { [key]: lower ? "de" : "DE" }
})

/** Every search provider of the package, with what it must send. */
export const cases: ReadonlyArray<Case> = [
  {
    providerId: "tavily",
    make: Tavily.make,
    layer: Tavily.layer,
    declared: Tavily.searchOptions,
    carrier: "json",
    answer: body("tavily.json"),
    sent: {
      ...timeRanges(["day", "week", "month", "year"], "time_range"),
      "includeDomains=docs.example.com": { include_domains: ["docs.example.com"] },
      "includeDomains=a.example+b.example": { include_domains: ["a.example", "b.example"] },
      "excludeDomains=spam.example": { exclude_domains: ["spam.example"] },
      "excludeDomains=x.example+y.example": { exclude_domains: ["x.example", "y.example"] },
      "includeDomains=a.example,excludeDomains=x.example": {
        include_domains: ["a.example"],
        exclude_domains: ["x.example"]
      },
      // `general` is what Tavily is always asked for without the option.
      "topic=general": {},
      "topic=news": { topic: "news" }
    }
  },
  {
    providerId: "exa",
    make: Exa.make,
    layer: Exa.layer,
    declared: Exa.searchOptions,
    carrier: "json",
    answer: body("exa.json"),
    sent: {
      ...timeRanges(
        [
          "2026-03-14T12:00:00.000Z",
          "2026-03-08T12:00:00.000Z",
          "2026-02-15T12:00:00.000Z",
          "2025-03-15T12:00:00.000Z"
        ],
        "startPublishedDate"
      ),
      "includeDomains=docs.example.com": { includeDomains: ["docs.example.com"] },
      "includeDomains=a.example+b.example": { includeDomains: ["a.example", "b.example"] },
      "excludeDomains=spam.example": { excludeDomains: ["spam.example"] },
      "excludeDomains=x.example+y.example": { excludeDomains: ["x.example", "y.example"] },
      "includeDomains=a.example,excludeDomains=x.example": {
        includeDomains: ["a.example"],
        excludeDomains: ["x.example"]
      },
      "language=zh,country=TW": { userLocation: "TW" },
      "language=pt,country=BR": { userLocation: "BR" },
      "country=DE": { userLocation: "DE" },
      "topic=general": {},
      "topic=news": { category: "news" }
    }
  },
  {
    providerId: "exa-mcp",
    make: ExaMcp.make,
    layer: ExaMcp.layer,
    declared: ExaMcp.searchOptions,
    carrier: "json",
    volatile: ["id"],
    answer: (request, res) =>
      Server.json({
        jsonrpc: "2.0",
        id: request.body?.id,
        result: { content: [{ type: "text", text: "No search results found. Please try a different query." }] }
      })(request, res),
    sent: {}
  },
  {
    providerId: "brave",
    make: Brave.make,
    layer: Brave.layer,
    declared: Brave.searchOptions,
    carrier: "query",
    answer: body("brave.json"),
    sent: {
      ...timeRanges(["pd", "pw", "pm", "py"], "freshness"),
      "language=de": { search_lang: "de" },
      "language=ja": { search_lang: "jp" },
      "language=he": { search_lang: "he" },
      "language=zh,country=TW": { search_lang: "zh-hant", country: "TW" },
      "language=pt,country=BR": { search_lang: "pt-br", country: "BR" },
      "country=DE": { country: "DE" },
      "safeSearch=off": { safesearch: "off" },
      "safeSearch=moderate": { safesearch: "moderate" },
      "safeSearch=strict": { safesearch: "strict" }
    }
  },
  {
    providerId: "searxng",
    make: SearXng.make,
    layer: SearXng.layer,
    declared: SearXng.searchOptions,
    carrier: "query",
    answer: body("searxng.json"),
    sent: {
      ...timeRanges(["day", "week", "month", "year"], "time_range"),
      "language=de": { language: "de" },
      "language=ja": { language: "ja" },
      "language=he": { language: "he" },
      "language=zh,country=TW": { language: "zh" },
      "language=pt,country=BR": { language: "pt" },
      "safeSearch=off": { safesearch: "0" },
      "safeSearch=moderate": { safesearch: "1" },
      "safeSearch=strict": { safesearch: "2" },
      "topic=general": { categories: "general" },
      "topic=news": { categories: "news" }
    }
  },
  {
    providerId: "serper",
    make: Serper.make,
    layer: Serper.layer,
    declared: Serper.searchOptions,
    carrier: "json",
    answer: body("serper.json"),
    sent: { ...tbs, ...google("gl", true) }
  },
  {
    providerId: "serpapi",
    make: SerpApi.make,
    layer: SerpApi.layer,
    declared: SerpApi.searchOptions,
    carrier: "query",
    answer: body("serpapi.json"),
    sent: { ...tbs, ...google("gl", true) }
  },
  {
    providerId: "firecrawl",
    make: Firecrawl.make,
    layer: Firecrawl.layer,
    declared: Firecrawl.searchOptions,
    carrier: "json",
    answer: body("firecrawl_search.json"),
    sent: {
      ...tbs,
      "language=de": { lang: "de" },
      "language=ja": { lang: "ja" },
      "language=he": { lang: "he" },
      "language=zh,country=TW": { lang: "zh", country: "tw" },
      "language=pt,country=BR": { lang: "pt", country: "br" },
      "country=DE": { country: "de" }
    }
  },
  {
    providerId: "google",
    make: GoogleSearch.make,
    layer: GoogleSearch.layer,
    declared: GoogleSearch.searchOptions,
    carrier: "query",
    answer: body("google_cse.json"),
    options: { engineId: "cx-0123" },
    sent: {
      ...timeRanges(["d1", "w1", "m1", "y1"], "dateRestrict"),
      "includeDomains=docs.example.com": { siteSearch: "docs.example.com", siteSearchFilter: "i" },
      "includeDomains=a.example+b.example": { q: "kw (site:a.example OR site:b.example)" },
      "excludeDomains=spam.example": { siteSearch: "spam.example", siteSearchFilter: "e" },
      "excludeDomains=x.example+y.example": { q: "kw -site:x.example -site:y.example" },
      // siteSearch takes one domain: with two, both go into the query as operators.
      "includeDomains=a.example,excludeDomains=x.example": { q: "kw (site:a.example) -site:x.example" },
      "language=de": { lr: "lang_de" },
      "language=ja": { lr: "lang_ja" },
      "language=he": { lr: "lang_iw" },
      "language=zh,country=TW": { lr: "lang_zh-TW", gl: "tw" },
      "language=pt,country=BR": { lr: "lang_pt", gl: "br" },
      "country=DE": { gl: "de" }
    }
  },
  {
    providerId: "bing",
    make: Bing.make,
    layer: Bing.layer,
    declared: Bing.searchOptions,
    carrier: "query",
    answer: body("bing.json"),
    sent: {
      ...timeRanges(["Day", "Week", "Month", "2025-03-15..2026-03-15"], "freshness"),
      "language=zh,country=TW": { cc: "TW" },
      "language=pt,country=BR": { cc: "BR" },
      "country=DE": { cc: "DE" },
      "safeSearch=off": { safeSearch: "Off" },
      "safeSearch=moderate": { safeSearch: "Moderate" },
      "safeSearch=strict": { safeSearch: "Strict" }
    }
  },
  {
    providerId: "perplexity",
    make: Perplexity.make,
    layer: Perplexity.layer,
    declared: Perplexity.searchOptions,
    carrier: "json",
    answer: body("perplexity_search.json"),
    sent: {
      ...timeRanges(["day", "week", "month", "year"], "search_recency_filter"),
      "includeDomains=docs.example.com": { search_domain_filter: ["docs.example.com"] },
      "includeDomains=a.example+b.example": { search_domain_filter: ["a.example", "b.example"] },
      // The denylist form cannot join an allowlist: the excluded domain is left to the results' filter.
      "includeDomains=a.example,excludeDomains=x.example": { search_domain_filter: ["a.example"] },
      "language=de": { search_language_filter: ["de"] },
      "language=ja": { search_language_filter: ["ja"] },
      "language=he": { search_language_filter: ["he"] },
      "language=zh,country=TW": { search_language_filter: ["zh"], country: "TW" },
      "language=pt,country=BR": { search_language_filter: ["pt"], country: "BR" },
      "country=DE": { country: "DE" }
    }
  },
  {
    providerId: "zhipu",
    make: Zhipu.make,
    layer: Zhipu.layer,
    declared: Zhipu.searchOptions,
    carrier: "json",
    answer: body("zhipu.json"),
    sent: timeRanges(["oneDay", "oneWeek", "oneMonth", "oneYear"], "search_recency_filter")
  },
  {
    providerId: "bocha",
    make: Bocha.make,
    layer: Bocha.layer,
    declared: Bocha.searchOptions,
    carrier: "json",
    answer: body("bocha.json"),
    sent: {
      ...timeRanges(["oneDay", "oneWeek", "oneMonth", "oneYear"], "freshness"),
      "includeDomains=docs.example.com": { include: "docs.example.com" },
      "includeDomains=a.example+b.example": { include: "a.example|b.example" },
      "excludeDomains=spam.example": { exclude: "spam.example" },
      "excludeDomains=x.example+y.example": { exclude: "x.example|y.example" },
      "includeDomains=a.example,excludeDomains=x.example": { include: "a.example", exclude: "x.example" }
    }
  },
  {
    providerId: "duckduckgo",
    make: DuckDuckGo.make,
    layer: DuckDuckGo.layer,
    declared: DuckDuckGo.searchOptions,
    carrier: "form",
    answer: Server.html(200, Server.fixture<string>("duckduckgo.html")),
    sent: {
      ...timeRanges(["d", "w", "m", "y"], "df"),
      "safeSearch=off": { kp: "-2" },
      "safeSearch=moderate": { kp: "-1" },
      "safeSearch=strict": { kp: "1" }
    }
  },
  {
    providerId: "jina",
    make: Jina.make,
    layer: Jina.layer,
    declared: Jina.searchOptions,
    carrier: "json",
    answer: body("jina_search.json"),
    sent: {
      "includeDomains=docs.example.com": { site: ["docs.example.com"] },
      "includeDomains=a.example+b.example": { site: ["a.example", "b.example"] },
      "includeDomains=a.example,excludeDomains=x.example": { site: ["a.example"] },
      "language=de": { hl: "de" },
      "language=ja": { hl: "ja" },
      "language=he": { hl: "he" },
      "language=zh,country=TW": { hl: "zh", gl: "tw" },
      "language=pt,country=BR": { hl: "pt", gl: "br" },
      "country=DE": { gl: "de" }
    }
  },
  {
    providerId: "baidu",
    make: Baidu.make,
    layer: Baidu.layer,
    declared: Baidu.searchOptions,
    carrier: "json",
    answer: body("baidu_qianfan.json"),
    sent: {
      "includeDomains=docs.example.com": { search_filter: { match: { site: ["docs.example.com"] } } },
      "includeDomains=a.example+b.example": { search_filter: { match: { site: ["a.example", "b.example"] } } },
      "includeDomains=a.example,excludeDomains=x.example": { search_filter: { match: { site: ["a.example"] } } }
    }
  },
  {
    providerId: "querit",
    make: Querit.make,
    layer: Querit.layer,
    declared: Querit.searchOptions,
    carrier: "json",
    answer: body("querit.json"),
    sent: {
      "includeDomains=docs.example.com": { filters: { sites: { include: ["docs.example.com"] } } },
      "includeDomains=a.example+b.example": { filters: { sites: { include: ["a.example", "b.example"] } } },
      "excludeDomains=spam.example": { filters: { sites: { exclude: ["spam.example"] } } },
      "excludeDomains=x.example+y.example": { filters: { sites: { exclude: ["x.example", "y.example"] } } },
      "includeDomains=a.example,excludeDomains=x.example": {
        filters: { sites: { include: ["a.example"], exclude: ["x.example"] } }
      }
    }
  },
  {
    providerId: "kagi",
    make: Kagi.make,
    layer: Kagi.layer,
    declared: Kagi.searchOptions,
    carrier: "query",
    answer: body("kagi.json"),
    sent: {}
  },
  {
    providerId: "keenable",
    make: Keenable.make,
    layer: Keenable.layer,
    declared: Keenable.searchOptions,
    carrier: "json",
    answer: body("keenable.json"),
    sent: {}
  },
  {
    providerId: "ollama",
    make: Ollama.make,
    layer: Ollama.layer,
    declared: Ollama.searchOptions,
    carrier: "json",
    answer: body("ollama_web_search.json"),
    sent: {}
  }
]
