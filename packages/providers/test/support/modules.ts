/**
 * Every provider module of this package, by hand: core names no provider, so the tests that go over all of them
 * (the canary, the presets) list the modules themselves, and a test checks this list against `Providers.ids`.
 */
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
import * as OpenAi from "../../src/OpenAi.js"
import * as Perplexity from "../../src/Perplexity.js"
import * as Querit from "../../src/Querit.js"
import * as SearXng from "../../src/SearXng.js"
import * as SerpApi from "../../src/SerpApi.js"
import * as Serper from "../../src/Serper.js"
import * as Tavily from "../../src/Tavily.js"
import * as Zhipu from "../../src/Zhipu.js"
import type * as Preset from "@websearch/core/Preset"

/** What the tests need of a provider module. */
export interface Module {
  readonly providerId: string
  readonly preset: Preset.Preset
}

/** Every provider module of the package. */
export const all: ReadonlyArray<Module> = [
  Baidu,
  Bing,
  Bocha,
  Brave,
  DuckDuckGo,
  Exa,
  ExaMcp,
  Firecrawl,
  GoogleSearch,
  Jina,
  Kagi,
  Keenable,
  Ollama,
  OpenAi,
  Perplexity,
  Querit,
  SearXng,
  SerpApi,
  Serper,
  Tavily,
  Zhipu
]

/** The presets by provider id. */
export const presets: ReadonlyMap<string, Preset.Preset> = new Map(all.map((m) => [m.providerId, m.preset]))
