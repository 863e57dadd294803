/**
 * A product as its page's structured data states it: JSON-LD (`schema.org/Product` or `ProductGroup`, with its
 * `Offer`s or `AggregateOffer` and its `AggregateRating`) or, failing that, microdata (`itemtype=…/Product` and the
 * `itemprop`s under it). The product reader renders it where the visible page is thin (a JavaScript shell, a
 * description only in the data), and adds its description where the visible page lacks it.
 */
import { attribute } from "./boilerplate.js"
import * as HtmlDocument from "./htmlDocument.js"
import * as StructuredData from "./structuredData.js"

type Json = StructuredData.Json
type JsonObject = StructuredData.JsonObject

/** What the reader uses of a product's data. */
export interface Product {
  readonly name: string | undefined
  readonly brand: string | undefined
  /** The description as the data gives it: text, or HTML. */
  readonly description: string | undefined
  readonly sku: string | undefined
  /** "12.99 USD", "10.00–25.00 EUR". */
  readonly price: string | undefined
  /** "In stock", "Out of stock", … (schema.org's `ItemAvailability`, in words). */
  readonly availability: string | undefined
  /** "4.5 out of 5 (106 reviews)". */
  readonly rating: string | undefined
  /** `additionalProperty` name-value pairs (specifications). */
  readonly properties: ReadonlyArray<readonly [string, string]>
}

const productTypes = new Set([
  "Product",
  "ProductGroup",
  "IndividualProduct",
  "ProductModel",
  "SomeProducts",
  "Vehicle"
])

/** At most this many specifications are read from one product. */
export const maxProperties = 200

const clean = (s: string): string | undefined => {
  const out = s.replace(/\s+/g, " ").trim()
  return out === "" ? undefined : out
}

const text = (value: Json | undefined): string | undefined => {
  if (typeof value === "string") return clean(value)
  if (typeof value === "number") return String(value)
  if (Array.isArray(value)) return text((value as ReadonlyArray<Json>)[0])
  if (StructuredData.isObject(value)) return text(value["name"] ?? value["@value"])
  return undefined
}

const objects = (value: Json | undefined): ReadonlyArray<JsonObject> =>
  Array.isArray(value)
    ? (value as ReadonlyArray<Json>).filter(StructuredData.isObject)
    : StructuredData.isObject(value)
      ? [value]
      : []

