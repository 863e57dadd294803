/**
 * The section pass: how the readers of pages that are not articles (products, category grids, search listings,
 * service pages) read a page. Such a page is a sequence of short blocks (a name, a price, feature bullets, a spec
 * table, a hero, pricing tiers, an FAQ, a grid of items) that all count, where the article path looks for one block
 * of prose and drops the rest. So every visible block is kept in document order, less what is told apart as not
 * the page's own: chrome elements and hidden ones, blocks whose class/id words name chrome of that kind of page
 * (a cookie banner, a cart drawer, a share row, a breadcrumb trail), images, sections a heading names as not the
 * page's own ("Customer reviews", "You may also like") with what the heading leads, blocks that are mostly links
 * (for the readers that ask), and leaf blocks repeated word for word (a desktop and a mobile copy of one table).
 *
 * Two walks, each linear in the page's size: one gathers every element's text, link text, links, headings and
 * first text bottom-up; one decides top-down and removes.
 */
import { attribute, bottomUp, isHidden, tokens } from "./boilerplate.js"
import { inlineTags } from "./inlineTags.js"
import * as OpeningLine from "./openingLine.js"

const ELEMENT = 1
const TEXT = 3

/** What a reader asks of the pass. */
export interface Options {
  /** Class/id words of blocks that are chrome on this kind of page, whatever they hold (see {@link chromeWords}). */
  readonly chromeWords: ReadonlySet<string>
  /**
   * Class/id words of blocks that are chrome unless they read as text (see {@link readsAsText}): a page's parts
   * reuse such words for what wraps content too (`cartButton` on a product card's description, `facet-row` on an
   * FAQ).
   */
  readonly partWords?: ReadonlySet<string> | undefined
  /** Headings naming a section that is not the page's own: dropped with what they lead. */
  readonly sectionNames?: RegExp | undefined
  /** Drop blocks that are mostly links (at least {@link minLinkBlockLinks} links, {@link minLinkBlockShare}). */
  readonly linkBlocks?: boolean | undefined
  /** Class/id words of blocks never dropped for their words, their links or their repetition (the items of a grid). */
  readonly keep?: ((element: Element) => boolean) | undefined
}

/** Class/id words of overlays and chrome on every kind of page this pass reads, whatever they hold. */
export const chromeWords: ReadonlyArray<string> = [
  "cookie",
  "cookies",
  "consent",
  "gdpr",
  "modal",
  "popup",
  "newsletter",
  "minicart",
  "toast",
  "offcanvas",
  "skip"
]

/** Class/id words of parts that are chrome on every kind of page this pass reads, unless they read as text. */
export const partWords: ReadonlyArray<string> = [
  "cart",
  "wishlist",
  "share",
  "sharing",
  "social",
  "breadcrumb",
  "breadcrumbs"
]

/**
 * Elements that are chrome on any page: removed with all they hold (and a form, or a header outside any section,
 * while small).
 */
const chromeTags = new Set(["nav", "aside", "footer", "dialog", "menu", "button", "select", "label", "textarea"])
// A `header` in one of these heads its section; elsewhere it is the page's banner.
const sectioning = new Set(["main", "article", "section"])
/** Media: no text a reader sees (an image's alt text repeats the name beside it, when it says anything). */
const media = new Set(["img", "picture", "video", "audio", "svg", "canvas", "iframe", "object", "embed", "map"])
const skipped = new Set(["script", "style", "noscript", "template", "head"])
const headings = new Set(["h1", "h2", "h3", "h4", "h5", "h6"])

/** A chrome block (by its words, or a form or header) holds less than this share of the page's text. */
export const maxChromeShare = 0.25
/** A link block holds at least this many links ... */
export const minLinkBlockLinks = 3
/** ... and at least this share of its text in them. */
export const minLinkBlockShare = 0.8
/** Leaf blocks of at least this many characters are compared for repetition. */
export const minRepeatChars = 10
/** Headings longer than this are not section names. */
const maxSectionName = 80

interface Stats {
  /** Characters of text (trimmed nodes), and of it inside links. */
  readonly text: number
  readonly link: number
  /** `<a href>` elements. */
  readonly links: number
  /** Words of its text (runs of non-space characters). */
  readonly words: number
  /** Holds an element that is not inline. */
  readonly blocks: boolean
  /** Its first non-blank text node. */
  readonly first: Node | undefined
  /** The heading its first text is in, when it is in one. */
  readonly lead: Element | undefined
  /** Headings it holds, by level (index 1-6), or undefined when none. */
  readonly levels: ReadonlyArray<number> | undefined
}

