/**
 * @websearch/cli: the `websearch` command as a library, for embedding or testing.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Cli from "./Cli.js"
/** @since 0.1.0 */
export * as Main from "./Main.js"
/** @since 0.1.0 */
export * as Render from "./Render.js"
