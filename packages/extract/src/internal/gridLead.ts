/**
 * Whether a page's item grid (see `itemGrid.ts`) leads its text rather than accompanying an article: a section
 * front, a search's results or a ranked list is many linked entries and no long run of prose, while a news story
 * with a related-stories strip has its story, paragraphs of prose in one block. Page-type detection asks this of a
 * page it scores as a collection or a listing by too little to be sure (see `pageClassifier.ts`). A shop's category
 * page often shows few cards in the markup (the rest come with a script) beside its filters, banners and a buying
 * guide: scored as a collection, it is one unless one block of prose holds half its text, as an article's does.
 */
import * as ItemGrid from "./itemGrid.js"
import * as SectionPass from "./sectionPass.js"

/** A grid that leads has at least this many items ... */
export const minItems = 8
/** ... at least this share of the page's text ... */
export const minShare = 0.35
/** ... and this many times the text of the page's largest block of prose. */
export const minProseRatio = 7

/** A collection's page has no block of prose holding this share of its text. */
export const maxCollectionProseShare = 0.5

/** A paragraph of prose has at least this many characters ... */
export const minParagraphChars = 80
/** ... and at most this share of them in links. */
export const maxParagraphLinkShare = 0.3

/**
 * The text of the page's largest block of prose: the paragraphs (`<p>`) of prose that are children of one element,
 * summed. One pass over the page's paragraphs.
 */
export const proseBlock = (page: SectionPass.Page): number => {
  const sums = new Map<Element, number>()
  let best = 0
  for (const p of Array.from(page.root.getElementsByTagName("p"))) {
    const chars = page.text(p)
    const parent = p.parentElement
    if (parent === null || chars < minParagraphChars || page.linkText(p) > chars * maxParagraphLinkShare) continue
    const sum = (sums.get(parent) ?? 0) + chars
    sums.set(parent, sum)
    if (sum > best) best = sum
  }
  return best
}

/** Whether the page's item grid leads its text, for a page scored as `type` (see the module's comment). */
export const leads = (doc: Document, type: "collection" | "listing"): boolean => {
  const page = SectionPass.survey(doc)
  if (page === undefined) return false
  const prose = proseBlock(page)
  if (type === "collection" && page.total > 0 && prose < page.total * maxCollectionProseShare) return true
  const grid = ItemGrid.find(page.root, page)
  return (
    grid !== undefined &&
    grid.items.length >= minItems &&
    grid.text >= page.total * minShare &&
    grid.text >= prose * minProseRatio
  )
}
