/**
 * What ends an article after its text: "Read more" headings with their link lines, teaser cards, tag rows. From
 * the article's end back, headings, link-dense blocks and linked images are dropped up to the first text that
 * stays: a block that reads as prose (long, few links), or any other text (a source line, an author's name, a
 * date, a list), so a heading or link line followed by something kept stays too. Two walks, each linear in the
 * article's size: one gathers text, link text and whether a subtree holds prose bottom-up, one goes backwards
 * from the article's end, removing on the way.
 */
import { bottomUp, isEmbed } from "./boilerplate.js"
import * as HeadingIds from "./headingIds.js"
import { inlineTags } from "./inlineTags.js"
import * as TagWalk from "./tagWalk.js"

const ELEMENT = 1
const TEXT = 3

/** A block is prose from this many characters outside links ... */
export const minProseChars = 50
/** ... with at most this share of its own text in links. */
export const maxProseLinkShare = 0.3
/** Past the last prose, a block with at least this share of its text in links is a link block. */
export const minLinkShare = 0.6

interface Stats {
  readonly text: number
  readonly link: number
  /** Its own text (in it or its inline elements, not in the blocks it holds) reads as prose. */
  readonly own: boolean
  /** It holds a block whose own text reads as prose (or is one). */
  readonly prose: boolean
  /** It holds an image inside a link. */
  readonly linkedImage: boolean
  readonly embed: boolean
}

const headingNames = ["h1", "h2", "h3", "h4", "h5", "h6"]
const headings = new Set(headingNames)

/** Text, link text and prose of every element under `root` (and `root`), bottom-up. */
const gather = (root: Element): Map<Element, Stats> => {
  const stats = new Map<Element, Stats>()
  bottomUp(root, (element) => {
    const inLink = element.localName === "a"
    let text = 0
    let link = 0
    let ownText = 0
    let ownLink = 0
    let prose = false
    let linkedImage = false
    let embed = isEmbed(element)
    for (let c = element.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === TEXT) {
        const n = (c as CharacterData).data.trim().length
        text += n
        ownText += n
        if (inLink) {
          link += n
          ownLink += n
        }
        continue
      }
      if (c.nodeType !== ELEMENT) continue
      const child = c as Element
      const s = stats.get(child)
      if (s === undefined) continue
      const childLink = inLink ? s.text : s.link
      text += s.text
      link += childLink
      if (inlineTags.has(child.localName)) {
        ownText += s.text
        ownLink += childLink
      }
      prose ||= s.prose
      linkedImage ||= s.linkedImage || (inLink && child.localName === "img")
      embed ||= s.embed
    }
    const own =
      !inlineTags.has(element.localName) && ownText - ownLink >= minProseChars && ownLink <= ownText * maxProseLinkShare
    stats.set(element, { text, link, own, prose: prose || own, linkedImage, embed })
  })
  return stats
}

// A list's items and a table's cells are kept or dropped with their list or table, never one by one.
const parts = new Set(["li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot"])

/**
 * What the walk back from the article's end does with an element: `drop` a heading, a link-dense block or a
 * linked image (a teaser card's picture); `keep` an element it does not look into (an inline element, a list
 * item, an embedded post); `open` a block to look at its blocks.
 */
const verdict = (element: Element, s: Stats): "drop" | "keep" | "open" => {
  if (s.embed) return "keep"
  const name = element.localName
  if (s.text === 0 && s.linkedImage) return "drop"
  if (inlineTags.has(name) || parts.has(name)) return "keep"
  if (headings.has(name)) return "drop"
  // A link set as its address (a source, a petition) is text the author wrote out for the reader.
  if (s.text > 0 && s.link >= s.text * minLinkShare && !address.test(firstText(element))) return "drop"
  return "open"
}

const address = /^(?:https?:\/\/|www\.)/i

/** The first non-blank text under `element` (down its first children, at most 20 levels), or "". */
const firstText = (element: Element): string => {
  let node: Node | null = element.firstChild
  for (let level = 0; node !== null && level < 20; level++) {
    if (node.nodeType === TEXT) {
      const data = (node as CharacterData).data
      if (data.trim() !== "") return data.trimStart()
      node = node.nextSibling
      continue
    }
    node = node.firstChild ?? node.nextSibling
  }
  return ""
}