const empty: Stats = {
  text: 0,
  link: 0,
  links: 0,
  words: 0,
  blocks: false,
  first: undefined,
  lead: undefined,
  levels: undefined
}

const gather = (root: Element): Map<Element, Stats> => {
  const stats = new Map<Element, Stats>()
  bottomUp(root, (element) => {
    const name = element.localName
    if (skipped.has(name)) {
      stats.set(element, empty)
      return
    }
    const inLink = name === "a"
    let text = 0
    let link = 0
    let links = inLink && element.hasAttribute("href") ? 1 : 0
    let words = 0
    let blocks = false
    let first: Node | undefined
    let lead: Element | undefined
    let levels: Array<number> | undefined
    const level = headings.has(name) ? Number(name[1]) : 0
    if (level > 0) {
      levels = [0, 0, 0, 0, 0, 0, 0]
      levels[level]++
    }
    for (let c = element.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === TEXT) {
        const data = (c as CharacterData).data
        const n = data.trim().length
        if (n === 0) continue
        text += n
        words += wordCount(data)
        if (inLink) link += n
        first ??= c
        continue
      }
      if (c.nodeType !== ELEMENT) continue
      const child = c as Element
      const s = stats.get(child)
      if (s === undefined) continue
      text += s.text
      link += inLink ? s.text : s.link
      links += s.links
      words += s.words
      blocks ||= s.blocks || !inlineTags.has(child.localName)
      if (first === undefined && s.first !== undefined) {
        first = s.first
        lead = s.lead
      }
      if (s.levels !== undefined) {
        levels ??= [0, 0, 0, 0, 0, 0, 0]
        for (let i = 1; i <= 6; i++) levels[i] += s.levels[i]
      }
    }
    if (level > 0 && first !== undefined) lead = element
    stats.set(element, { text, link, links, words, blocks, first, lead, levels })
  })
  return stats
}

/** Runs of non-space characters in `data`, in one scan. */
const wordCount = (data: string): number => {
  let n = 0
  let inWord = false
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i)
    const space = c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 160
    if (!space && !inWord) n++
    inWord = !space
  }
  return n
}

const collapse = (s: string): string => s.replace(/\s+/g, " ").trim()

/** Headings of `level` or above (a smaller number) among `levels`. */
const atOrAbove = (levels: ReadonlyArray<number> | undefined, level: number): number => {
  if (levels === undefined) return 0
  let n = 0
  for (let i = 1; i <= level; i++) n += levels[i]
  return n
}

// A count in a section's heading ("Reviews (128)", "29 reviews for …") is not part of its name.
const counts = /\(\s*\d[\d,.\s]*\)|\b\d[\d,.]*\b/g

const named = (heading: Element, s: Stats, names: RegExp): boolean => {
  if (s.text === 0 || s.text > maxSectionName) return false
  // Collapsed first: the counts are looked for in at most `maxSectionName` characters, however much space a
  // heading's text nodes hold.
  const text = collapse(heading.textContent ?? "")
  return text.length <= maxSectionName && names.test(collapse(text.replace(counts, " ")))
}

/**
 * The page's main region: its `<main>` (or `role="main"`) with the most text, when that holds at least
 * {@link minMainShare} of the body's; else the body.
 */
export const minMainShare = 0.3

/** Where a reader starts: see {@link minMainShare}. The stats are the body's, from {@link gather}. */
const rootOf = (body: Element, stats: Map<Element, Stats>): Element => {
  const total = stats.get(body)?.text ?? 0
  let best: Element | undefined
  let bestText = 0
  for (const main of [...Array.from(body.getElementsByTagName("main")), ...mainRoles(body)]) {
    const text = stats.get(main)?.text ?? 0
    if (text > bestText) {
      best = main
      bestText = text
    }
  }
  return best !== undefined && bestText >= total * minMainShare ? best : body
}

