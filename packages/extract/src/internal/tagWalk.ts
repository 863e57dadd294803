/**
 * Readability's element lookup by tag names, without a CSS selector. Readability asks for "every `p`", "every `h1`
 * or `h2`" dozens of times per page through `querySelectorAll(tags.join(","))`, and linkedom compiles the selector
 * anew on every call (css-select), which cost more than the walk itself. Here: one iterative walk in document order,
 * tag names compared case-insensitively as the selector does (Readability creates its `P` and `DIV` elements in upper
 * case, and linkedom keeps that case, so its `getElementsByTagName("p")` would miss them). Same result, linear in the
 * subtree, no recursion.
 */

const ELEMENT = 1
const DOCUMENT = 9

/** The elements under `root` (not `root` itself) whose tag is one of `tagNames` (lower case), in document order. */
export const withTags = (root: Node, tagNames: ReadonlyArray<string>): ArrayLike<Element> => {
  if (root.nodeType !== ELEMENT && root.nodeType !== DOCUMENT) return []
  const parent = root as Element | Document
  const wanted = new Set(tagNames.map((name) => name.toLowerCase()))
  const out: Array<Element> = []
  let node: Element | null = parent.firstElementChild
  while (node !== null) {
    const name = node.localName
    if (wanted.has(name) || wanted.has(name.toLowerCase())) out.push(node)
    // A template's content is not part of the page (linkedom's selector walk skips it too).
    const child: Element | null = node.localName === "template" ? null : node.firstElementChild
    if (child !== null) {
      node = child
      continue
    }
    // Up to the nearest ancestor (below `root`) with a next sibling.
    while (node !== null) {
      const next: Element | null = node.nextElementSibling
      if (next !== null) {
        node = next
        break
      }
      const up: Node | null = node.parentNode
      node = up === null || up === root ? null : (up as Element)
    }
  }
  return out
}

/**
 * Gives one Readability instance the lookup above in place of its own (`_getAllNodesWithTag`, a method of its
 * prototype in every release since 0.4); an instance without that method is left as it is.
 */
export const install = (reader: object): void => {
  const own = reader as { _getAllNodesWithTag?: unknown }
  if (typeof own._getAllNodesWithTag !== "function") return
  own._getAllNodesWithTag = (node: Node, tagNames: ReadonlyArray<string>) => withTags(node, tagNames)
}
