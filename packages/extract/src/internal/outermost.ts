/**
 * The removal walk the collection reader's passes share: top-down under a root, an element with text that a pass
 * matches is removed whole and not looked into, any other is opened. Each element is asked once: linear in the page.
 */
import type * as SectionPass from "./sectionPass.js"

/** Removes, under `root`, the outermost elements with text for which `matches` holds; `page` from the survey. */
export const remove = (
  root: Element,
  page: SectionPass.Page,
  matches: (element: Element, text: number) => boolean
): void => {
  const removals: Array<Element> = []
  const stack: Array<Element> = []
  for (let c = root.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  while (stack.length > 0) {
    const element = stack.pop()!
    const text = page.text(element)
    if (text === 0) continue
    if (matches(element, text)) {
      removals.push(element)
      continue
    }
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  for (const element of removals) element.parentNode?.removeChild(element)
}
