/**
 * The reader of collection and listing pages.
 */
import * as Markdown from "../Markdown.js"
import * as ArticleShape from "./articleShape.js"
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

/** A page that reads as an article is left to the article path unless its item grid holds this share of its text. */
export const minGridShare = 0.3

export const read: TypedPage.Reader = (doc, context) => {
  const page = SectionPass.survey(doc)
  if (page === undefined) return undefined
  const grid = ItemGrid.find(page.root, page)
  // An article (misdetected) without a grid that holds much of its text is the article path's.
  if (
    (grid === undefined || grid.text < page.total * minGridShare) &&
    ArticleShape.articleLike(doc, context.structured, page)
  )
    return undefined
  SectionPass.prune(page.root, page.stats, { chromeWords, partWords })
  return Markdown.fromNode(page.root, { baseUrl: context.baseUrl })
}
