/**
 * Readability's element lookup by tag names, without a CSS selector. Readability asks for "every `p`", "every `h1`
 * or `h2`" dozens of times per page through `querySelectorAll(tags.join(","))`, and linkedom compiles the selector
 * anew on every call (css-select), which cost more than the walk itself. Here: a standard `TreeWalker` over the
 * subtree's elements (linkedom lists them in one tight pass over its node chain, far cheaper than walking with
 * `firstElementChild` / `nextElementSibling`), in document order, tag names compared case-insensitively as the
 * selector does (Readability creates its `P` and `DIV` elements in upper case and linkedom keeps that case, so
 * `getElementsByTagName("p")` would miss them). Same elements in the same order, linear in the subtree.
 */

const ELEMENT = 1
const DOCUMENT = 9
const SHOW_ELEMENT = 1

/** The elements under `root` (not `root` itself) whose tag is one of `tagNames`, in document order. */
export const withTags = (root: Node, tagNames: ReadonlyArray<string>): Array<Element> => {
  const doc = root.nodeType === DOCUMENT ? (root as Document) : root.ownerDocument
  if (doc === null || (root.nodeType !== ELEMENT && root.nodeType !== DOCUMENT)) return []
  const out: Array<Element> = []
  const walker = doc.createTreeWalker(root, SHOW_ELEMENT)
  // One name (most of Readability's lookups): its two cases compared, no set to build and hash into.
  if (tagNames.length === 1) {
    const lower = tagNames[0].toLowerCase()
    const upper = tagNames[0].toUpperCase()
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const name = (node as Element).localName
      if (name === lower || name === upper) out.push(node as Element)
    }
    return out
  }
  // Both cases up front, so a miss (the common case) costs one lookup: the HTML parser lowers every tag name, and
  // Readability names what it creates in upper case; no element of a page has a name in mixed case.
  const wanted = new Set<string>()
  for (const name of tagNames) {
    wanted.add(name.toLowerCase())
    wanted.add(name.toUpperCase())
  }
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const name = (node as Element).localName
    if (wanted.has(name)) out.push(node as Element)
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
