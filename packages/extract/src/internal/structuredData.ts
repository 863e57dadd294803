/**
 * A page's JSON-LD (`<script type="application/ld+json">`): the object nodes of every block — top level, arrays and
 * `@graph` — in document order, with their `@type`s. Metadata reads the article node from it; page-type detection
 * and the product reading read the rest. Bounded: a hostile page may put any JSON there.
 */

/** A JSON value. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | JsonObject

/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: Json
}

/** At most this many values are visited per page (arrays and `@graph` entries count). */
export const maxNodes = 500

/** Whether a JSON value is an object (not an array, not null). */
export const isObject = (u: Json | undefined): u is JsonObject =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** The `@type`s of a node (`"Product"`, `["Product", "Thing"]`), without a `schema:` or URL prefix. */
export const typesOf = (node: JsonObject): Array<string> => {
  const type = node["@type"]
  const all = typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((t) => typeof t === "string") : []
  return (all as Array<string>).map((t) => {
    const slash = t.lastIndexOf("/")
    const colon = t.lastIndexOf(":")
    return t.slice(Math.max(slash, colon) + 1)
  })
}

/** The JSON-LD script elements among a page's elements. */
export const isJsonLdScript = (el: Element): boolean =>
  el.localName === "script" && (el.getAttribute("type") ?? "").trim().toLowerCase() === "application/ld+json"

const parse = (text: string): Json | undefined => {
  try {
    return JSON.parse(text.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, "")) as Json
  } catch {
    return undefined
  }
}

/**
 * The object nodes of the given JSON-LD scripts, breadth-first per script (top level, then arrays and `@graph`),
 * at most {@link maxNodes} values visited across all of them.
 */
export const nodes = (scripts: ReadonlyArray<Element>): ReadonlyArray<JsonObject> => {
  const out: Array<JsonObject> = []
  let budget = maxNodes
  for (const script of scripts) {
    const parsed = parse(script.textContent ?? "")
    if (parsed === undefined) continue
    // An index into a growing array, not shift(): each step stays constant-time.
    const queue: Array<Json> = [parsed]
    for (let i = 0; i < queue.length && budget > 0; i++, budget--) {
      const node = queue[i]
      const children: ReadonlyArray<Json> = Array.isArray(node)
        ? (node as ReadonlyArray<Json>)
        : isObject(node) && Array.isArray(node["@graph"])
          ? (node["@graph"] as ReadonlyArray<Json>)
          : []
      // Never more children than the budget can visit: a block may hold a million entries.
      for (let j = 0; j < children.length && queue.length - i <= budget; j++) queue.push(children[j])
      if (isObject(node)) out.push(node)
    }
    if (budget <= 0) break
  }
  return out
}