// A description in HTML (`<p>…</p>`, `<br>`, entities) is read as a page's markup is; plain text as written, its
// paragraphs kept.
const markup = /<\/?[a-z][^<>]{0,200}>|&(?:[a-z]{2,8}|#\d{1,7}|#x[0-9a-f]{1,6});/i

const description = (value: Json | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined

/** The description as elements of `doc`: parsed when it is HTML, paragraphs of text when it is not. */
const descriptionNodes = (doc: Document, raw: string): Array<Node> => {
  if (markup.test(raw)) {
    const parsed = HtmlDocument.parse(`<html><body>${raw}</body></html>`)
    return parsed.body === null ? [] : Array.from(parsed.body.childNodes).map((n) => doc.importNode(n, true))
  }
  return raw
    .split(/\n\s*\n/)
    .map(clean)
    .filter((p): p is string => p !== undefined)
    .map((p) => element(doc, "p", p))
}

const element = (doc: Document, name: string, text: string): Element => {
  const el = doc.createElement(name)
  el.textContent = text
  return el
}

/** The words of a product's description (its text, when it is HTML). */
export const descriptionText = (product: Product): string => {
  const raw = product.description
  if (raw === undefined) return ""
  if (!markup.test(raw)) return raw
  return HtmlDocument.parse(`<html><body>${raw}</body></html>`).body?.textContent ?? ""
}

const availabilityWords = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined
  const last = value.slice(Math.max(value.lastIndexOf("/"), value.lastIndexOf(":")) + 1)
  // "InStock" → "In stock", "OutOfStock" → "Out of stock".
  const words = last.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()
  return clean(words.charAt(0).toUpperCase() + words.slice(1))
}

const amount = (offer: JsonObject): string | undefined => {
  const currency = text(offer["priceCurrency"])
  const low = text(offer["lowPrice"])
  const high = text(offer["highPrice"])
  const price = text(offer["price"]) ?? (low !== undefined && high !== undefined ? `${low}–${high}` : low)
  if (price === undefined) return undefined
  return currency === undefined ? price : `${price} ${currency}`
}

const rating = (value: Json | undefined): string | undefined => {
  const r = objects(value)[0]
  if (r === undefined) return undefined
  const score = text(r["ratingValue"])
  if (score === undefined) return undefined
  const best = text(r["bestRating"]) ?? "5"
  const count = text(r["reviewCount"]) ?? text(r["ratingCount"])
  return `${score} out of ${best}${count === undefined ? "" : ` (${count} reviews)`}`
}

const properties = (value: Json | undefined): Array<readonly [string, string]> => {
  const out: Array<readonly [string, string]> = []
  for (const p of objects(value)) {
    if (out.length >= maxProperties) break
    const name = text(p["name"])
    const v = text(p["value"])
    if (name !== undefined && v !== undefined) out.push([name, v])
  }
  return out
}

/** The product of the page's JSON-LD nodes: the first node of a product type. */
export const fromJsonLd = (nodes: ReadonlyArray<JsonObject>): Product | undefined => {
  const node = nodes.find((n) => StructuredData.typesOf(n).some((t) => productTypes.has(t)))
  if (node === undefined) return undefined
  // A product group's variants carry the offers when the group does not.
  const variants = objects(node["hasVariant"])
  const offers = [...objects(node["offers"]), ...variants.flatMap((v) => objects(v["offers"]))]
  const offer = offers[0]
  return {
    name: text(node["name"]),
    brand: text(node["brand"]) ?? text(node["manufacturer"]),
    description: description(node["description"]),
    sku: text(node["sku"]) ?? text(node["mpn"]),
    price: offer === undefined ? undefined : amount(offer),
    availability: offer === undefined ? undefined : availabilityWords(text(offer["availability"])),
    rating: rating(node["aggregateRating"]),
    properties: properties(node["additionalProperty"])
  }
}

const itemtypeOf = (element: Element): string | undefined => {
  const type = attribute(element, "itemtype")
  if (type === null) return undefined
  const first = type.trim().split(/\s+/)[0] ?? ""
  return first.slice(Math.max(first.lastIndexOf("/"), first.lastIndexOf(":")) + 1)
}

// An itemprop's value as microdata defines it: `content`, then the URL attributes, then the text.
const propValue = (element: Element): string | undefined => {
  const content = attribute(element, "content")
  if (content !== null) return clean(content)
  for (const name of ["href", "src", "datetime", "value"]) {
    const v = attribute(element, name)
    if (v !== null) return clean(v)
  }
  return clean(element.textContent ?? "")
}

/** The elements of a microdata item that hold its own properties, not those of the items nested in it. */
const ownProps = (item: Element): Map<string, Element> => {
  const props = new Map<string, Element>()
  const stack: Array<Element> = []
  for (let c = item.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  while (stack.length > 0) {
    const el = stack.pop()!
    const prop = attribute(el, "itemprop")
    if (prop !== null) for (const p of prop.trim().split(/\s+/)) if (!props.has(p)) props.set(p, el)
    if (el.hasAttribute("itemscope")) continue
    for (let c = el.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  return props
}

/**
 * The product of the page's microdata: the first `itemscope` whose `itemtype` is a product type (found by walking
 * the page once), with its offer and rating items.
 */
export const fromMicrodata = (root: Element): Product | undefined => {
  let item: Element | undefined
  const stack: Array<Element> = [root]
  while (stack.length > 0 && item === undefined) {
    const el = stack.pop()!
    if (el.hasAttribute("itemscope") && productTypes.has(itemtypeOf(el) ?? "")) item = el
    for (let c = el.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  if (item === undefined) return undefined
  const props = ownProps(item)
  const value = (key: string) => {
    const el = props.get(key)
    return el === undefined ? undefined : el.hasAttribute("itemscope") ? nestedName(el) : propValue(el)
  }
  const offerEl = props.get("offers")
  const offer = offerEl === undefined ? undefined : ownProps(offerEl)
  const offerValue = (key: string) => {
    const el = offer?.get(key)
    return el === undefined ? undefined : propValue(el)
  }
  const ratingEl = props.get("aggregateRating")
  const ratingProps = ratingEl === undefined ? undefined : ownProps(ratingEl)
  const ratingJson: JsonObject = {}
  for (const key of ["ratingValue", "bestRating", "reviewCount", "ratingCount"]) {
    const el = ratingProps?.get(key)
    const v = el === undefined ? undefined : propValue(el)
    if (v !== undefined) (ratingJson as Record<string, Json>)[key] = v
  }
  const price = offerValue("price") ?? offerValue("lowPrice")
  const currency = offerValue("priceCurrency")
  const descriptionEl = props.get("description")
  return {
    name: value("name"),
    brand: value("brand") ?? value("manufacturer"),
    description: descriptionEl === undefined ? undefined : propValue(descriptionEl),
    sku: value("sku") ?? value("mpn"),
    price: price === undefined ? undefined : currency === undefined ? price : `${price} ${currency}`,
    availability: availabilityWords(offerValue("availability")),
    rating: rating(ratingJson),
    properties: []
  }
}

const nestedName = (item: Element): string | undefined => {
  const name = ownProps(item).get("name")
  return name === undefined ? propValue(item) : propValue(name)
}

/**
 * The product as elements of `doc`, in a `<div>`: its name as a heading, a line of facts (brand, SKU, price,
 * availability, rating), its description and its specifications as a table; `parts` picks which.
 */
export const toElement = (
  doc: Document,
  product: Product,
  parts: {
    readonly name: boolean
    readonly facts: boolean
    readonly description: boolean
    readonly properties: boolean
  }
): Element => {
  const root = doc.createElement("div")
  if (parts.name && product.name !== undefined) root.appendChild(element(doc, "h1", product.name))
  const facts = [
    product.brand === undefined ? undefined : `Brand: ${product.brand}`,
    product.sku === undefined ? undefined : `SKU: ${product.sku}`,
    product.price === undefined ? undefined : `Price: ${product.price}`,
    product.availability,
    product.rating === undefined ? undefined : `Rating: ${product.rating}`
  ].filter((f): f is string => f !== undefined)
  if (parts.facts && facts.length > 0) root.appendChild(element(doc, "p", facts.join(" · ")))
  if (parts.description && product.description !== undefined) {
    for (const node of descriptionNodes(doc, product.description)) root.appendChild(node)
  }
  if (parts.properties && product.properties.length > 0) {
    const table = doc.createElement("table")
    const head = doc.createElement("tr")
    head.appendChild(element(doc, "th", "Property"))
    head.appendChild(element(doc, "th", "Value"))
    table.appendChild(head)
    for (const [name, value] of product.properties) {
      const row = doc.createElement("tr")
      row.appendChild(element(doc, "td", name))
      row.appendChild(element(doc, "td", value))
      table.appendChild(row)
    }
    root.appendChild(table)
  }
  return root
}
