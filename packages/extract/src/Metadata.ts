/**
 * Page metadata (title, byline, published time, site name, language, excerpt) from the places publishers put
 * it, in order of trust: JSON-LD (`Article` and friends), OpenGraph / `article:*` / Twitter / Dublin Core meta
 * tags, then plain `<title>`, `<meta name=description>`, `<html lang>`.
 *
 * @since 0.1.0
 */
import * as StructuredData from "./internal/structuredData.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Metadata {
  readonly title: string | undefined
  readonly byline: string | undefined
  readonly publishedTime: string | undefined
  readonly siteName: string | undefined
  readonly lang: string | undefined
  readonly excerpt: string | undefined
}

type Json = StructuredData.Json
type JsonObject = StructuredData.JsonObject
const { isObject, typesOf } = StructuredData

const articleTypes =
  /^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|TechArticle|SocialMediaPosting|LiveBlogPosting|OpinionNewsArticle|AnalysisNewsArticle|ReportageNewsArticle|ReviewNewsArticle|BackgroundNewsArticle|Review|Recipe|HowTo|WebPage|AboutPage|FAQPage|QAPage|ItemPage)$/

const clean = (s: string | null | undefined): string | undefined => {
  if (s === null || s === undefined) return undefined
  const out = s.replace(/\s+/g, " ").trim()
  return out === "" ? undefined : out
}

/** The most article-like JSON-LD node: an Article-family type beats a WebPage, which beats nothing. */
const jsonLdArticle = (scripts: ReadonlyArray<Element>): JsonObject | undefined => {
  let page: JsonObject | undefined
  for (const node of StructuredData.nodes(scripts)) {
    const types = typesOf(node)
    if (types.some((t) => articleTypes.test(t) && !/Page$/.test(t))) return node
    if (page === undefined && types.some((t) => /Page$/.test(t))) page = node
  }
  return page
}

const names = (value: Json | undefined): string | undefined => {
  if (typeof value === "string") return clean(value)
  if (Array.isArray(value)) {
    const all = (value as ReadonlyArray<Json>).map((v) => names(v)).filter((v): v is string => v !== undefined)
    return all.length === 0 ? undefined : all.join(", ")
  }
  if (isObject(value)) return names(value["name"])
  return undefined
}

const stringOf = (value: Json | undefined): string | undefined => (typeof value === "string" ? clean(value) : undefined)

const metaTags = (metas: ReadonlyArray<Element>): Map<string, string> => {
  const map = new Map<string, string>()
  for (const meta of metas) {
    const content = clean(meta.getAttribute("content"))
    if (content === undefined) continue
    const keys = [meta.getAttribute("property"), meta.getAttribute("name"), meta.getAttribute("itemprop")]
    for (const key of keys) {
      if (key === null) continue
      // `property` may hold several space-separated names (RDFa).
      for (const k of key.toLowerCase().split(/\s+/)) if (k !== "" && !map.has(k)) map.set(k, content)
    }
    const equiv = meta.getAttribute("http-equiv")
    if (equiv !== null && !map.has(`http-equiv:${equiv.toLowerCase()}`))
      map.set(`http-equiv:${equiv.toLowerCase()}`, content)
  }
  return map
}

const first = (map: Map<string, string>, keys: ReadonlyArray<string>): string | undefined => {
  for (const key of keys) {
    const value = map.get(key)
    if (value !== undefined) return value
  }
  return undefined
}

const notUrl = (s: string | undefined): string | undefined =>
  s !== undefined && /^https?:\/\//i.test(s) ? undefined : s

// Every element in document order, iteratively (getElementsByTagName("*") is not supported by every DOM).
function* elements(doc: Document): Generator<Element> {
  const stack: Array<Element> = []
  if (doc.documentElement !== null) stack.push(doc.documentElement)
  while (stack.length > 0) {
    const el = stack.pop()!
    yield el
    const children: Array<Element> = []
    for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) children.push(child)
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
  }
}

/**
 * Reads the metadata of a parsed HTML document. Call it before anything that mutates the document (Readability
 * removes scripts, and with them JSON-LD).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromDocument = (doc: Document): Metadata => {
  // One pass over the elements: every selector query would walk the whole tree again.
  const metas: Array<Element> = []
  const scripts: Array<Element> = []
  let titleEl: Element | undefined
  let h1: Element | undefined
  let authorEl: Element | undefined
  let timeEl: Element | undefined
  for (const el of elements(doc)) {
    switch (el.localName) {
      case "meta":
        metas.push(el)
        break
      case "script":
        if (StructuredData.isJsonLdScript(el)) scripts.push(el)
        break
      case "title":
        titleEl ??= el
        break
      case "h1":
        h1 ??= el
        break
      case "time":
        if (timeEl === undefined && el.hasAttribute("datetime")) timeEl = el
        break
    }
    if (authorEl === undefined && (el.getAttribute("rel") === "author" || el.getAttribute("itemprop") === "author")) {
      authorEl = el
    }
  }
  const ld = jsonLdArticle(scripts)
  const meta = metaTags(metas)
  const title =
    stringOf(ld?.["headline"]) ??
    first(meta, ["og:title", "twitter:title", "dc.title", "dcterm:title", "title"]) ??
    clean(titleEl?.textContent) ??
    clean(h1?.textContent)
  const byline =
    names(ld?.["author"]) ??
    notUrl(first(meta, ["author", "article:author", "dc.creator", "dcterm:creator", "parsely-author", "byl"])) ??
    clean(authorEl?.textContent)
  const publishedTime =
    stringOf(ld?.["datePublished"]) ??
    first(meta, [
      "article:published_time",
      "og:published_time",
      "datepublished",
      "date",
      "pubdate",
      "publishdate",
      "dc.date",
      "dcterm:created",
      "parsely-pub-date"
    ]) ??
    clean(timeEl?.getAttribute("datetime"))
  const siteName =
    first(meta, ["og:site_name", "application-name"]) ?? names(isObject(ld) ? ld["publisher"] : undefined)
  const lang =
    clean(doc.documentElement?.getAttribute("lang")) ??
    clean(doc.documentElement?.getAttribute("xml:lang")) ??
    first(meta, ["http-equiv:content-language", "dc.language", "language"])
  const excerpt =
    first(meta, ["og:description", "description", "twitter:description", "dc.description"]) ??
    stringOf(ld?.["description"])
  return { title, byline, publishedTime, siteName, lang, excerpt }
}
