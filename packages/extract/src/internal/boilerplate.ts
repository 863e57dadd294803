/**
 * Boilerplate left inside the article Readability found: general signals (class/id tokens, link density, text
 * position relative to the article's text, repetition of the title or byline), never a page's own markup. Two
 * passes over the subtree, each linear in its size: one gathers text and link-text lengths bottom-up, one decides
 * top-down and removes (a removed element's subtree is not visited).
 */
import * as ClassTokens from "./classTokens.js"

const ELEMENT = 1
const TEXT = 3

/** What the passes know of the page. */
export interface Context {
  readonly title: string | undefined
  readonly byline: string | undefined
  /** Keep figure captions, photo credits and galleries. */
  readonly keepCaptions: boolean
}

interface Stats {
  /** Characters of text, whitespace runs counted once. */
  readonly text: number
  /** Characters of text inside links. */
  readonly link: number
  /** Holds an embedded post (a tweet, an Instagram or TikTok post). */
  readonly embed: boolean
}

/** An embedded post, which publishers wrap in "social" containers that are content all the same. */
export const isEmbed = (element: Element): boolean =>
  element.localName === "blockquote" &&
  classNames(element).some((c) => c === "twitter-tweet" || c === "instagram-media" || c === "tiktok-embed")

/**
 * Lower-case tokens of an element's class and id, split at `-`, `_`, spaces and camelCase humps; a class name's
 * words after a modifier ("with", "has", "no", "without") are left out. An id of more than three words is a slug of
 * a heading ("worrying-about-your-tail"), not a name for the element's role: left out.
 */
export const tokens = (element: Element): ReadonlyArray<string> => {
  // Most elements have no attribute at all: one look, not two searches of the attribute list.
  if (!element.hasAttributes()) return ClassTokens.none
  const cls = attribute(element, "class")
  const id = attribute(element, "id")
  if ((cls === null || cls === "") && (id === null || id === "")) return ClassTokens.none
  return ClassTokens.of(cls ?? "", id ?? "")
}

/**
 * An attribute's text, read from its node. For `class`, linkedom's `getAttribute` joins the element's class list
 * anew on every call, which cost more than the rules that read it; the node holds the same text (linkedom's parser
 * sets every class attribute through the list, and every change of the list is written back to the node).
 */
export const attribute = (element: Element, name: string): string | null =>
  element.getAttributeNode(name)?.value ?? null

const classNames = (element: Element): ReadonlyArray<string> => {
  const cls = attribute(element, "class")
  return cls === null || cls === "" ? ClassTokens.none : cls.toLowerCase().split(/\s+/)
}

// Utility classes that hide an element outright (not responsive ones such as `hidden-xs`, which hide it on one
// screen size only).
const hidingClasses = new Set([
  "hidden",
  "d-none",
  "sr-only",
  "dn",
  "visually-hidden",
  "visuallyhidden",
  "screen-reader-text",
  "screenreader-only",
  "is-hidden",
  "u-hidden",
  "hide",
  "invisible",
  "element-invisible",
  "offscreen"
])

// Whether a class attribute names a hiding class, per distinct attribute value (bounded like `tokenCache`).
const hidingCache = new Map<string, boolean>()

const hides = (cls: string): boolean => {
  let verdict = hidingCache.get(cls)
  if (verdict === undefined) {
    verdict = cls
      .toLowerCase()
      .split(/\s+/)
      .some((name) => hidingClasses.has(name))
    if (hidingCache.size >= 4096) hidingCache.clear()
    hidingCache.set(cls, verdict)
  }
  return verdict
}

/** Hidden by an attribute, an inline style or a hiding utility class. */
export const isHidden = (element: Element): boolean => {
  if (!element.hasAttributes()) return false
  if (element.hasAttribute("hidden") || attribute(element, "aria-hidden") === "true") return true
  const style = attribute(element, "style")
  if (style !== null && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)) return true
  const cls = attribute(element, "class")
  return cls !== null && cls !== "" && cls.length <= 400 && hides(cls)
}

export const hoverTokens: ReadonlySet<string> = new Set(["rollover", "tooltip", "popover", "hovercard"])

/** A hover card (its text shows on hover, not in the reading flow). */
export const isHoverCard = (element: Element): boolean => tokens(element).some((t) => hoverTokens.has(t))

