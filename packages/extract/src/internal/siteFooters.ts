/**
 * A site's footer drawn without a `<footer>` element (the section pass drops that one): a block whose class or id
 * names a footer (`navFooter`, `site-footer__links`), while it holds a small share of the page and is mostly links,
 * many of them (the shop's "About us", "Careers", "Help" columns). A card's own footer (its author and date, its
 * price and a button) holds a link or two, and stays. One walk top-down, an element's class words read once and
 * a removed block not looked into: linear in the page.
 */
import { tokens } from "./boilerplate.js"
import type * as SectionPass from "./sectionPass.js"

/** A footer holds less than this share of the page's text ... */
export const maxShare = 0.25
/** ... at least this many links ... */
export const minLinks = 4
/** ... and at least this share of its text in them. */
export const minLinkShare = 0.5

const footerWords = new Set(["footer", "footers"])

/** Removes, under `root`, the link-laden blocks that name a footer; `page` from the survey. */
export const remove = (root: Element, page: SectionPass.Page): void => {
  const removals: Array<Element> = []
  const stack: Array<Element> = []
  for (let c = root.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  while (stack.length > 0) {
    const element = stack.pop()!
    const text = page.text(element)
    if (text === 0) continue
    if (
      text < page.total * maxShare &&
      page.links(element) >= minLinks &&
      page.linkText(element) >= text * minLinkShare &&
      tokens(element).some((t) => footerWords.has(t))
    ) {
      removals.push(element)
      continue
    }
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  for (const element of removals) element.parentNode?.removeChild(element)
}
