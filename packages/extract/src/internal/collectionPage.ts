/**
 * The reader of collection and listing pages.
 */
import * as Markdown from "../Markdown.js"
import * as ItemGrid from "./itemGrid.js"
import * as SectionPass from "./sectionPass.js"
import type * as TypedPage from "./typedPage.js"

const chromeWords = new Set(SectionPass.chromeWords)
const partWords = new Set([
  ...SectionPass.partWords,
  "menu",
  "filter",
  "filters",
  "facet",
  "facets",
  "sort",
  "sorting",
  "toolbar",
  "pagination",
  "pager",
  "refinement",
  "refinements"
])

/** The grid's items hold at least this share of the page's text, or the page is left to the article path. */
export const minGridShare = 0.1

export const read: TypedPage.Reader = (doc, context) => {
  const page = SectionPass.survey(doc)
  if (page === undefined) return undefined
  const grid = ItemGrid.find(page.root, page)
  if (grid === undefined || grid.text < page.total * minGridShare) return undefined
  SectionPass.prune(page.root, page.stats, { chromeWords, partWords })
  return Markdown.fromNode(page.root, { baseUrl: context.baseUrl })
}