const captionTokens = new Set([
  "caption",
  "captions",
  "figcaption",
  "credit",
  "credits",
  "bildunterschrift",
  "bildnachweis",
  "legende",
  "legend",
  "imagedescription"
])

const counter = /^(?:(?:image|photo|picture|slide|bild|foto|photo)\s*)?\d{1,3}\s*(?:of|von|\/|sur|de|z|van)\s*\d{1,3}$/i

/**
 * A caption, a photo credit or a slide counter. (Not a gallery or slideshow as a whole: on a slideshow page its
 * slides are the article.)
 */
export const isCaption = (
  element: Element,
  text: string | undefined,
  words: ReadonlyArray<string> = tokens(element)
): boolean => {
  const name = element.localName
  if (name === "figcaption") return true
  if (text !== undefined && counter.test(text)) return true
  return words.some((t) => captionTokens.has(t))
}

// Elements whose text is set apart from what surrounds them: the indentation between them is not in the page's
// text (see `blankRuns.ts`), so reading their text puts the space in.
const separated = new Set([
  "p",
  "div",
  "li",
  "ul",
  "ol",
  "dl",
  "dt",
  "dd",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "section",
  "article",
  "header",
  "footer",
  "aside",
  "nav",
  "table",
  "tr",
  "td",
  "th",
  "blockquote",
  "figure",
  "figcaption",
  "br",
  "hr",
  "P",
  "DIV"
])