// `[role=main]` by tag: a selector is matched against every element of the page; the few candidates are tested.
const mainRoles = (body: Element): Array<Element> => {
  const out: Array<Element> = []
  for (const tag of ["div", "section", "article"]) {
    for (const el of Array.from(body.getElementsByTagName(tag))) {
      if (attribute(el, "role") === "main") out.push(el)
    }
  }
  return out
}

/** The facts the pass gathered, for the readers that look further (a product's region, a grid's items). */
export interface Page {
  /** Where reading starts: the main region, or the body. */
  readonly root: Element
  /** Characters of text under the root. */
  readonly total: number
  /** Characters of text, of it in links, and `<a href>`s under an element (0 for an element it did not see). */
  readonly text: (element: Element) => number
  readonly linkText: (element: Element) => number
  readonly links: (element: Element) => number
}

/** Gathers the page's facts (the first walk); `undefined` for a page without a body. */
export const survey = (doc: Document): (Page & { readonly stats: Map<Element, Stats> }) | undefined => {
  const body = doc.body
  if (body === null) return undefined
  const stats = gather(body)
  const root = rootOf(body, stats)
  const of = (element: Element) => stats.get(element) ?? empty
  return {
    root,
    total: of(root).text,
    text: (element) => of(element).text,
    linkText: (element) => of(element).link,
    links: (element) => of(element).links,
    stats
  }
}

/**
 * Removes, under `root` (not `root` itself), what is not the page's own (the second walk); `stats` from
 * {@link survey}, taken before anything was removed.
 */
export const prune = (root: Element, stats: Map<Element, Stats>, options: Options): void => {
  const of = (element: Element) => stats.get(element) ?? empty
  const total = of(root).text
  const seen = new Set<string>()
  // Ancestors share their first text: whether it opens a cookie banner or a copyright line is read once per text.
  const openings = new Map<Node, OpeningLine.Opening>()
  const opening = (text: Node): OpeningLine.Opening => {
    let verdict = openings.get(text)
    if (verdict === undefined) openings.set(text, (verdict = OpeningLine.opening(text)))
    return verdict
  }
  const gone = new Set<Element>()
  const removals: Array<Element> = []
  // A heading leads all its ancestors that start with it: it is read once, not once per ancestor.
  const names = new Map<Element, boolean>()
  const isNamed = (heading: Element, pattern: RegExp): boolean => {
    let verdict = names.get(heading)
    if (verdict === undefined) names.set(heading, (verdict = named(heading, of(heading), pattern)))
    return verdict
  }
  // Each element with whether it is inside a sectioning element (`main`, `article`, `section`): a `header` there
  // is a section's heading, not the page's banner.
  // And the link it is in, if any: a link around a heading (a card's whole face) is turned inside out.
  const stack: Array<Element> = []
  const sectioned: Array<boolean> = []
  const linked: Array<Element | undefined> = []
  const linkedHeadings: Array<readonly [Element, Element]> = []
  const turned = new Set<Element>()
  const rootSectioned = sectioning.has(root.localName)
  for (let c = root.lastElementChild; c !== null; c = c.previousElementSibling) {
    stack.push(c)
    sectioned.push(rootSectioned)
    linked.push(undefined)
  }
  while (stack.length > 0) {
    const element = stack.pop()!
    const inSection = sectioned.pop()!
    const inLink = linked.pop()
    if (gone.has(element)) continue
    const name = element.localName
    const s = of(element)
    if (drop(element, name, s, total, inSection, options, opening)) {
      removals.push(element)
      continue
    }
    // A section a heading names: the element it leads, when it holds no other heading of its level or above;
    // the heading itself, with its following siblings up to one that holds such a heading, when it leads nothing.
    const lead = s.lead
    if (options.sectionNames !== undefined && lead !== undefined && isNamed(lead, options.sectionNames)) {
      const level = Number(lead.localName[1])
      // A wrapper of the heading alone (`<div class="title"><h2>Related</h2></div>`) leads what follows it.
      const alone = s.text === of(lead).text
      if (!alone && atOrAbove(s.levels, level) === 1) {
        removals.push(element)
        continue
      }
      if (alone) {
        removals.push(element)
        for (let next = element.nextElementSibling; next !== null; next = next.nextElementSibling) {
          if (atOrAbove(of(next).levels, level) > 0) break
          gone.add(next)
          removals.push(next)
        }
        continue
      }
    }
    // A leaf block met before, word for word.
    if (!s.blocks && !inlineTags.has(name) && s.text >= minRepeatChars && options.keep?.(element) !== true) {
      const key = collapse(element.textContent ?? "")
      if (seen.has(key)) {
        removals.push(element)
        continue
      }
      seen.add(key)
    }
    if (inLink !== undefined && headings.has(name)) {
      // The link's first heading only: it is turned inside out once.
      if (!turned.has(inLink)) {
        turned.add(inLink)
        linkedHeadings.push([inLink, element])
      }
      continue
    }
    const below = inSection || sectioning.has(name)
    const link = inLink ?? (name === "a" && element.hasAttribute("href") ? element : undefined)
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) {
      stack.push(c)
      sectioned.push(below)
      linked.push(link)
    }
  }
  for (const element of removals) element.parentNode?.removeChild(element)
  for (const [link, heading] of linkedHeadings) insideOut(link, heading)
}

