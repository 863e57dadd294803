/**
 * The links of an HTML page, for a map or a crawl: its anchors (absolute http(s), in document order, without
 * fragments, deduplicated, each with its text), its canonical link and the feeds it announces
 * (`<link rel="alternate" type="application/rss+xml">`, Atom likewise). One linear pass (`markupTokens`); a
 * `<base href>` applies to every link, as in a browser. Bounded: at most `max` links (more is `truncated`).
 */
import * as MarkupTokens from "./markupTokens.js"

/** One link of a page, with its anchor text when it has one. */
export interface PageLink {
  readonly url: string
  readonly title?: string | undefined
}

/** What a page links to. */
export interface PageLinks {
  readonly links: ReadonlyArray<PageLink>
  readonly canonical?: string | undefined
  readonly feeds: ReadonlyArray<string>
  /** More distinct links than the bound: the rest are left out. */
  readonly truncated: boolean
}

/** The most links read from one page. */
export const maxLinks = 5_000

/** The most feeds read from one page's announcements. */
export const maxFeeds = 10

/** The longest anchor text kept, in characters. */
const maxTitle = 200

const feedTypes = new Set(["application/rss+xml", "application/atom+xml"])

// Never links to a page: script, mail and telephone links, data, and fragments of the page itself.
const skipped = (raw: string): boolean => {
  const lower = raw.slice(0, 12).toLowerCase()
  return (
    raw === "" ||
    raw.startsWith("#") ||
    lower.startsWith("javascript:") ||
    lower.startsWith("mailto:") ||
    lower.startsWith("tel:") ||
    lower.startsWith("data:")
  )
}

const relTokens = (rel: string | undefined): ReadonlyArray<string> =>
  rel === undefined ? [] : rel.toLowerCase().split(/[\t\n\f\r ]+/)

/** Resolves a link against a base: absolute http(s) without fragment, or undefined. */
export const absolute = (raw: string, base: string | undefined): string | undefined => {
  try {
    const url = new URL(raw.trim(), base)
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
    url.hash = ""
    return url.href
  } catch {
    return undefined
  }
}

/** Reads the links of `html`, the page at `pageUrl`. */
export const parse = (module: MarkupTokens.Module, html: string, pageUrl: string, max = maxLinks): PageLinks => {
  // Raw hrefs first (a <base> may come after the first link), resolved once the page is read.
  const raw = new Map<string, string | undefined>()
  const feeds: Array<string> = []
  let canonical: string | undefined
  let base: string | undefined
  let truncated = false
  let anchor: string | undefined
  let text = ""
  // An anchor's text becomes its link's title when the link has none yet.
  const settle = () => {
    if (anchor !== undefined && raw.get(anchor) === undefined) {
      const title = MarkupTokens.squash(text, maxTitle)
      if (title !== "") raw.set(anchor, title)
    }
    anchor = undefined
    text = ""
  }
  MarkupTokens.walk(module, html, false, (walk) => ({
    wants: (name) => name === "a" || name === "area" || name === "link" || name === "base",
    open: (name, attributes) => {
      const href = attributes.get("href")
      if (name === "base") {
        if (base === undefined && href !== undefined) base = absolute(href, pageUrl)
        return
      }
      if (name === "link") {
        const rel = relTokens(attributes.get("rel"))
        if (href === undefined) return
        if (canonical === undefined && rel.includes("canonical")) canonical = href
        const type = attributes.get("type")?.trim().toLowerCase()
        if (rel.includes("alternate") && type !== undefined && feedTypes.has(type) && feeds.length < maxFeeds) {
          feeds.push(href)
        }
        return
      }
      if (name === "a" || name === "area") {
        if (anchor !== undefined) settle()
        if (href === undefined || skipped(href.trim())) return
        if (!raw.has(href)) {
          if (raw.size >= max) {
            truncated = true
            walk.stop()
            return
          }
          raw.set(href, undefined)
        }
        if (name === "a") {
          anchor = href
          text = ""
        }
      }
    },
    close: (name) => {
      if (name === "a" && anchor !== undefined) settle()
    },
    text: (piece) => {
      // Enough of the anchor's text is kept to make its title; the rest is not copied.
      if (anchor !== undefined && text.length < maxTitle * 4) text += piece.slice(0, maxTitle * 4)
    }
  }))
  settle()
  const resolvedBase = base ?? pageUrl
  const links: Array<PageLink> = []
  const index = new Map<string, number>()
  for (const [href, title] of raw) {
    const url = absolute(href, resolvedBase)
    if (url === undefined) continue
    const known = index.get(url)
    if (known === undefined) {
      index.set(url, links.length)
      links.push(title === undefined ? { url } : { url, title })
    } else if (links[known].title === undefined && title !== undefined) links[known] = { url, title }
  }
  const feedUrls: Array<string> = []
  for (const href of feeds) {
    const url = absolute(href, resolvedBase)
    if (url !== undefined && !feedUrls.includes(url)) feedUrls.push(url)
  }
  const canonicalUrl = canonical === undefined ? undefined : absolute(canonical, resolvedBase)
  return { links, feeds: feedUrls, truncated, ...(canonicalUrl === undefined ? {} : { canonical: canonicalUrl }) }
}
