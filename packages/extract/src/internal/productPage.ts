/**
 * The reader of product pages: the product's name, price and availability, description, feature bullets and
 * specification tables, wherever the page puts them (several blocks, closed tabs and accordions), in order as the
 * section pass keeps them; less what is not the product's own, measured on the development pages: reviews (their
 * widgets and their text), "customers also bought" and "recently viewed" rails (by their class words or the heading
 * that names them), variant swatches, cart and quantity forms, breadcrumb trails, promotion banners and blocks of
 * links. Where the visible page is thin (a JavaScript shell) the product's structured data (JSON-LD or microdata,
 * see `productData.ts`) is read instead, and its description is added where the visible page lacks it.
 */
import * as Markdown from "../Markdown.js"
import * as ArticleShape from "./articleShape.js"
import * as ProductData from "./productData.js"
import * as SectionPass from "./sectionPass.js"
import * as Tail from "./tail.js"
import type * as TypedPage from "./typedPage.js"

// Reviews are prose, and not the product's own: dropped whatever they hold.
const chromeWords = new Set([...SectionPass.chromeWords, "reviews", "review"])
const partWords = new Set([
  ...SectionPass.partWords,
  "related",
  "swatch",
  "swatches",
  "upsell",
  "upsells",
  "crosssell",
  "recommendations",
  "recommended",
  "recently",
  "banner",
  "promo"
])

// Headings of sections that are not the product's own (a count in them, "Reviews (128)", is left out first).
const sectionNames =
  /^(?:(?:customer |product |guest )?reviews?|ratings?(?: (?:&|and) reviews?)?|reviews? (?:&|and) ratings?|customer (?:reviews?|ratings?)|reviews? for\b.*|related(?: products| items)?|you (?:may|might) also (?:like|love|need)|customers (?:also|who) (?:bought|viewed|purchased)\b.*|frequently bought together|recently viewed(?: items| products)?|similar (?:items|products)|more from\b.*|complete the look|shop the look|recommended(?: for you| products)?|people also (?:bought|viewed)\b.*|pairs well with|goes well with|others also (?:bought|viewed))\s*:?$/i

const words = (s: string): Array<string> => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** The visible page is thin below this many characters of text: the structured product is read instead. */
export const minVisibleChars = 200
/** The description is missing from the visible page when less than this share of its words are there. */
export const minDescriptionShare = 0.5

/** Reads a product page. */
export const read: TypedPage.Reader = (doc, context) => {
  const page = SectionPass.survey(doc)
  if (page === undefined) return undefined
  const product = ProductData.fromJsonLd(context.structured) ?? ProductData.fromMicrodata(page.root)
  // An article (misdetected) without a product's data is the article path's.
  if (product === undefined && ArticleShape.articleLike(doc, context.structured, page)) return undefined
  SectionPass.prune(page.root, page.stats, { chromeWords, partWords, sectionNames, linkBlocks: true })
  Tail.trim(page.root)
  if (product !== undefined) complete(doc, page.root, product)
  return Markdown.fromNode(page.root, { baseUrl: context.baseUrl })
}

/** Adds what the structured product says and the visible page does not: all of it, or its description. */
const complete = (doc: Document, root: Element, product: ProductData.Product): void => {
  const visible = root.textContent ?? ""
  if (visible.replace(/\s+/g, "").length < minVisibleChars) {
    // The name once: the visible page may show it.
    const named = product.name !== undefined && visible.includes(product.name)
    root.insertBefore(
      ProductData.toElement(doc, product, { name: !named, facts: true, description: true, properties: true }),
      root.firstChild
    )
    return
  }
  const description = words(ProductData.descriptionText(product))
  if (description.length === 0) return
  const present = new Set(words(visible))
  if (description.filter((w) => present.has(w)).length >= description.length * minDescriptionShare) return
  const block = ProductData.toElement(doc, product, { name: false, facts: false, description: true, properties: false })
  const h1 = root.getElementsByTagName("h1")[0]
  if (h1 !== undefined && h1.parentNode !== null) h1.parentNode.insertBefore(block, h1.nextSibling)
  else root.insertBefore(block, root.firstChild)
}
