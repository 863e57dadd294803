/**
 * Documentation pages, read by the article path (which keeps their code blocks with their language, tables and
 * headings, and drops side navigation, "on this page" lists, version pickers, "edit this page" rows and prev/next
 * footers), prepared first for what it would lose: the other panels of tabbed examples (the same command for npm and
 * pnpm, the same call in five languages), hidden until their tab is picked and so dropped as hidden text.
 */
import * as Boilerplate from "./boilerplate.js"
import type * as TypedPage from "./typedPage.js"

/** A tab's panel (ARIA `role="tabpanel"`, or the class words of one). */
const isTabPanel = (element: Element): boolean =>
  element.getAttribute("role") === "tabpanel" ||
  Boilerplate.tokens(element).some((w) => w === "tabpanel" || w === "tabpane")

/** Shows every tab panel of the page (one walk), so that each tab's content is read. */
export const prepare: TypedPage.Preparer = (doc) => {
  if (doc.body === null) return
  const stack: Array<Element> = [doc.body]
  while (stack.length > 0) {
    const element = stack.pop()!
    if (isTabPanel(element) && Boilerplate.isHidden(element)) {
      for (const attr of ["hidden", "aria-hidden", "style"]) element.removeAttribute(attr)
      // A hiding class goes with the rest of the class: the panel's words say nothing more worth keeping.
      if (Boilerplate.isHidden(element)) element.removeAttribute("class")
    }
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
}
