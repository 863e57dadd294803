/**
 * The reader of collection pages (a category's grid of products, courses, recipes) and listing pages (search
 * results, archives, directories, job boards): the page's blocks in order as the section pass keeps them (an
 * introduction, the items with their titles, prices, dates and snippets, a description below), less the filter and
 * facet panels, sort controls, pagination and the other chrome of such pages. The page's item grid (see
 * `itemGrid.ts`) is kept whole, whatever its class words say ("product-list filter-results"), and decides whether
 * the page is read at all: a page that reads as an article without a grid holding much of its text is left to the
 * article path (a misdetected article with a comment thread or a related-stories strip).
 */
import * as Markdown from "../Markdown.js"
import * as ArticleShape from "./articleShape.js"
import * as CardControls from "./cardControls.js"
import * as CardRepeats from "./cardRepeats.js"
import * as CardSpacing from "./cardSpacing.js"
import * as ItemGrid from "./itemGrid.js"
import * as PromoBars from "./promoBars.js"
import * as SectionPass from "./sectionPass.js"
import * as SiteFrame from "./siteFrame.js"
import type * as TypedPage from "./typedPage.js"

const chromeWords = new Set(SectionPass.chromeWords)
// Measured on the development pages: blocks with these words hold little of what the references keep, unless they
// read as text (a category's FAQ in a "facet-row").
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
  "refinements",
  "recently"
])

// Rails of other items after the page's own: what the visitor saw before, or what the shop pushes.
const sectionNames =
  /^(?:recently viewed(?: items| products)?|(?:your )?browsing history|you (?:may|might) also (?:like|love)|recommended for you|customers (?:also|who) (?:bought|viewed)\b.*)\s*:?$/i

// On a shop's page, the blog's latest posts are a rail of another kind of page (on a listing they may be its items).
const collectionSectionNames = new RegExp(
  `${sectionNames.source}|^(?:(?:recent|latest) (?:blog )?(?:posts|articles|stories)|(?:latest )?(?:news )?from (?:the|our) blog|our blog)\\s*:?$`,
  "i"
)

/** A page that reads as an article is left to the article path unless its item grid holds this share of its text. */
export const minGridShare = 0.3

/** Reads a collection or listing page; `undefined` for a page that reads as an article without an item grid. */
export const read: TypedPage.Reader = (doc, context) => {
  const page = SectionPass.survey(doc)
  if (page === undefined) return undefined
  const { cards, grid } = ItemGrid.scan(page.root, page, CardRepeats.maxCardChars)
  if (
    (grid === undefined || grid.text < page.total * minGridShare) &&
    ArticleShape.articleLike(doc, context.structured, page)
  )
    return undefined
  // The grid, the elements around it and its items are never dropped for their words or repetition.
  const kept = new Set<Element>(grid?.items ?? [])
  for (let el: Element | null = grid?.parent ?? null; el !== null && el !== page.root; el = el.parentElement) {
    kept.add(el)
  }
  CardControls.remove(page.root, page)
  if (grid !== undefined) CardRepeats.remove(grid.items, page)
  CardSpacing.space(cards)
  PromoBars.remove(page.root, page)
  SiteFrame.remove(page.root, page)
  SectionPass.prune(page.root, page.stats, {
    chromeWords,
    partWords,
    sectionNames: context.pageType === "collection" ? collectionSectionNames : sectionNames,
    keep: (element) => kept.has(element)
  })
  return Markdown.fromNode(page.root, { baseUrl: context.baseUrl })
}
