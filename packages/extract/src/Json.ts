/**
 * JSON bodies, pretty-printed in a fenced block so a model reads the structure. A body that does not parse is
 * kept as text rather than lost: servers label all kinds of things JSON.
 *
 * @since 0.1.0
 */
import { fence } from "./internal/fence.js"

/**
 * Pretty-prints JSON text with two-space indentation; `undefined` when it is not JSON (or too deep to print).
 *
 * @since 0.1.0
 * @category encoding
 */
export const pretty = (text: string): string | undefined => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return undefined
  }
}

/**
 * JSON text as markdown: pretty-printed in a fenced `json` block, or `undefined` when it is not JSON.
 *
 * @since 0.1.0
 * @category encoding
 */
export const toMarkdown = (text: string): string | undefined => {
  const printed = pretty(text)
  return printed === undefined ? undefined : fence(printed, "json")
}
