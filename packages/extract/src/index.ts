/**
 * @websearch/extract: turns HTML, PDF, JSON, XML and text into model-readable markdown; pure JavaScript, no Node APIs.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Charset from "./Charset.js"

/** @since 0.1.0 */
export * as ContentKind from "./ContentKind.js"

/** @since 0.1.0 */
export * as Extract from "./Extract.js"

/** @since 0.1.0 */
export * as Feed from "./Feed.js"

/** @since 0.1.0 */
export * as Json from "./Json.js"

/** @since 0.1.0 */
export * as MainContent from "./MainContent.js"

/** @since 0.1.0 */
export * as Markdown from "./Markdown.js"

/** @since 0.1.0 */
export * as Metadata from "./Metadata.js"

/** @since 0.1.0 */
export * as Pdf from "./Pdf.js"

/** @since 0.1.0 */
export * as PlainText from "./PlainText.js"
