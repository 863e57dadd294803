/**
 * The lead paragraphs Readability leaves out: a standfirst, a teaser paragraph or a first paragraph set in its own
 * container just before the article's (a header, an intro box) is not a sibling of the block Readability picks, so it
 * is left in the page (or dropped with its header, see `droppedHeader`). The page's text nodes are listed in document
 * order before Readability runs (by `Container.scan`; Readability moves the article's nodes out of the page, text nodes
 * included, so they keep their identity); afterwards the blocks just before the article's first text that read as prose
 * (long, next to no links, not in page chrome) are moved to the article's start. Bounded: at most `maxTexts` text nodes
 * and `maxBlocks` blocks are looked at, and each block's text is read at most once, up to `maxBlockChars`.
 */

import * as Boilerplate from "./boilerplate.js"
import { inlineTags } from "./inlineTags.js"

const ELEMENT = 1
const TEXT = 3

/** The page's non-blank text nodes in document order, with their positions. */
export interface Texts {
  readonly nodes: ReadonlyArray<Text>
  readonly index: ReadonlyMap<Text, number>
  /** Positions of the text nodes that were in an `<h1>` (Readability removes the title heading). */
  readonly titles: ReadonlySet<number>
}

// Blocks whose own text is one paragraph (a leaf `div` or `section` qualifies too, see `leaf`).
const paragraphs = new Set(["p", "h2", "h3", "h4", "h5", "h6", "blockquote", "li", "dd"])
const containers = new Set(["div", "section", "header"])
const chrome = new Set(["nav", "aside", "footer", "form", "menu", "dialog", "button", "label", "select"])

// Room for a share bar, a dateline and an image credit between the title and the lead (60 texts and 15 blocks
// stopped short of leads on some pages).
const maxTexts = 120
const maxBlocks = 30
const maxBlockChars = 1500
/** A lead is prose: at least this many characters ... */
const minLeadChars = 80
/** ... and at most this share of them in links. */
const maxLeadLinkShare = 0.1
/** Past this many characters of link text the walk has reached navigation: it stops (share and tag links pass). */
const maxLinkChars = 120

const leaf = (element: Element): boolean => {
  for (let c = element.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (!inlineTags.has(c.localName)) return false
  }
  return true
}

/** The nearest ancestor of `text` that is not inline, or `undefined` past 20 levels or at `root`. */
const blockOf = (text: Text, root: Element): Element | undefined => {
  let node = text.parentElement
  for (let level = 0; node !== null && node !== root && level < 20; level++, node = node.parentElement) {
    if (!inlineTags.has(node.localName)) return node
  }
  return undefined
}

const inChrome = (element: Element, root: Element): boolean => {
  let node: Element | null = element
  for (let level = 0; node !== null && node !== root && level < 40; level++, node = node.parentElement) {
    if (chrome.has(node.localName)) return true
  }
  return false
}

/** Text and link-text characters of a subtree (whitespace trimmed per node), reading at most `max`. */
const measure = (root: Element, max: number): { readonly text: number; readonly link: number } => {
  let text = 0
  let link = 0
  const stack: Array<{ readonly node: Node; readonly inLink: boolean }> = [{ node: root, inLink: false }]
  while (stack.length > 0 && text <= max) {
    const { inLink, node } = stack.pop()!
    if (node.nodeType === TEXT) {
      const n = (node as Text).data.trim().length
      text += n
      if (inLink) link += n
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    const here = inLink || (node as Element).localName === "a"
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push({ node: c, inLink: here })
  }
  return { text, link }
}

/** Whether `node` is still under `root` (Readability removed or moved it otherwise). */
const under = (node: Node, root: Element): boolean => {
  for (let n: Node | null = node; n !== null; n = n.parentNode) if (n === root) return true
  return false
}

/**
 * Whether `node` is in a header Readability dropped: it drops every element whose class or id says "header" (an
 * "unlikely candidate"), and an article's own header (`<header class="entry-header">`) holds its standfirst. Such a
 * node is out of the page (its topmost ancestor is the dropped element, not the document) and not in `article`.
 */
const droppedHeader = (node: Node, article: Element): boolean => {
  let top: Node = node
  for (let n: Node | null = node; n !== null; n = n.parentNode) {
    if (n === article) return false
    top = n
  }
  if (top.nodeType !== ELEMENT) return false
  const element = top as Element
  return element.localName === "header" || Boilerplate.tokens(element).includes("header")
}

/** The first text node of `article` (document order) that was listed, and its position. */
const start = (article: Element, texts: Texts): number | undefined => {
  const stack: Array<Node> = [article]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === TEXT) {
      const i = texts.index.get(node as Text)
      if (i !== undefined) return i
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return undefined
}

/**
 * Moves the lead paragraphs left in `body` just before the article's start to the start of `article`; returns how
 * many blocks were moved.
 */
export const restore = (body: Element, article: Element, texts: Texts): number => {
  const first = start(article, texts)
  if (first === undefined) return 0
  const seen = new Set<Element>()
  const leads: Array<Element> = []
  let links = 0
  for (let i = first - 1, looked = 0; i >= 0 && looked < maxTexts && seen.size < maxBlocks; i--, looked++) {
    // The title: what is before it is the page's masthead.
    if (texts.titles.has(i)) break
    const text = texts.nodes[i]
    const block = blockOf(text, body)
    if (block === undefined || seen.has(block)) continue
    seen.add(block)
    if (!under(block, body) && !droppedHeader(block, article)) continue
    const { link, text: chars } = measure(block, maxBlockChars)
    links += link
    if (links >= maxLinkChars) break
    if (chars < minLeadChars || chars > maxBlockChars || link > chars * maxLeadLinkShare) continue
    if (!paragraphs.has(block.localName) && !(containers.has(block.localName) && leaf(block))) continue
    if (inChrome(block, body)) continue
    leads.push(block)
  }
  // `leads` runs backwards through the page: each goes before the one moved just before it.
  for (const lead of leads) article.insertBefore(lead, article.firstChild)
  return leads.length
}
