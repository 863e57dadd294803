/**
 * @websearch/server: an HttpApi for websearch that any Effect HTTP server can mount, with bearer-token auth.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Authorization from "./Authorization.js"
/** @since 0.1.0 */
export * as ErrorStatus from "./ErrorStatus.js"
/** @since 0.1.0 */
export * as ServerConfig from "./ServerConfig.js"
/** @since 0.1.0 */
export * as WebSearchApi from "./WebSearchApi.js"
/** @since 0.1.0 */
export * as WebSearchHandlers from "./WebSearchHandlers.js"
/** @since 0.1.0 */
export * as WebSearchServer from "./WebSearchServer.js"
