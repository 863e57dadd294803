/**
 * @websearch/extract: turns HTML, PDF, JSON, XML and text into model-readable markdown; pure JavaScript, no Node APIs.
 *
 * @since 0.1.0
 */
export {}
