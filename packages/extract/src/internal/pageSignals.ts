/**
 * What a page shows about its kind, read in one walk over the parsed page before anything prunes it: structured
 * data types (JSON-LD, microdata `itemtype`, OpenGraph `og:type`), how many of each telling element it holds
 * (`<article>`, forms, tables, code, `<time>`), the class/id words of its elements, its short labels ("Reply", "Add
 * to cart", "Edit this page"), prices, link density, its largest run of same-shaped siblings, and its URL's words.
 * Page-type detection (`pageClassifier.ts`) weighs them; nothing here names a site. Linear in the page's size.
 */
import * as Boilerplate from "./boilerplate.js"
import * as PostStructure from "./postStructure.js"
import * as Revealed from "./revealed.js"
import * as StructuredData from "./structuredData.js"

const ELEMENT = 1
const TEXT = 3

/** Counts of elements, labels and words, and the page's structured data; see {@link read}. */
export interface Signals {
  /** Hidden elements near the top of the page (see `revealed.ts`), streamed boundaries and their placeholders. */
  readonly hidden: ReadonlyArray<Element>
  readonly streamed: ReadonlyArray<Element>
  readonly placeholders: ReadonlyMap<string, Element>
  /** Elements of the body. */
  readonly elements: number
  /** Characters of visible text in the body, and of it inside links. */
  readonly text: number
  readonly linkText: number
  /** Characters of text inside `<noscript>` in the body (what a page shows without JavaScript). */
  readonly noscriptText: number
  /** Elements by name (only the names in {@link countedTags}). */
  readonly tags: Readonly<Record<string, number>>
  /** Elements whose class/id has a word of each group of {@link classWords}. */
  readonly words: Readonly<Record<string, number>>
  /** Short texts (labels, buttons) of each group of {@link labels}. */
  readonly labels: Readonly<Record<string, number>>
  /** Short texts that read as a price ("$12.99", "12,50 €"). */
  readonly prices: number
  /** Short texts that read as a relative or calendar date ("3 days ago", "Jan 5, 2024"). */
  readonly dates: number
  /** The most same-shaped siblings under one parent (same tag and class words) ... */
  readonly repeat: number
  /** ... and the characters of text they hold together. */
  readonly repeatText: number
  /** Structured data types seen (JSON-LD `@type`, microdata `itemtype`, `og:type` as `og:<value>`). */
  readonly types: ReadonlySet<string>
  /** The page's JSON-LD object nodes (bounded; see `structuredData.ts`). */
  readonly structured: ReadonlyArray<StructuredData.JsonObject>
  /** Lower-case words of the URL's path (and of its query's keys). */
  readonly urlWords: ReadonlySet<string>
  /** Path segments of the URL. */
  readonly urlDepth: number
  /** Lower-case words of the page's `<title>`. */
  readonly titleWords: ReadonlySet<string>
}

/** Elements counted by name. */
export const countedTags = [
  "article",
  "section",
  "form",
  "input",
  "button",
  "select",
  "table",
  "pre",
  "code",
  "li",
  "h1",
  "h2",
  "h3",
  "time",
  "img",
  "nav",
  "aside",
  "blockquote",
  "dl",
  "p"
] as const