/** Plain text of a subtree with whitespace collapsed, iteratively and at most `max` characters. */
const textOf = (root: Node, max: number): string => {
  let out = ""
  // `null`: the end of a separated element.
  const stack: Array<Node | null> = [root]
  while (stack.length > 0 && out.length < max) {
    const node = stack.pop()!
    if (node === null) {
      out += " "
      continue
    }
    if (node.nodeType === TEXT) {
      // A blank node (indentation between tags) counts as the one space it collapses to, not toward `max`.
      const data = (node as CharacterData).data
      out += data.trim() === "" ? " " : data
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    if (node !== root && separated.has((node as Element).localName)) {
      out += " "
      stack.push(null)
    }
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return out.slice(0, max).replace(/\s+/g, " ").trim()
}

/** Calls `finish` on every element under `root` (and `root`) after all its children, without recursion. */
export const bottomUp = (root: Element, finish: (element: Element) => void): void => {
  // Post-order: an element is finished once all its children are. Two parallel stacks (the element, and whether its
  // children are pushed), not an object per element: every pass over a page walks it this way.
  const nodes: Array<Element> = [root]
  const visited: Array<boolean> = [false]
  while (nodes.length > 0) {
    const top = nodes.length - 1
    const node = nodes[top]
    if (!visited[top]) {
      visited[top] = true
      for (let c = node.firstElementChild; c !== null; c = c.nextElementSibling) {
        nodes.push(c)
        visited.push(false)
      }
      continue
    }
    nodes.pop()
    visited.pop()
    finish(node)
  }
}

/** Text and link-text lengths of every element under `root`, bottom-up without recursion. */
const gather = (root: Element): Map<Element, Stats> => {
  const stats = new Map<Element, Stats>()
  bottomUp(root, (element) => {
    let text = 0
    let link = 0
    let embed = isEmbed(element)
    const inLink = element.localName === "a"
    for (let c = element.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === TEXT) {
        // Trimmed length: whitespace between tags is not text; runs inside a text are few and count little.
        const n = (c as CharacterData).data.trim().length
        text += n
        if (inLink) link += n
      } else if (c.nodeType === ELEMENT) {
        const s = stats.get(c as Element)
        if (s === undefined) continue
        text += s.text
        link += inLink ? s.text : s.link
        embed ||= s.embed
      }
    }
    stats.set(element, { text, link, embed })
  })
  return stats
}

/**
 * One removal rule: given an element, its stats and where its text starts in the article's, whether to drop it;
 * `"section"` drops it with the link-dense or short siblings that follow it (a "Related" heading and its list).
 */
export type Rule = (element: Element, facts: Facts) => boolean | "section"

/** What a rule knows of an element. */
export interface Facts {
  readonly stats: Stats
  /** Characters of article text before this element. */
  readonly before: number
  /** Characters of article text in all. */
  readonly total: number
  readonly context: Context
  /** The element's collapsed text, at most 300 characters. */
  readonly text: () => string
  /** The start of the element's collapsed text (at least its first 40 characters, when it has them). */
  readonly head: () => string
  /** The element's class/id {@link tokens}. */
  readonly words: () => ReadonlyArray<string>
  /**
   * The code of the first character of the element's text that is not whitespace, -1 when it has none: what
   * {@link text} and {@link head} start with when they are not empty. Cheaper than either, for a rule that tests
   * their start: most elements are ruled out by it before their text is read.
   */
  readonly first: () => number
}

/** The code of the first character of `root`'s text that is not whitespace (as `\s` reads it), or -1. */
const firstChar = (root: Node): number => {
  const stack: Array<Node> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === TEXT) {
      const data = (node as CharacterData).data
      const at = data.search(/\S/)
      if (at >= 0) return data.charCodeAt(at)
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return -1
}

class ElementFacts implements Facts {
  stats: Stats = { text: 0, link: 0, embed: false }
  before = 0
  private element: Element | undefined
  private cachedText: string | undefined
  private cachedWords: ReadonlyArray<string> | undefined
  private cachedHead: string | undefined
  private cachedFirst: number | undefined
  constructor(
    readonly total: number,
    readonly context: Context
  ) {}
  reset(element: Element, stats: Stats, before: number) {
    this.element = element
    this.stats = stats
    this.before = before
    this.cachedText = undefined
    this.cachedWords = undefined
    this.cachedHead = undefined
    this.cachedFirst = undefined
  }
  text(): string {
    return (this.cachedText ??= this.stats.text === 0 ? "" : textOf(this.element!, 300))
  }
  head(): string {
    // 120 characters of text hold 40 collapsed ones but in rare markup (blank nodes count as one); reading fewer
    // matters on the whole page, where most elements are tested.
    return this.cachedText ?? (this.cachedHead ??= this.stats.text === 0 ? "" : textOf(this.element!, 120))
  }
  words(): ReadonlyArray<string> {
    return (this.cachedWords ??= tokens(this.element!))
  }
  first(): number {
    return (this.cachedFirst ??= this.stats.text === 0 ? -1 : firstChar(this.element!))
  }
}

/**
 * Whether a text starting with the character `code` (from {@link Facts.first}) may start with one of `starts`
 * (ASCII characters, matched in either case, as a case-insensitive expression matches them): a rule reads the text
 * only then. A character outside ASCII may be any of them after case folding (`ſ` is an `s`): always read.
 */
export const mayStart = (code: number, starts: ReadonlySet<number>): boolean =>
  code >= 128 || (code >= 0 && starts.has(code >= 65 && code <= 90 ? code + 32 : code))

/** The characters of `chars` (lower-case letters and other ASCII characters), for {@link mayStart}. */
export const startSet = (chars: string): ReadonlySet<number> => new Set(Array.from(chars, (c) => c.charCodeAt(0)))

/**
 * Removes, top-down, every element under `root` (not `root` itself) that a rule drops; returns how many were.
 */
export const prune = (root: Element, context: Context, rules: ReadonlyArray<Rule>): number => {
  const stats = gather(root)
  const total = stats.get(root)?.text ?? 0
  let before = 0
  let removed = 0
  const gone = new Set<Node>()
  // One facts object, reset per element: rules read it synchronously and keep nothing.
  const facts = new ElementFacts(total, context)
  const stack: Array<Node> = []
  for (let c = root.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === TEXT) {
      before += (node as CharacterData).data.trim().length
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    const element = node as Element
    const own = stats.get(element) ?? { text: 0, link: 0, embed: false }
    if (gone.has(element)) {
      before += own.text
      continue
    }
    facts.reset(element, own, before)
    let verdict: boolean | "section" = false
    for (const rule of rules) if ((verdict = rule(element, facts)) !== false) break
    if (verdict !== false) {
      if (verdict === "section") {
        for (let next = element.nextElementSibling; next !== null;) {
          const s = stats.get(next)
          if (s === undefined || s.embed || (s.text > 200 && s.link < s.text * 0.4)) break
          const following: Element | null = next.nextElementSibling
          next.parentNode?.removeChild(next)
          gone.add(next)
          removed++
          next = following
        }
      }
      element.parentNode?.removeChild(element)
      before += own.text
      removed++
      continue
    }
    for (let c = element.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return removed
}
