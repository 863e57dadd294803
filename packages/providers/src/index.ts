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
