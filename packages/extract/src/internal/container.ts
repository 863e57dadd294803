/**
 * Our own pick of the page's main block, to catch the article Readability gets wrong: a contact flyout, an
 * advertiser disclosure or a sign-up form scored above the article because the article's text sits in lists,
 * tables or `div`s Readability does not score. Every block (an element that is not inline) gets a weight from its
 * own text: prose (long, few links) counts for its characters, link text and short fragments (labels, dates,
 * menu entries) against; an element's score is the sum over the blocks it holds, and the best element is the one
 * with the highest sum (the deepest of equals). One walk over the page, linear in its size.
 */
import * as Boilerplate from "./boilerplate.js"
import { inlineTags } from "./inlineTags.js"
import type * as Lead from "./lead.js"

const ELEMENT = 1
const TEXT = 3

// Page chrome: its text never counts as prose.
const chrome = new Set(["nav", "aside", "footer", "form", "menu", "dialog", "button", "label", "select", "header"])
// Class/id words of page chrome (a sidebar of recent comments is prose too, and is not the article). Not "widget":
// buying guides put their picks in product widgets; a sidebar's widgets are in the sidebar. Picture galleries are
// captions, which the article path drops by default.
const chromeTokens = new Set([
  "sidebar",
  "comment",
  "comments",
  "footer",
  "menu",
  "nav",
  "navigation",
  "breadcrumb",
  "related",
  "teaser",
  "teasers",
  "promo",
  "share",
  "social",
  "newsletter",
  "cookie",
  "cookies",
  "consent",
  "banner",
  "modal",
  "popup",
  "overlay",
  "flyout",
  "gallery",
  "slideshow"
])
const skipped = new Set(["script", "style", "noscript", "template", "textarea"])

/** A block is prose from this many characters outside links ... */
export const minProseChars = 50
/** ... with at most this share of its text in links. */
export const maxProseLinkShare = 0.3
/** A short fragment costs half its characters, up to this many. */
const maxFragmentCost = 30

/** The weight of one block from its own text: `chars` outside links, `links` inside them. */
export const weight = (chars: number, links: number, inChrome: boolean): number => {
  if (!inChrome && chars >= minProseChars && links <= (chars + links) * maxProseLinkShare) return chars - links
  return -links - Math.min(chars, maxFragmentCost) / 2
}

/** The best block: the element, its score, and the positions (in `texts`) of its first and last text node. */
export interface Best {
  readonly element: Element
  readonly score: number
  readonly first: number
  readonly last: number
  /** Its position among the elements under the root in document order (the root is 0), to find it in a copy. */
  readonly index: number
  /** Characters of its text in prose blocks, in links, and all of them. */
  readonly prose: number
  readonly links: number
  readonly text: number
}

interface Frame {
  readonly element: Element
  readonly index: number
  readonly chrome: boolean
  /** Its own text (in it or its inline elements, not in the blocks it holds), outside and inside links. */
  chars: number
  links: number
  /** Over the blocks it holds, itself included. */
  sum: number
  prose: number
  linkSum: number
  text: number
  first: number
  last: number
}

// End markers on the walk's stack: of a block (its frame closes), of a link, of a script-like element, of an h1.
const blockEnd = 0
const linkEnd = 1
const deadEnd = 2
const titleEnd = 3

/** The best block under `root`; see {@link scan}. */
export const best = (root: Element): Best | undefined => scan(root).best

/**
 * In one walk: the page's text nodes (every non-blank one in document order, and
 * which were in an `<h1>`), and the block under `root` (or `root`) with the highest score (`undefined` when none
 * scores above zero). Only blocks get a frame (inline elements only count links): one object per block.
 */
