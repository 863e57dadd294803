/**
 * DOM -> markdown for a model to read: headings, paragraphs, lists (nested), GFM tables, fenced code with its
 * language, inline code, absolute links, image alt text and blockquotes. Whitespace is collapsed as a browser
 * would; scripts, styles, forms and other non-content elements are dropped. The output is meant to be read, not
 * round-tripped, so text is not escaped beyond what keeps the structure unambiguous.
 *
 * Works on any DOM that offers `nodeType`, `localName`, `firstChild`/`nextSibling`, `getAttribute` and text
 * `data` (linkedom, a browser's DOM), walks it once, and never recurses deeper than a fixed bound, so hostile
 * nesting cannot overflow the stack.
 *
 * @since 0.1.0
 */
import { altText, BLOCK, LINE, inlineCode, oneLine, resolveTags, text, wrap } from "./internal/markdownText.js"
import * as Whitespace from "./internal/whitespace.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Absolute URL that relative `href` and `src` values resolve against; links stay as written when absent. */
  readonly baseUrl?: string | undefined
  /**
   * Also drop page chrome (`nav`, `header`, `footer`, `aside`) and elements hidden with `hidden`,
   * `aria-hidden="true"` or an inline `display:none`: for a whole-page pass, where nothing removed them before.
   */
  readonly dropChrome?: boolean | undefined
}

// Beyond this depth the subtree is rendered as plain text, iteratively: structure that deep is not content.
const maxDepth = 256

// Elements that hold no readable text in any page.
const dropped = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "title",
  "meta",
  "link",
  "base",
  "input",
  "select",
  "textarea",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "canvas",
  "svg",
  "math",
  "audio",
  "video",
  "source",
  "track",
  "map",
  "area"
])

// Page chrome and interactive parts: dropped in a whole-page pass, where nothing else removed them. In an
// article Readability already removed what it judged chrome, and what it kept (a label, a header) is content.
const chrome = new Set(["nav", "header", "footer", "aside", "menu", "form", "button", "label", "option", "dialog"])

const blocks = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "body",
  "html",
  "center",
  "address",
  "figure",
  "figcaption",
  "details",
  "summary",
  "fieldset",
  "legend",
  "dl",
  "dt",
  "dd",
  "caption",
  "hgroup",
  "header",
  "footer",
  "aside",
  "nav",
  "menu",
  "tbody",
  "thead",
  "tfoot",
  "tr",
  "td",
  "th"
])

const ELEMENT = 1
const TEXT = 3
const CDATA = 4

interface Context {
  readonly base: URL | undefined
  readonly page: string | undefined
  readonly dropChrome: boolean
  /** Inside `pre`: whitespace is kept. */
  readonly pre: boolean
  /** Inside a link's label: brackets in text are escaped, so the label cannot close early. */
  readonly link: boolean
}

/** Plain text of a subtree, iteratively (for `pre` and for nesting beyond `maxDepth`). */
const textContent = (root: Node, pre: boolean): string => {
  const parts: Array<string> = []
  const stack: Array<Node> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === TEXT || node.nodeType === CDATA) {
      parts.push(text((node as CharacterData).data, pre))
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    const name = (node as Element).localName
    if (dropped.has(name)) continue
    if (name === "br") {
      parts.push(pre ? "\n" : LINE)
      continue
    }
    const children: Array<Node> = []
    for (let child = node.firstChild; child !== null; child = child.nextSibling) children.push(child)
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
    if (!pre && blocks.has(name)) parts.push(BLOCK)
  }
  return parts.join("")
}

const hidden = (element: Element): boolean => {
  if (element.hasAttribute("hidden")) return true
  if (element.getAttribute("aria-hidden") === "true") return true
  const style = element.getAttribute("style")
  return style !== null && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)
}

const resolve = (href: string, ctx: Context): string | undefined => {
  const trimmed = href.trim()
  if (trimmed === "") return undefined
  let url: URL
  try {
    url = ctx.base === undefined ? new URL(trimmed) : new URL(trimmed, ctx.base)
  } catch {
    // Relative with no base: keep it as written rather than drop the link.
    return ctx.base === undefined && !/^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? encode(trimmed) : undefined
  }
  if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "mailto:") return undefined
  return encode(url.href)
}

const encode = (href: string): string =>
  href.replace(/[ ()<>]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())

// A link to elsewhere on the same page carries no information for a reader of the text.
const samePage = (href: string, ctx: Context): boolean => {
  if (ctx.page === undefined) return href.startsWith("#")
  const hash = href.indexOf("#")
  return hash >= 0 && href.slice(0, hash) === ctx.page
}

