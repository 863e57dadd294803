/**
 * JSON bodies, pretty-printed in a fenced block so a model reads the structure. A body that does not parse is
 * kept as text rather than lost: servers label all kinds of things JSON.
 *
 * @internal Used by the extractor only, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */
import { fence } from "./fence.js"

/**
 * How much indentation pretty-printing may add, as a multiple of the text's own length. Each level of nesting
 * indents every line below it, so a body of many small values deep down (500 brackets, then 30 000 numbers)
 * would print as 1 000 spaces a value: 32 MB and half a second of work for 64 KiB. Past this bound the value is
 * printed compact, and the output stays linear in the body.
 */
const maxAddedPerChar = 4

/**
 * Whether two-space pretty-printing adds at most `budget` characters to the compact form: a walk of the parsed
 * value (with a stack of its own, so any depth is safe) that stops as soon as the bound is crossed, so it never
 * visits more values than the budget.
 */
const indentsWithin = (value: unknown, budget: number): boolean => {
  let added = 0
  const stack: Array<{ readonly value: unknown; readonly depth: number }> = [{ value, depth: 0 }]
  while (stack.length > 0) {
    const { depth, value: next } = stack.pop()!
    if (next === null || typeof next !== "object") continue
    const children: ReadonlyArray<unknown> = Array.isArray(next) ? next : Object.values(next)
    if (children.length === 0) continue
    // A line break and the indentation before each child and before the closing bracket; a space after each key.
    added += children.length * (2 * depth + 3 + (Array.isArray(next) ? 0 : 1)) + 2 * depth + 1
    if (added > budget) return false
    for (const child of children) stack.push({ value: child, depth: depth + 1 })
  }
  return true
}

/**
 * Pretty-prints JSON text with two-space indentation (compact when the indentation would outgrow the text many
 * times over); `undefined` when it is not JSON (or too deep to print).
 *
 * @since 0.1.0
 * @category encoding
 */
export const pretty = (text: string): string | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return JSON.stringify(value, null, indentsWithin(value, maxAddedPerChar * text.length) ? 2 : undefined)
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