/** Class/id words, in groups that each count elements carrying one of them. */
export const classWords: Readonly<Record<string, ReadonlyArray<string>>> = {
  post: ["post", "posts", "message", "messages", "reply", "replies", "thread", "topic"],
  comment: ["comment", "comments", "answer", "answers", "question"],
  author: ["author", "user", "username", "avatar", "member", "userinfo", "poster", "signature"],
  vote: ["vote", "votes", "voting", "upvote", "score", "karma", "reaction", "reactions", "likes"],
  price: ["price", "prices", "pricing", "sale", "currency", "amount"],
  cart: ["cart", "basket", "checkout", "buy", "purchase", "wishlist", "qty", "quantity", "stock", "sku", "variant"],
  product: ["product", "products", "pdp", "gallery", "swatch", "rating", "review", "reviews", "specs"],
  grid: ["grid", "card", "cards", "tile", "tiles", "item", "items", "listing", "listings", "result", "results"],
  facet: ["filter", "filters", "facet", "facets", "sort", "sorting", "pagination", "pager", "paging", "refine"],
  docs: ["doc", "docs", "documentation", "toc", "api", "reference", "admonition", "highlight", "markdown", "md"],
  docsNav: ["sidebar", "menu", "tree", "version", "edit", "breadcrumb", "breadcrumbs", "prev", "next", "pagenav"],
  service: ["hero", "feature", "features", "testimonial", "testimonials", "cta", "plan", "plans", "faq", "benefits"],
  article: ["article", "entry", "story", "byline", "headline", "blog", "news", "dateline", "lede", "lead"]
}

/** Short labels, lower-case, in groups: a text node that is one of them counts for its group. */
export const labels: Readonly<Record<string, ReadonlyArray<string>>> = {
  forum: [
    "reply",
    "quote",
    "report",
    "like",
    "likes",
    "permalink",
    "joined",
    "messages",
    "posts",
    "reaction score",
    "share",
    "flag",
    "multi-quote",
    "reply with quote",
    "upvote",
    "downvote",
    "add a comment",
    "log in to reply",
    "replies",
    "views"
  ],
  commerce: [
    "add to cart",
    "add to basket",
    "add to bag",
    "buy now",
    "in stock",
    "out of stock",
    "sold out",
    "quantity",
    "qty",
    "add to wishlist",
    "free shipping",
    "description",
    "specifications",
    "reviews"
  ],
  docs: [
    "edit this page",
    "on this page",
    "table of contents",
    "contents",
    "previous",
    "next",
    "copy",
    "was this page helpful?",
    "in this article",
    "note",
    "warning",
    "tip",
    "parameters",
    "returns",
    "example",
    "examples"
  ],
  listing: [
    "sort by",
    "filter",
    "filters",
    "load more",
    "show more",
    "next page",
    "previous page",
    "results",
    "view all"
  ],
  service: [
    "get started",
    "contact us",
    "learn more",
    "request a demo",
    "book a demo",
    "get a quote",
    "pricing",
    "sign up"
  ]
}

const wordGroup = new Map<string, string>()
for (const [group, list] of Object.entries(classWords))
  for (const w of list) if (!wordGroup.has(w)) wordGroup.set(w, group)
const labelGroup = new Map<string, string>()
for (const [group, list] of Object.entries(labels))
  for (const l of list) if (!labelGroup.has(l)) labelGroup.set(l, group)
const counted: ReadonlySet<string> = new Set(countedTags)
const skipped = new Set(["script", "style", "noscript", "template", "textarea", "svg", "head"])

// Constant work per position: a currency sign next to a digit, or a currency code next to one.
const priceLike =
  /[$€£¥₹₩₽]\s?\d|\d\s?(?:[€£₹₽]|(?:kr|zł|Kč|lei|USD|EUR|GBP|CHF|SEK|NOK|DKK|PLN)\b)|\b(?:USD|EUR|GBP|CHF)\s?\d/
/** A text at most this long is a label, a price or a date; longer ones are only counted. */
const maxShort = 40

/** A short text as labels are listed: whitespace runs as one space, without the punctuation that ends it. */
const settled = (lower: string): string => lower.replace(/\s+/g, " ").replace(/[:.!…]+$/, "")
// Whether `settled` would change a trimmed text: a whitespace run other than one space, or an ending punctuation
// mark. Most texts are settled already, and testing is cheaper than building the copy to look up again.
const unsettled = /\s\s|[^\S ]|[:.!…]$/

// The class-word part of a signature and the class-word groups, per token list: `Boilerplate.tokens` hands back one
// cached list per class and id, so each is worked out once per distinct class attribute, not once per element.
const signatureParts = new WeakMap<ReadonlyArray<string>, string>()
const groupLists = new WeakMap<ReadonlyArray<string>, ReadonlyArray<string>>()

