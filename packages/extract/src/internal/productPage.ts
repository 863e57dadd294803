/**
 * The reader of product pages: the product's name, price and availability, description, feature bullets and
 * specification tables, wherever the page puts them (several blocks, closed tabs and accordions), in order as the
 * section pass keeps them; less what is not the product's own, measured on the development pages: reviews (their
 * widgets and their text, the seller's as well as the product's), rails of other products (runs of priced cards, see
 * `productRails.ts`, and sections a heading names: "customers also bought", "recently viewed", "sponsored"), dialogs
 * (see `productOverlays.ts`), variant swatches, cart and quantity forms, breadcrumb trails, promotion banners and
 * blocks of links. Where the visible page is thin (a JavaScript shell) the product's structured data (JSON-LD or
 * microdata, see `productData.ts`) is read instead, and its description is added where the visible page lacks it.
 */
import * as Markdown from "../Markdown.js"
import * as ArticleShape from "./articleShape.js"
import * as ProductData from "./productData.js"
import * as ProductOverlays from "./productOverlays.js"
import * as ProductRails from "./productRails.js"
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

// Headings of sections that are not the product's own (a count in them, "Reviews (128)", is left out first): reviews,
// of the product or of its seller, and rails of other products, named in many ways of a few shapes ("People who
// viewed this item also viewed", "Explore related items", "Sponsored products related to this item", "Best
// sellers"). A bare "Recommended" heads a game's recommended requirements, and is not one.
const sectionNames = new RegExp(
  [
    /^(?:(?:customer |product |guest )?reviews?|ratings?(?: (?:&|and) reviews?)?|reviews? (?:&|and) ratings?)\s*:?$/,
    /^(?:customer (?:reviews?|ratings?)|reviews? for\b.*|(?:detailed )?seller (?:feedback|ratings?)\b.*)$/,
    /^(?:related|similar)(?: (?:products|items|searches|stories|articles|accessories))?(?: to explore)?\s*:?$/,
    /^(?:explore|shop|see|view|discover|browse)(?: more)? (?:related|similar) \w+/,
    /\balso\b.{0,40}\b(?:viewed|bought|purchased|like|love|liked|enjoy|need|considered|shopped)\b/,
    /\bwho (?:viewed|bought|purchased)\b.{0,60}\b(?:viewed|bought|purchased)\b/,
    /\bsponsored\b/,
    /^(?:more (?:from|by)\b|more like this\b|recently viewed\b|keep exploring\b|frequently bought together\b)/,
    /^(?:(?:our )?best ?sellers|(?:featured|top|popular|trending) (?:products|items|picks))\s*:?$/,
    /^(?:(?:complete|shop|get) the look|(?:pairs|goes) well with|recommended (?:for you|products|items|accessories))/
  ]
    .map((r) => r.source)
    .join("|"),
  "i"
)

const words = (s: string): Array<string> => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** The visible page is thin below this many characters of text: the structured product is read instead. */
export const minVisibleChars = 200
/** The description is missing from the visible page when less than this share of its words are there. */
export const minDescriptionShare = 0.5

/** Reads a product page. */
export const read: TypedPage.Reader = (doc, context) => {
  const surveyed = SectionPass.survey(doc)
  if (surveyed === undefined) return undefined
  const product = ProductData.fromJsonLd(context.structured) ?? ProductData.fromMicrodata(surveyed.root)
  // An article (misdetected) without a product's data is the article path's.
  if (product === undefined && ArticleShape.articleLike(doc, context.structured, surveyed)) return undefined
  // Decided: the page is read, and surveyed afresh when its overlays went.
  const page = doc.body !== null && ProductOverlays.strip(doc.body) ? (SectionPass.survey(doc) ?? surveyed) : surveyed
  for (const rail of ProductRails.find(page.root, page)) rail.parentNode?.removeChild(rail)
  // What holds the product's name is never a block of links, however many links the rest of it holds.
  const named = titled(page.root)
  const keep = (element: Element) => named.has(element)
  SectionPass.prune(page.root, page.stats, { chromeWords, partWords, sectionNames, linkBlocks: true, keep })
  Tail.trim(page.root)
  if (product !== undefined) complete(doc, page.root, product)
  return Markdown.fromNode(page.root, { baseUrl: context.baseUrl })
}

/** The elements under `root` that hold its first `<h1>`. */
const titled = (root: Element): Set<Element> => {
  const out = new Set<Element>()
  for (
    let e = root.getElementsByTagName("h1")[0]?.parentElement ?? null;
    e !== null && e !== root;
    e = e.parentElement
  ) {
    out.add(e)
  }
  return out
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
