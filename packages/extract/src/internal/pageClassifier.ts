/**
 * Page-type detection: which kind of page (`PageType`) the signals of `pageSignals.ts` point to. Structured data
 * that names the kind decides first; otherwise the URL's words and the page's own shape (posts with authors, prices
 * beside cart buttons, code beside a docs sidebar) vote. An article is the default: its reading is the safest for a
 * page the detector is unsure of.
 */
import type * as PageType from "../PageType.js"
import type * as PageSignals from "./pageSignals.js"

const forumTypes = new Set(["DiscussionForumPosting", "QAPage", "Question", "Answer"])
const productTypes = new Set(["Product", "ProductGroup", "IndividualProduct", "og:product", "og:product.item"])
const collectionTypes = new Set(["CollectionPage", "OfferCatalog"])
const listingTypes = new Set(["SearchResultsPage"])
const docsTypes = new Set(["TechArticle", "APIReference"])

const urlForum = ["forum", "forums", "thread", "threads", "topic", "viewtopic", "showthread", "questions", "discussion"]
const urlDocs = ["docs", "doc", "documentation", "reference", "api", "manual", "guide", "guides"]
const urlProduct = ["product", "products", "dp", "item"]
const urlCollection = ["category", "categories", "collections", "collection", "shop"]
const urlListing = ["search", "tag", "tags", "archive", "jobs", "listings", "results"]

const any = (set: ReadonlySet<string>, list: ReadonlyArray<string>): boolean => list.some((w) => set.has(w))

/** The page type the signals point to. */
export const classify = (s: PageSignals.Signals): PageType.PageType => {
  const has = (set: ReadonlySet<string>) => [...s.types].some((t) => set.has(t))
  if (has(forumTypes)) return "forum"
  if (has(docsTypes)) return "documentation"
  if (has(productTypes) && s.labels["commerce"] > 0) return "product"
  if (has(listingTypes)) return "listing"
  if (has(collectionTypes)) return "collection"
  const postShaped = s.words["post"] + s.words["comment"] >= 6 && s.words["author"] >= 3
  if (any(s.urlWords, urlForum) && postShaped) return "forum"
  if (any(s.urlWords, urlDocs) && s.tags["pre"] + s.tags["code"] >= 3) return "documentation"
  if (any(s.urlWords, urlProduct) && s.prices > 0 && s.labels["commerce"] > 0) return "product"
  if (any(s.urlWords, urlCollection) && s.prices >= 6) return "collection"
  if (any(s.urlWords, urlListing) && s.repeat >= 8) return "listing"
  return "article"
}