const languageOf = (element: Element | null): string => {
  for (let el = element; el !== null; el = el.firstElementChild) {
    const cls = el.getAttribute("class") ?? ""
    const match =
      /(?:^|\s)(?:lang(?:uage)?-|highlight-(?:source-)?|brush:\s*)([A-Za-z0-9_+#.-]+)/.exec(cls) ??
      /(?:^|\s)(?:sourceCode|code)\s+([A-Za-z0-9_+#-]+)(?:\s|$)/.exec(cls)
    if (match !== null) return match[1].toLowerCase()
    const data = el.getAttribute("data-lang") ?? el.getAttribute("data-language")
    if (data !== null && /^[\w+#.-]+$/.test(data)) return data.toLowerCase()
    if (el.localName === "code") break
  }
  return ""
}

const codeBlock = (element: Element): string => {
  // trimEnd, not `/\s+$/`: that is quadratic on a long run of spaces before text.
  const code = textContent(element, true).replace(/^\n/, "").trimEnd()
  if (code === "") return ""
  const longest = (code.match(/`{3,}/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0)
  const fence = "`".repeat(Math.max(3, longest + 1))
  return BLOCK + fence + languageOf(element) + "\n" + code + "\n" + fence + BLOCK
}

/** Resolves the sentinels: blank line per block break, newline per line break, whitespace around them trimmed. */
// Linear scans: the expressions they stand for (`/[ \t]*\uE001[ \t]*/g`, `/[ \t\n]*\uE000[ \t\n\uE000]*/g`,
// `/^[ \t\n]+|[ \t\n]+$/g`, `/\n{3,}/g`) retry at every character of a long run of spaces: quadratic.
const finish = (s: string): string =>
  Whitespace.collapseBlankLines(
    Whitespace.trimSpaceTabNewline(Whitespace.resolveBlockMarker(Whitespace.resolveLineMarker(s, LINE), BLOCK))
  )

const indent = (s: string, first: string, rest: string): string =>
  first + s.replace(/\n/g, (_m) => "\n" + rest).replace(/\n[ \t]+\n/g, "\n\n")

const list = (element: Element, ctx: Context, depth: number): string => {
  const ordered = element.localName === "ol"
  const startAttr = Number.parseInt(element.getAttribute("start") ?? "1", 10)
  let n = Number.isFinite(startAttr) ? startAttr : 1
  const items: Array<string> = []
  for (let child = element.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === TEXT) {
      // Text directly inside a list belongs to no item; keep it rather than lose words.
      const loose = oneLine(text((child as CharacterData).data, false))
      if (loose !== "") items.push(loose)
      continue
    }
    if (child.nodeType !== ELEMENT) continue
    const el = child as Element
    if (skip(el, ctx)) continue
    const body = finish(render(el, ctx, depth + 1))
    if (el.localName !== "li") {
      if (body !== "") items.push(body)
      continue
    }
    const marker = ordered ? `${n++}. ` : "- "
    items.push(indent(body, marker, " ".repeat(marker.length)))
  }
  return items.length === 0 ? "" : BLOCK + items.join("\n") + BLOCK
}

const blockquote = (element: Element, ctx: Context, depth: number): string => {
  const body = finish(children(element, ctx, depth))
  if (body === "") return ""
  return BLOCK + body.replace(/^/gm, "> ").replace(/^> $/gm, ">") + BLOCK
}

const rowsOf = (table: Element): Array<Element> => {
  const rows: Array<Element> = []
  for (let child = table.firstElementChild; child !== null; child = child.nextElementSibling) {
    const name = child.localName
    if (name === "tr") rows.push(child)
    else if (name === "thead" || name === "tbody" || name === "tfoot") {
      for (let row = child.firstElementChild; row !== null; row = row.nextElementSibling) {
        if (row.localName === "tr") rows.push(row)
      }
    }
  }
  return rows
}

const cellsOf = (row: Element): Array<Element> => {
  const cells: Array<Element> = []
  for (let cell = row.firstElementChild; cell !== null; cell = cell.nextElementSibling) {
    if (cell.localName === "td" || cell.localName === "th") cells.push(cell)
  }
  return cells
}

const table = (element: Element, ctx: Context, depth: number): string => {
  const rows = rowsOf(element)
  const grid = rows.map(cellsOf)
  const width = grid.reduce((max, cells) => Math.max(max, cells.length), 0)
  // A one-column table or one holding tables is layout, not data: render its content as blocks.
  if (width < 2 || element.querySelector("table") !== null) return BLOCK + children(element, ctx, depth) + BLOCK
  const cell = (el: Element) =>
    oneLine(children(el, ctx, depth + 1))
      .replace(/\|/g, "\\|")
      .trim()
  const lines: Array<string> = []
  grid.forEach((cells, i) => {
    const values = cells.map(cell)
    while (values.length < width) values.push("")
    lines.push("| " + values.join(" | ") + " |")
    if (i === 0) lines.push("|" + " --- |".repeat(width))
  })
  const captionEl = element.querySelector("caption")
  const caption = captionEl === null ? "" : oneLine(children(captionEl, ctx, depth + 1))
  return BLOCK + (caption === "" ? "" : caption + BLOCK) + lines.join("\n") + BLOCK
}

const skip = (element: Element, ctx: Context): boolean =>
  dropped.has(element.localName) || (ctx.dropChrome && (chrome.has(element.localName) || hidden(element)))

const children = (element: Node, ctx: Context, depth: number): string => {
  let out = ""
  for (let child = element.firstChild; child !== null; child = child.nextSibling) {
    const part = render(child, ctx, depth + 1)
    // Collapse the space between siblings as a browser would ("a <img> b" is "a b", not "a  b").
    out += part.charCodeAt(0) === 32 && out.charCodeAt(out.length - 1) === 32 ? part.slice(1) : part
  }
  return out
}

const render = (node: Node, ctx: Context, depth: number): string => {
  const type = node.nodeType
  if (type === TEXT || type === CDATA) return text((node as CharacterData).data, ctx.pre, ctx.link)
  if (type !== ELEMENT) return ""
  const element = node as Element
  if (skip(element, ctx)) return ""
  if (depth > maxDepth) return textContent(element, ctx.pre)
  const name = element.localName
  switch (name) {
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6": {
      const title = oneLine(children(element, ctx, depth))
      return title === "" ? "" : BLOCK + "#".repeat(Number(name[1])) + " " + title + BLOCK
    }
    case "br":
      return LINE
    case "hr":
      return BLOCK + "---" + BLOCK
    case "pre":
      return codeBlock(element)
    case "code":
    case "kbd":
    case "samp":
    case "tt":
      return inlineCode(textContent(element, true).replace(/[ \t\n\r\f]+/g, " "))
    case "strong":
    case "b":
      return wrap(children(element, ctx, depth), "**")
    case "em":
    case "i":
    case "cite":
    case "dfn":
      return wrap(children(element, ctx, depth), "_")
    case "del":
    case "s":
    case "strike":
      return wrap(children(element, ctx, depth), "~~")
    case "a": {
      const inner = children(element, ctx.link ? ctx : { ...ctx, link: true }, depth)
      const href = element.getAttribute("href")
      const label = oneLine(inner)
      if (href === null || label === "") return inner
      const target = resolve(href, ctx)
      if (target === undefined || samePage(target, ctx)) return inner
      const lead = inner[0] === " " || inner[0] === LINE ? " " : ""
      // Not `/[ \uE001]$/`, which reads the whole text of the link.
      const trail = inner[inner.length - 1] === " " || inner[inner.length - 1] === LINE ? " " : ""
      return lead + "[" + label + "](" + target + ")" + trail
    }
    case "img": {
      const alt = oneLine(element.getAttribute("alt") ?? "")
      const raw = element.getAttribute("src") ?? ""
      // No source: a lazy-loading placeholder nobody sees; its alt would be text the page never shows.
      if (alt === "" || raw.trim() === "") return ""
      const src = resolve(raw, ctx)
      const escaped = altText(alt)
      return src === undefined ? escaped : "![" + escaped + "](" + src + ")"
    }
    case "ul":
    case "ol":
      return list(element, ctx, depth)
    case "li":
      return BLOCK + children(element, ctx, depth) + BLOCK
    case "blockquote":
      return blockquote(element, ctx, depth)
    case "table":
      return table(element, ctx, depth)
    case "sup":
    case "sub":
      return children(element, ctx, depth)
    default:
      return blocks.has(name) ? BLOCK + children(element, ctx, depth) + BLOCK : children(element, ctx, depth)
  }
}

const pageOf = (base: URL | undefined): string | undefined => {
  if (base === undefined) return undefined
  const copy = new URL(base.href)
  copy.hash = ""
  return copy.href
}

/**
 * Renders a DOM node (an element, a document or a fragment) as markdown.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fromNode = (node: Node, options?: Options): string => {
  let base: URL | undefined
  try {
    base = options?.baseUrl === undefined ? undefined : new URL(options.baseUrl)
  } catch {
    base = undefined
  }
  const ctx: Context = { base, page: pageOf(base), dropChrome: options?.dropChrome === true, pre: false, link: false }
  return resolveTags(finish(render(node, ctx, 0)))
}