/** The signature of an element for finding same-shaped siblings: its tag and first class words, digits left out. */
const signature = (element: Element): string => {
  const words = Boilerplate.tokens(element)
  let part = signatureParts.get(words)
  if (part === undefined) {
    part = ""
    let n = 0
    for (const w of words) {
      if (n === 3) break
      if (w.charCodeAt(0) <= 57) continue
      part += "." + w
      n++
    }
    signatureParts.set(words, part)
  }
  return element.localName + part
}

/** The class-word groups (of {@link classWords}) a token list has a word of, each once. */
const groupsOf = (words: ReadonlyArray<string>): ReadonlyArray<string> => {
  let groups = groupLists.get(words)
  if (groups === undefined) {
    const found = new Set<string>()
    for (const w of words) {
      const group = wordGroup.get(w)
      if (group !== undefined) found.add(group)
    }
    groups = [...found]
    groupLists.set(words, groups)
  }
  return groups
}

/** Whether a short text has a digit (every price and nearly every date has one). */
const hasDigit = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57) return true
  }
  return false
}

const urlParts = (url: string | undefined): { readonly words: ReadonlySet<string>; readonly depth: number } => {
  const words = new Set<string>()
  if (url === undefined) return { words, depth: 0 }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { words, depth: 0 }
  }
  const segments = parsed.pathname.split("/").filter((s) => s !== "")
  for (const segment of segments.slice(0, 12)) {
    for (const w of segment
      .slice(0, 200)
      .toLowerCase()
      .split(/[^a-z0-9]+/))
      if (w !== "") words.add(w)
    if (/^\d+$/.test(segment)) words.add("#number")
  }
  for (const key of [...parsed.searchParams.keys()].slice(0, 12)) words.add(`?${key.slice(0, 40).toLowerCase()}`)
  if (/\.html?$/i.test(parsed.pathname)) words.add("#html")
  return { words, depth: segments.length }
}

const microdataType = (itemtype: string): string => {
  const first = itemtype.trim().split(/\s+/)[0] ?? ""
  return first.slice(Math.max(first.lastIndexOf("/"), first.lastIndexOf(":")) + 1)
}

