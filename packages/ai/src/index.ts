/**
 * @websearch/ai: agent surfaces for websearch: an @effect/ai toolkit, an MCP server and prompt augmentation.
 *
 * @since 0.1.0
 */
export {}
