/**
 * XML bodies. RSS 2.0, RSS 1.0 (RDF) and Atom feeds become their items as text (title, link, date, author,
 * summary rendered from its HTML); any other XML is kept verbatim in a fenced block, which a model reads fine.
 *
 * @internal Used by the extractor only, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */
import { DOMParser } from "linkedom"
import * as Markdown from "../Markdown.js"
import { fence } from "./fence.js"
import * as HtmlDocument from "./htmlDocument.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Feed {
  readonly title: string
  readonly markdown: string
  readonly lang: string | undefined
  readonly excerpt: string | undefined
}

/**
 * Whether XML text is a feed (by its root element, looked for near the start).
 *
 * @since 0.1.0
 * @category guards
 */
export const isFeed = (xml: string): boolean => /<(?:rss|feed|rdf:RDF)[\s>]/.test(xml.slice(0, 4096))

/**
 * Whether XML text is XHTML (its root element is `html`), which is extracted as HTML.
 *
 * @since 0.1.0
 * @category guards
 */
export const isXhtml = (xml: string): boolean => {
  // A scan over the prolog, not `/^(?:\s|<\?xml[^>]*>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*<html[\s>]/i`: on a run of
  // comments that expression tries every way of grouping them into longer ones, exponential in their number.
  const head = xml.slice(0, 4096)
  const lower = head.toLowerCase()
  let i = 0
  while (i < head.length) {
    if (/\s/.test(head[i])) {
      i++
      continue
    }
    const close = lower.startsWith("<!--", i)
      ? lower.indexOf("-->", i + 4) + 3
      : lower.startsWith("<?xml", i) || lower.startsWith("<!doctype", i)
        ? lower.indexOf(">", i) + 1
        : -1
    if (close <= 0) break
    i = close
  }
  return /^<html[\s>]/.test(lower.slice(i, i + 6))
}

const ELEMENT = 1

const childrenNamed = (parent: Element, names: ReadonlyArray<string>): Array<Element> => {
  const out: Array<Element> = []
  for (let child = parent.firstElementChild; child !== null; child = child.nextElementSibling) {
    if (names.includes(child.tagName.toLowerCase())) out.push(child)
  }
  return out
}

const textOf = (parent: Element, names: ReadonlyArray<string>): string | undefined => {
  for (const name of names) {
    const found = childrenNamed(parent, [name])[0]
    const value = found?.textContent?.replace(/\s+/g, " ").trim()
    if (value !== undefined && value !== "") return value
  }
  return undefined
}

const htmlText = (parent: Element, names: ReadonlyArray<string>, baseUrl: string): string | undefined => {
  for (const name of names) {
    const found = childrenNamed(parent, [name])[0]
    if (found === undefined) continue
    // Atom `type="xhtml"` content is markup in the tree; RSS descriptions carry escaped (or CDATA) HTML as text.
    const raw =
      found.getAttribute("type") === "xhtml"
        ? Array.from(found.childNodes)
            .map((n) => (n.nodeType === ELEMENT ? (n as Element).outerHTML : (n.textContent ?? "")))
            .join("")
        : (found.textContent ?? "")
    if (raw.trim() === "") continue
    if (!raw.includes("<")) return raw.replace(/\s+/g, " ").trim()
    const doc = HtmlDocument.parse(raw)
    const markdown = Markdown.fromNode(doc.body, { baseUrl })
    if (markdown !== "") return markdown
  }
  return undefined
}

const atomLink = (entry: Element): string | undefined => {
  const links = childrenNamed(entry, ["link"])
  const alternate = links.find((l) => (l.getAttribute("rel") ?? "alternate") === "alternate") ?? links[0]
  return alternate?.getAttribute("href") ?? undefined
}

const absolute = (href: string | undefined, base: string): string | undefined => {
  if (href === undefined) return undefined
  try {
    return new URL(href.trim(), base).href
  } catch {
    return href.trim()
  }
}

const item = (entry: Element, atom: boolean, baseUrl: string): string => {
  const title = textOf(entry, ["title"]) ?? "(untitled)"
  const link = absolute(atom ? atomLink(entry) : textOf(entry, ["link", "guid"]), baseUrl)
  const date = textOf(entry, atom ? ["published", "updated"] : ["pubdate", "dc:date", "published", "updated"])
  const author = atom
    ? childrenNamed(entry, ["author"])
        .map((a) => textOf(a, ["name"]) ?? "")
        .filter((a) => a !== "")
        .join(", ")
    : (textOf(entry, ["dc:creator", "author"]) ?? "")
  const body = htmlText(
    entry,
    atom ? ["content", "summary"] : ["content:encoded", "description", "content", "summary"],
    link ?? baseUrl
  )
  const lines = [`## ${link === undefined ? title : `[${title.replace(/([[\]])/g, "\\$1")}](${link})`}`]
  const facts = [date, author === "" ? undefined : `by ${author}`].filter((f): f is string => f !== undefined)
  if (facts.length > 0) lines.push(facts.join(" · "))
  if (body !== undefined) lines.push(body)
  return lines.join("\n\n")
}

/**
 * Renders a feed as markdown: the channel's title and description, then one section per item. Returns
 * `undefined` when the text does not parse as a feed.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromXml = (xml: string, baseUrl: string): Feed | undefined => {
  let doc: Document
  try {
    doc = new DOMParser().parseFromString(xml, "text/xml") as unknown as Document
  } catch {
    return undefined
  }
  const root = doc.documentElement
  if (root === null) return undefined
  const rootName = root.tagName.toLowerCase()
  const atom = rootName === "feed"
  if (!["rss", "feed", "rdf:rdf"].includes(rootName)) return undefined
  const channel = atom ? root : (childrenNamed(root, ["channel"])[0] ?? root)
  const title = textOf(channel, ["title"]) ?? ""
  const description = textOf(channel, atom ? ["subtitle"] : ["description"])
  // RSS 1.0 keeps items beside the channel, not inside it; some RSS 2.0 feeds do too.
  const entries = atom
    ? childrenNamed(root, ["entry"])
    : channel === root
      ? childrenNamed(root, ["item"])
      : [...childrenNamed(channel, ["item"]), ...childrenNamed(root, ["item"])]
  const parts: Array<string> = []
  if (title !== "") parts.push(`# ${title}`)
  if (description !== undefined) parts.push(description)
  for (const entry of entries) parts.push(item(entry, atom, baseUrl))
  const lang = root.getAttribute("xml:lang") ?? textOf(channel, ["language", "dc:language"])
  return { title, markdown: parts.join("\n\n"), lang: lang ?? undefined, excerpt: description }
}

/**
 * Any other XML: verbatim in a fenced `xml` block, with the root's `<title>` child as title when it has one.
 *
 * @since 0.1.0
 * @category encoding
 */
export const genericXml = (xml: string): { readonly title: string; readonly markdown: string } => {
  // `[^<>]*`, not `[^>]*`: a run of `<title` without `>` would be read to the end from each of them.
  const title = /<title[^<>]*>([^<]{1,300})<\/title>/i.exec(xml.slice(0, 8192))?.[1]?.replace(/\s+/g, " ").trim() ?? ""
  return { title, markdown: fence(xml.trim(), "xml") }
}