/** Reads the signals of a parsed page (see {@link Signals}); `url` is the page's address. */
export const read = (doc: Document, url: string | undefined): Signals => {
  const tags: Record<string, number> = {}
  for (const t of countedTags) tags[t] = 0
  const words: Record<string, number> = {}
  for (const g of Object.keys(classWords)) words[g] = 0
  const found: Record<string, number> = {}
  for (const g of Object.keys(labels)) found[g] = 0
  const types = new Set<string>()
  const scripts: Array<Element> = []
  const hidden: Array<Element> = []
  const streamed: Array<Element> = []
  const placeholders = new Map<string, Element>()
  let elements = 0
  let text = 0
  let linkText = 0
  let noscriptText = 0
  let prices = 0
  let dates = 0
  // The largest group of same-shaped siblings: its parent and signature, measured once the walk is done.
  let repeat = 0
  let repeatParent: Element | undefined
  let repeatSignature = ""
  const titleWords = new Set<string>()
  for (const meta of Array.from(doc.head?.children ?? [])) {
    if (meta.localName === "title" && titleWords.size === 0) {
      for (const w of (meta.textContent ?? "")
        .slice(0, 300)
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)) {
        if (w !== "") titleWords.add(w)
      }
    }
    if (meta.localName === "meta" && (meta.getAttribute("property") ?? "").toLowerCase() === "og:type") {
      types.add(`og:${(meta.getAttribute("content") ?? "").trim().toLowerCase().slice(0, 40)}`)
    }
    if (StructuredData.isJsonLdScript(meta)) scripts.push(meta)
  }
  const shapes = new Map<string, number>()
  // Each node with its depth below <body> (the body's is 0); a 0 in place of a node closes a link.
  const stack: Array<Node | number> = doc.body === null ? [] : [doc.body]
  const depths: Array<number> = [0]
  let linkDepth = 0
  while (stack.length > 0) {
    const node = stack.pop()!
    const depth = depths.pop()!
    if (typeof node === "number") {
      linkDepth--
      continue
    }
    if (node.nodeType === TEXT) {
      const data = (node as Text).data
      const n = data.length
      if (n === 0) continue
      const trimmed = n <= maxShort * 4 ? data.trim() : undefined
      const size = trimmed?.length ?? n
      text += size
      if (linkDepth > 0) linkText += size
      if (trimmed !== undefined && trimmed.length > 0 && trimmed.length <= maxShort) {
        const lower = trimmed.toLowerCase()
        const group = labelGroup.get(lower) ?? (unsettled.test(lower) ? labelGroup.get(settled(lower)) : undefined)
        if (group !== undefined) found[group]++
        // The expressions run only where they can match: a price has a digit, a date a digit or "yesterday"/"today".
        const digit = hasDigit(trimmed)
        if (digit && priceLike.test(trimmed)) prices++
        if ((digit || lower.includes("day")) && PostStructure.dateLike.test(trimmed)) dates++
      }
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    const element = node as Element
    const name = element.localName
    if (skipped.has(name)) {
      if (name === "template" && Revealed.isPlaceholder(element)) placeholders.set(element.id, element)
      if (name === "script" && StructuredData.isJsonLdScript(element)) scripts.push(element)
      // Its subtree is not walked, so reading its text once is linear. Text that starts as markup is markup a parser kept
      // as text (`&lt;img …&gt;` tracking pixels), not content.
      else if (name === "noscript") {
        const inside = (element.textContent ?? "").trim()
        if (!inside.startsWith("<")) noscriptText += inside.length
      }
      continue
    }
    elements++
    if (counted.has(name)) tags[name]++
    if (name === "div" && Revealed.isStreamed(element)) streamed.push(element)
    else if (depth <= Revealed.maxWrapperDepth && Boilerplate.isHidden(element)) hidden.push(element)
    const itemtype = Boilerplate.attribute(element, "itemtype")
    if (itemtype !== null && types.size < 64) types.add(microdataType(itemtype))
    const own = Boilerplate.tokens(element)
    if (own.length > 0) for (const group of groupsOf(own)) words[group]++
    if (name === "a") {
      linkDepth++
      stack.push(0)
      depths.push(depth)
    }
    let children = 0
    for (let c = element.lastChild; c !== null; c = c.previousSibling) {
      stack.push(c)
      depths.push(depth + 1)
      if (c.nodeType === ELEMENT) children++
    }
    if (children >= 3) {
      shapes.clear()
      for (let c = element.firstElementChild; c !== null; c = c.nextElementSibling) {
        const key = signature(c)
        const count = (shapes.get(key) ?? 0) + 1
        shapes.set(key, count)
        if (count > repeat) {
          repeat = count
          repeatParent = element
          repeatSignature = key
        }
      }
    }
  }
  let repeatText = 0
  if (repeatParent !== undefined) {
    for (let c = repeatParent.firstElementChild; c !== null; c = c.nextElementSibling) {
      if (signature(c) === repeatSignature) repeatText += (c.textContent ?? "").trim().length
    }
  }
  const structured = StructuredData.nodes(scripts)
  for (const node of structured) for (const t of StructuredData.typesOf(node)) if (types.size < 64) types.add(t)
  const { depth, words: urlWords } = urlParts(url)
  return {
    hidden,
    streamed,
    placeholders,
    elements,
    text,
    linkText,
    noscriptText,
    tags,
    words,
    labels: found,
    prices,
    dates,
    repeat,
    repeatText,
    types,
    structured,
    urlWords,
    urlDepth: depth,
    titleWords
  }
}
