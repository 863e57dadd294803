/**
 * Readability's "element without content" test, stopping at the first text. Readability asks it of every `div`,
 * `section`, `header` and heading it walks, and its own test builds the element's whole text (`textContent`) to
 * see whether any of it is more than whitespace: a wrapper holding the page built a copy of the page's text for the
 * collector, where the first word found answers. Here the same answer, the subtree's texts read until one has more
 * than whitespace.
 */

const ELEMENT = 1
const TEXT = 3
const CDATA = 4

/** Whether any text or CDATA node under `element` has more than whitespace (as `textContent.trim()` would say). */
const hasText = (element: Element): boolean => {
  const stack: Array<Node> = []
  for (let c = element.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  while (stack.length > 0) {
    const node = stack.pop()!
    const type = node.nodeType
    if (type === TEXT || type === CDATA) {
      if ((node as CharacterData).data.trim() !== "") return true
      continue
    }
    if (type !== ELEMENT) continue
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return false
}

/** Whether `node` is an element without content, as Readability's `_isElementWithoutContent` decides it. */
export const isElementWithoutContent = (node: Node): boolean => {
  if (node.nodeType !== ELEMENT) return false
  const element = node as Element
  if (hasText(element)) return false
  const children = element.children.length
  return (
    children === 0 || children === element.getElementsByTagName("br").length + element.getElementsByTagName("hr").length
  )
}

/**
 * Gives one Readability instance the test above in place of its own (`_isElementWithoutContent`, a method of its
 * prototype); an instance without that method is left as it is.
 */
export const install = (reader: object): void => {
  const own = reader as { _isElementWithoutContent?: unknown }
  if (typeof own._isElementWithoutContent !== "function") return
  own._isElementWithoutContent = isElementWithoutContent
}
