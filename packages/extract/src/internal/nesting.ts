/**
 * How much work Readability would do on a document's tables and lists, measured on the parsed tree before it runs.
 *
 * Readability's table and list passes are cubic in nesting: `_getRowAndColumnCount` reads every row of a table's
 * whole subtree and every cell of each row's subtree, and `_cleanConditionally` reads the text, links and list
 * items of each table and list's subtree. 500 nested one-cell tables (16 KB) took 24 s, 500 nested lists 11 s,
 * while 500 nested divs took 0.1 s. Counting on the text was fooled by end tags the parser ignores (inside a
 * `<textarea>`, say), so this walks the tree the parser built, which is the tree Readability gets: linear, with an
 * explicit stack (a hostile page is deeper than the call stack).
 */

// The elements whose subtree Readability re-reads once per instance, by their tag name (`tagName`, upper case).
const containers = new Set(["TABLE", "UL", "OL", "DL"])
// The same by `localName`, which the HTML parser gives in lower case: `tagName` builds an upper-case copy on every
// read, one string per element of the page. A name in another case (from `createElement`) is upper-cased as before.
const lowerContainers = new Set(["table", "ul", "ol", "dl"])

const isContainer = (element: Element): boolean => {
  const name = element.localName
  if (lowerContainers.has(name)) return true
  return (name.length === 2 || name.length === 5) && containers.has(name.toUpperCase())
}

/**
 * Σ k² over the elements under `root`, where k counts the table and list elements among an element's ancestors
 * and itself: a page with ordinary nesting (k of 0–3) costs a few times its element count; n nested tables cost
 * about n³. Stops counting once `limit` is passed.
 */
export const cost = (root: Element, limit: number): number => {
  let total = 0
  // Each entry: an element whose children are still to visit, and the k of those children's parent.
  const stack: Array<{ element: Element; k: number }> = []
  let element: Element | null = root
  let k = isContainer(root) ? 1 : 0
  while (element !== null) {
    total += k * k
    if (total > limit) return total
    const child: Element | null = element.firstElementChild
    if (child !== null) {
      stack.push({ element, k })
      element = child
      k += isContainer(child) ? 1 : 0
      continue
    }
    // No children: the next sibling, or the next sibling of the nearest ancestor that has one.
    let next: Element | null = element === root ? null : element.nextElementSibling
    while (next === null && stack.length > 0) {
      const parent = stack.pop()!
      k = parent.k
      next = parent.element === root ? null : parent.element.nextElementSibling
    }
    if (next === null) break
    const parentK = stack.length > 0 ? stack[stack.length - 1].k : 0
    element = next
    k = parentK + (isContainer(next) ? 1 : 0)
  }
  return total
}
