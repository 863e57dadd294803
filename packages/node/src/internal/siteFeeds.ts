/**
 * Sitemaps and feeds, read for a map: a sitemap (`<urlset>`: each `<url>`'s `<loc>` and `<lastmod>`), a sitemap
 * index (`<sitemapindex>`: the sitemaps it lists), an RSS feed (each `<item>`'s `<link>`, `<title>` and
 * `<pubDate>`) or an Atom feed (each `<entry>`'s alternate `<link href>`, `<title>` and `<updated>`). One linear
 * pass (`markupTokens`, XML mode), namespace prefixes ignored; bounded: at most `max` entries (more is
 * `truncated`), each field at most `maxField` characters.
 */
import * as MarkupTokens from "./markupTokens.js"
import * as PageLinks from "./pageLinks.js"

/** What a document was read as, by its root element. */
export type Kind = "urlset" | "sitemapindex" | "feed" | "unknown"

/** One entry: a page (or, in an index, a sitemap), its date as ISO 8601 and its title where known. */
export interface Entry {
  readonly url: string
  readonly lastmod?: string | undefined
  readonly title?: string | undefined
}

/** A document read. */
export interface Parsed {
  readonly kind: Kind
  readonly entries: ReadonlyArray<Entry>
  /** More entries than the bound: the rest are left out. */
  readonly truncated: boolean
}

/** The longest field (a URL, a date, a title) kept, in characters; a longer one is cut. */
export const maxField = 8_192

const maxTitle = 200

const roots: Record<string, Kind> = {
  urlset: "urlset",
  sitemapindex: "sitemapindex",
  rss: "feed",
  rdf: "feed",
  feed: "feed"
}

const entryNames = new Set(["url", "sitemap", "item", "entry"])

type Field = "url" | "lastmod" | "title" | "guid"

// The element that holds each field, by the entry it is in (a feed's date has a few names).
const fieldOf = (entry: string, name: string): Field | undefined => {
  if (entry === "url" || entry === "sitemap") {
    return name === "loc" ? "url" : name === "lastmod" ? "lastmod" : undefined
  }
  if (name === "title") return "title"
  if (name === "pubdate" || name === "updated" || name === "published" || name === "date") return "lastmod"
  if (entry === "item" && name === "link") return "url"
  if (entry === "item" && name === "guid") return "guid"
  return undefined
}

/** A date as ISO 8601 when it is one (sitemaps' W3C dates, feeds' RFC 822 dates); undefined otherwise. */
export const isoDate = (text: string): string | undefined => {
  if (text.length === 0 || text.length > 64) return undefined
  const time = Date.parse(text)
  if (Number.isNaN(time)) return undefined
  const date = new Date(time)
  const year = date.getUTCFullYear()
  return year < 1990 || year > 9999 ? undefined : date.toISOString()
}

/** Reads a sitemap, sitemap index or feed at `url`; relative links resolve against it. */
export const parse = (module: MarkupTokens.Module, xml: string, url: string, max: number): Parsed => {
  let kind: Kind | undefined
  const entries: Array<Entry> = []
  let truncated = false
  // The entry being read (no element stack: an entry's fields are read until the entry closes).
  let entry: string | undefined
  let fields: Partial<Record<Field, string>> = {}
  let field: Field | undefined
  let fieldName = ""
  let text = ""
  MarkupTokens.walk(module, xml, true, (walk) => ({
    wants: (name) => name === "link",
    open: (name, attributes) => {
      if (kind === undefined) {
        kind = roots[name] ?? "unknown"
        if (kind === "unknown") walk.stop()
        return
      }
      if (entryNames.has(name)) {
        entry = name
        fields = {}
        field = undefined
        return
      }
      if (entry === undefined) return
      // Atom's link is an attribute: the alternate one (or the first without a rel).
      if (entry === "entry" && name === "link") {
        const rel = attributes.get("rel")?.trim().toLowerCase()
        const href = attributes.get("href")
        if (fields.url === undefined && href !== undefined && (rel === undefined || rel === "alternate")) {
          fields.url = href.slice(0, maxField)
        }
        return
      }
      const found = fieldOf(entry, name)
      if (found !== undefined && fields[found] === undefined) {
        field = found
        fieldName = name
        text = ""
      }
    },
    close: (name) => {
      if (field !== undefined && name === fieldName) {
        // An empty element (a feed's `<atom:link/>` in an item) leaves the field to the next one.
        if (text.trim() !== "") fields[field] = text
        field = undefined
        return
      }
      if (entry === undefined || name !== entry) return
      entry = undefined
      const target = fields.url?.trim() || fields.guid?.trim()
      const resolved = target === undefined ? undefined : PageLinks.absolute(target, url)
      if (resolved === undefined) return
      if (entries.length >= max) {
        truncated = true
        walk.stop()
        return
      }
      const lastmod = fields.lastmod === undefined ? undefined : isoDate(fields.lastmod.trim())
      const title = fields.title === undefined ? "" : MarkupTokens.squash(fields.title, maxTitle)
      entries.push({
        url: resolved,
        ...(lastmod === undefined ? {} : { lastmod }),
        ...(title === "" ? {} : { title })
      })
    },
    text: (piece) => {
      if (field !== undefined && text.length < maxField) text += piece.slice(0, maxField - text.length)
    }
  }))
  return { kind: kind ?? "unknown", entries, truncated }
}