export const scan = (root: Element): { readonly texts: Lead.Texts; readonly best: Best | undefined } => {
  let found: Best | undefined
  const open: Array<Frame> = []
  const nodes: Array<Text> = []
  const listed = new Map<Text, number>()
  const titles = new Set<number>()
  let linkDepth = 0
  let deadDepth = 0
  let titleDepth = 0
  let elements = 0
  const stack: Array<Node | number> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (typeof node === "number") {
      if (node === linkEnd) {
        linkDepth--
        continue
      }
      if (node === deadEnd) {
        deadDepth--
        continue
      }
      if (node === titleEnd) {
        titleDepth--
        continue
      }
      const frame = open.pop()!
      const w = weight(frame.chars, frame.links, frame.chrome)
      frame.sum += w
      if (w > 0) frame.prose += frame.chars + frame.links
      frame.text += frame.chars + frame.links
      frame.linkSum += frame.links
      if (frame.first >= 0 && (found === undefined || frame.sum > found.score)) {
        found = {
          element: frame.element,
          score: frame.sum,
          first: frame.first,
          last: frame.last,
          index: frame.index,
          prose: frame.prose,
          links: frame.linkSum,
          text: frame.text
        }
      }
      const parent = open[open.length - 1]
      if (parent !== undefined) {
        parent.sum += frame.sum
        parent.prose += frame.prose
        parent.text += frame.text
        parent.linkSum += frame.linkSum
        if (frame.first >= 0) {
          if (parent.first < 0) parent.first = frame.first
          parent.last = frame.last
        }
      }
      continue
    }
    if (node.nodeType === TEXT) {
      const n = (node as Text).data.trim().length
      if (n === 0) continue
      const i = nodes.length
      nodes.push(node as Text)
      listed.set(node as Text, i)
      if (titleDepth > 0) titles.add(i)
      if (deadDepth > 0) continue
      const block = open[open.length - 1]
      if (linkDepth > 0) block.links += n
      else block.chars += n
      if (block.first < 0) block.first = i
      block.last = i
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    const element = node as Element
    const name = element.localName
    const index = elements++
    if (skipped.has(name)) {
      deadDepth++
      stack.push(deadEnd)
    } else if (name === "a") {
      linkDepth++
      stack.push(linkEnd)
    } else if (name === "h1") {
      titleDepth++
      stack.push(titleEnd)
    }
    if (open.length === 0 || !inlineTags.has(name)) {
      const parent = open[open.length - 1]
      open.push({
        element,
        index,
        chrome:
          (parent?.chrome ?? false) || chrome.has(name) || Boilerplate.tokens(element).some((t) => chromeTokens.has(t)),
        chars: 0,
        links: 0,
        sum: 0,
        prose: 0,
        linkSum: 0,
        text: 0,
        first: -1,
        last: -1
      })
      stack.push(blockEnd)
    }
    for (let c = element.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return {
    texts: { nodes, index: listed, titles },
    best: found !== undefined && found.score > 0 ? found : undefined
  }
}

/**
 * Characters of `article`'s text from our block, and all of them. A text node is from the block when it was listed
 * within `[first, last]`, or when its text is one of the block's (a Readability retry re-parses the page, and its
 * article's nodes are new ones).
 */
export const overlap = (
  article: Element,
  texts: Lead.Texts,
  first: number,
  last: number
): { readonly inside: number; readonly all: number; readonly links: number } => {
  let inside = 0
  let all = 0
  let links = 0
  // Text nodes Readability made (not listed): matched by their text, against a set made only when there are any.
  const unlisted: Array<string> = []
  const stack: Array<{ readonly node: Node; readonly link: boolean }> = [{ node: article, link: false }]
  while (stack.length > 0) {
    const { link, node } = stack.pop()!
    if (node.nodeType === TEXT) {
      const text = (node as Text).data.trim()
      all += text.length
      if (link) links += text.length
      const i = texts.index.get(node as Text)
      if (i === undefined) {
        if (text !== "") unlisted.push(text)
      } else if (i >= first && i <= last) inside += text.length
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    const here = link || (node as Element).localName === "a"
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push({ node: c, link: here })
  }
  if (unlisted.length > 0) {
    const own = new Set<string>()
    for (let i = first; i <= last; i++) own.add(texts.nodes[i].data.trim())
    for (const text of unlisted) if (own.has(text)) inside += text.length
  }
  return { inside, all, links }
}

/** Readability's article is another block than ours when at most this share of its text is from ours ... */
export const maxApartShare = 0.3
/** ... and our block scores at least this many times the article's characters. */
export const minApartRatio = 1
/** It is a part of ours when at least this share of its text is from ours ... */
export const minPartShare = 0.75
/** ... our block scores at least this many times its characters ... */
export const minPartRatio = 1.5
/** ... and the text ours adds has at most this share in links (more is a teaser list, not the article's rest). */
export const maxAddedLinkShare = 0.15
/**
 * ... or this share when our block scores at least {@link minWideRatio} times the article's characters: the article
 * is then a small part of a long piece (a ranked list of reviews, each with its "read the full review" and shop
 * links), where a teaser list around an article would not score that high.
 */
export const maxWideLinkShare = 0.25
/** See {@link maxWideLinkShare}. */
export const minWideRatio = 3

/**
 * Whether our block should replace Readability's `article`: the article is plainly another, lesser block (little
 * of its text is ours, and ours scores well above it), or a small part of ours (nearly all its text is ours, ours
 * scores well above it, and what ours adds reads as prose, not as a teaser list).
 */
export const replaces = (article: Element, block: Best, texts: Lead.Texts): boolean => {
  const { all, inside, links } = overlap(article, texts, block.first, block.last)
  if (all === 0) return false
  if (inside <= all * maxApartShare && block.score >= all * minApartRatio) return true
  const added = block.text - all
  return (
    inside >= all * minPartShare &&
    block.score >= all * minPartRatio &&
    added > 0 &&
    block.links - links <= added * (block.score >= all * minWideRatio ? maxWideLinkShare : maxAddedLinkShare)
  )
}

/** The element at `index` under `root`, counted as {@link Best}'s `index` is. */
export const at = (root: Element, index: number): Element | undefined => {
  if (index === 0) return root
  const walker = root.ownerDocument.createTreeWalker(root, 1)
  let i = 0
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (++i === index) return node as Element
  }
  return undefined
}