/**
 * A link around a heading (`<a href><img><h3>Name</h3><span>$9</span></a>`, a card's whole face) becomes the
 * heading around the link (`<h3><a href>Name</a></h3><span>$9</span>`): markdown has no heading inside a link. The
 * link's other content stays where it was, unlinked.
 */
const insideOut = (link: Element, heading: Element): void => {
  // Both were met in the walk, the heading under the link; only a removal (of either, or of what holds them) came
  // since, and a removed element is left as it is.
  const parent = link.parentNode
  if (parent === null || heading.parentNode === null) return
  const inner = link.ownerDocument.createElement("a")
  inner.setAttribute("href", link.getAttribute("href") ?? "")
  while (heading.firstChild !== null) inner.appendChild(heading.firstChild)
  heading.appendChild(inner)
  while (link.firstChild !== null) parent.insertBefore(link.firstChild, link)
  parent.removeChild(link)
}

const startsChrome = (word: string, chrome: ReadonlySet<string>): boolean => {
  for (const w of chrome) if (word.length > w.length && word.startsWith(w)) return true
  return false
}

/** A block reads as text from this many characters outside links ... */
export const minTextChars = 200
/** ... with less than this share of its text in links. */
export const maxTextLinkShare = 0.5

/** ... in words of at most this many characters on average (not a list of addresses or codes). */
export const maxTextWordLength = 12

const readsAsText = (s: Stats): boolean =>
  s.text - s.link >= minTextChars && s.link < s.text * maxTextLinkShare && s.text <= s.words * maxTextWordLength

const drop = (
  element: Element,
  name: string,
  s: Stats,
  total: number,
  inSection: boolean,
  options: Options,
  opening: (text: Node) => OpeningLine.Opening
): boolean => {
  if (media.has(name) || chromeTags.has(name) || skipped.has(name)) return true
  // Hidden until a click: a tab's or an accordion's panel (a description, specifications, an answer) is content
  // when it reads as text; a hidden menu, tooltip or dropdown is short or mostly links.
  if (isHidden(element) && !readsAsText(s)) return true
  const small = s.text < total * maxChromeShare
  if ((name === "form" || (name === "header" && !inSection)) && small) return true
  // A list item without text: a logo strip's, a carousel's dots.
  if (name === "li" && s.text === 0) return true
  if (options.keep?.(element) === true) return false
  // A banner about cookies, even on a page with little else (one that holds most of the page is a consent wall, for
  // the article path to answer as it does); a copyright line, wherever the page put it.
  if (s.text <= OpeningLine.maxConsentChars && s.text < total * OpeningLine.maxConsentShare && s.first !== undefined) {
    const opens = opening(s.first)
    if (opens === "consent" || (opens === "legal" && s.text <= OpeningLine.maxLegalChars)) return true
  }
  if (small) {
    const words = tokens(element)
    // A word may be the start of a compound one (`cookiebanner`, `modalwrapper`, `newsletterform`).
    if (words.some((t) => options.chromeWords.has(t) || startsChrome(t, options.chromeWords))) return true
    const parts = options.partWords
    if (parts !== undefined && !readsAsText(s) && words.some((t) => parts.has(t))) return true
  }
  return (
    options.linkBlocks === true &&
    !inlineTags.has(name) &&
    s.links >= minLinkBlockLinks &&
    s.text > 0 &&
    s.link >= s.text * minLinkBlockShare
  )
}