/** The node before `node` in a backward walk that does not enter `node`'s previous siblings' last children. */
const previous = (node: Node, root: Element): Node | null => {
  let n: Node = node
  while (n.previousSibling === null) {
    const parent = n.parentNode
    if (parent === null || parent === root) return null
    n = parent
  }
  return n.previousSibling
}

/** The fragments the links under `root` point to within their page (`href="#..."`), decoded. */
const fragments = (root: Element): Set<string> => {
  const out = new Set<string>()
  for (const a of TagWalk.withTags(root, ["a"])) {
    const href = a.getAttribute("href")
    if (href === null || href.length < 2 || href.length > 200 || href[0] !== "#") continue
    // A heading's permalink points at the heading itself: it lists nothing.
    if (inHeading(a)) continue
    out.add(href.slice(1))
    try {
      out.add(decodeURIComponent(href.slice(1)))
    } catch {
      // A malformed escape: the fragment as written is all there is.
    }
  }
  return out
}

/** Whether `a` is inside a heading (at most 4 levels up). */
const inHeading = (a: Element): boolean => {
  let node = a.parentElement
  for (let level = 0; node !== null && level < 4; level++, node = node.parentElement)
    if (headings.has(node.localName)) return true
  return false
}

/** A table of contents lists at least this many of the article's headings (one in-page link is a jump, "3 comments"). */
const minListed = 3

/** Whether a heading is a fragment's target: its own id, or its children's (a headline span, an anchor). */
const targeted = (heading: Element, ids: ReadonlySet<string>): boolean => {
  if (ids.has(idOf(heading))) return true
  for (let c = heading.firstElementChild; c !== null; c = c.nextElementSibling) {
    const id = idOf(c) || c.getAttribute("name")
    if (id && ids.has(id)) return true
  }
  return false
}

/** An element's id, or the one `headingIds.ts` moved aside. */
const idOf = (element: Element): string => element.id || (element.getAttribute(HeadingIds.attribute) ?? "")

/**
 * Where the tail walk must end: `undefined` when the article lists fewer than `minListed` of its headings (the walk goes as far as it
 * would), `null` when its last heading is listed (the walk trims nothing), otherwise the first heading after the
 * last one listed (the walk ends once it has removed it).
 */
const afterDeclared = (root: Element): Element | null | undefined => {
  const ids = fragments(root)
  if (ids.size === 0) return undefined
  const all = TagWalk.withTags(root, headingNames)
  let last = -1
  let listed = 0
  for (let i = 0; i < all.length; i++) {
    if (!targeted(all[i], ids)) continue
    last = i
    listed++
  }
  if (listed < minListed) return undefined
  return last + 1 < all.length ? all[last + 1] : null
}

/**
 * Removes, from the end of `root` back, the headings, link-dense blocks and linked images that end it, up to the
 * first text that stays (a prose block, a short line, a list); returns the characters of text removed. An article
 * without prose (an index page, a list of links) is left as it is.
 */
export const trim = (root: Element): number => {
  const stats = gather(root)
  if (stats.get(root)?.prose !== true) return 0
  // The article's own table of contents declares its sections: the walk ends with the first heading after the
  // last section it lists, and trims nothing when that section ends the article.
  const boundary = afterDeclared(root)
  if (boundary === null) return 0
  let removed = 0
  let node: Node | null = root.lastChild
  while (node !== null) {
    if (node.nodeType !== ELEMENT) {
      if (node.nodeType === TEXT && (node as CharacterData).data.trim() !== "") break
      node = previous(node, root)
      continue
    }
    const element = node as Element
    const s = stats.get(element)
    if (s === undefined) {
      node = previous(element, root)
      continue
    }
    if (s.prose) {
      // The last prose block, or a block that holds it (and may end in links): the walk ends there, or goes on
      // inside.
      if (s.own) break
      node = element.lastChild
      continue
    }
    const v = verdict(element, s)
    if (v === "drop") {
      const before = previous(element, root)
      element.parentNode?.removeChild(element)
      removed += s.text
      if (element === boundary) break
      node = before
      continue
    }
    if (v === "keep") {
      if (s.text > 0) break
      node = previous(element, root)
      continue
    }
    node = element.lastChild ?? previous(element, root)
  }
  return removed
}
