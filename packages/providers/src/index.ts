/**
 * @websearch/providers: one module per remote web search, fetch and research provider; needs only an HttpClient.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as OpenAi from "./OpenAi.js"
/** @since 0.1.0 */
export * as OpenAiPrices from "./OpenAiPrices.js"
/** @since 0.1.0 */
export * as Tavily from "./Tavily.js"
/** @since 0.1.0 */
export * as Exa from "./Exa.js"
/** @since 0.1.0 */
export * as ExaMcp from "./ExaMcp.js"
/** @since 0.1.0 */
export * as Perplexity from "./Perplexity.js"
/** @since 0.1.0 */
export * as Brave from "./Brave.js"
/** @since 0.1.0 */
export * as Serper from "./Serper.js"
/** @since 0.1.0 */
export * as GoogleSearch from "./GoogleSearch.js"
/** @since 0.1.0 */
export * as Bing from "./Bing.js"
/** @since 0.1.0 */
export * as Kagi from "./Kagi.js"
/** @since 0.1.0 */
export * as SerpApi from "./SerpApi.js"
/** @since 0.1.0 */
export * as Jina from "./Jina.js"
/** @since 0.1.0 */
export * as Firecrawl from "./Firecrawl.js"
/** @since 0.1.0 */
export * as Ollama from "./Ollama.js"
/** @since 0.1.0 */
export * as DuckDuckGo from "./DuckDuckGo.js"
/** @since 0.1.0 */
export * as Keenable from "./Keenable.js"
/** @since 0.1.0 */
export * as SearXng from "./SearXng.js"
/** @since 0.1.0 */
export * as Zhipu from "./Zhipu.js"
/** @since 0.1.0 */
export * as Bocha from "./Bocha.js"
/** @since 0.1.0 */
export * as Querit from "./Querit.js"
/** @since 0.1.0 */
export * as Baidu from "./Baidu.js"
/** @since 0.1.0 */
export * as Providers from "./Providers.js"
/** @since 0.2.0 */
export * as ProviderHttp from "./ProviderHttp.js"
