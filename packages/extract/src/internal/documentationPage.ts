/**
 * Documentation pages, read by the article path (which keeps their code blocks with their language, tables and
 * headings, and drops side navigation, "on this page" lists, version pickers, "edit this page" rows and prev/next
 * footers), prepared first for what it would lose: the other panels of tabbed examples (the same command for npm and
 * pnpm, the same call in five languages), hidden until their tab is picked and so dropped as hidden text; and a
 * chapter's table of contents written as a definition list of links, which it would drop as a block of links
 * (`linkTerms.ts`); and it drops the rows of links to the same page in other versions or languages
 * (`otherVersions.ts`).
 */
import * as Boilerplate from "./boilerplate.js"
import * as LinkTerms from "./linkTerms.js"
import * as OtherVersions from "./otherVersions.js"
import type * as TypedPage from "./typedPage.js"

/** A tab's panel (ARIA `role="tabpanel"`, or the class words of one). */
const isTabPanel = (element: Element): boolean =>
  element.getAttribute("role") === "tabpanel" ||
  Boilerplate.tokens(element).some((w) => w === "tabpanel" || w === "tabpane")

/**
 * Shows every tab panel of the page, so that each tab's content is read, and lists its definition lists of links as
 * the lists they are (one walk).
 */
export const prepare: TypedPage.Preparer = (doc, context) => {
  if (doc.body === null) return
  const lists: Array<Element> = []
  const stack: Array<Element> = [doc.body]
  while (stack.length > 0) {
    const element = stack.pop()!
    if (element.localName === "dl") lists.push(element)
    if (isTabPanel(element) && Boilerplate.isHidden(element)) {
      for (const attr of ["hidden", "aria-hidden", "style"]) element.removeAttribute(attr)
      // A hiding class goes with the rest of the class: the panel's words say nothing more worth keeping.
      if (Boilerplate.isHidden(element)) element.removeAttribute("class")
    }
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  if (lists.length > 0) LinkTerms.rewrite(lists)
  OtherVersions.remove(doc.body, context.url, context.baseUrl)
}
