/**
 * @websearch/ai: agent surfaces for websearch: an @effect/ai toolkit, an MCP server and prompt augmentation.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Augmentation from "./Augmentation.js"
/** @since 0.1.0 */
export * as PageAnalysis from "./PageAnalysis.js"
/** @since 0.1.0 */
export * as ResultIds from "./ResultIds.js"
/** @since 0.1.0 */
export * as ToolOutput from "./ToolOutput.js"
/** @since 0.1.0 */
export * as TurnCitations from "./TurnCitations.js"
/** @since 0.1.0 */
export * as WebSearchMcp from "./WebSearchMcp.js"
/** @since 0.1.0 */
export * as WebSearchToolkit from "./WebSearchToolkit.js"
