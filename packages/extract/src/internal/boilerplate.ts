/**
 * Boilerplate left inside the article Readability found: general signals (class/id tokens, link density, text
 * position relative to the article's text, repetition of the title or byline), never a page's own markup. Two
 * passes over the subtree, each linear in its size: one gathers text and link-text lengths bottom-up, one decides
 * top-down and removes (a removed element's subtree is not visited).
 */

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

const words = (raw: string): Array<string> =>
  raw
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== "")

// Words that make the rest of a class name a modifier, not the element's role: `main-with-sidebar`, `has-comments`
// and `no-sidebar` name a block beside a sidebar or comments (often the article), not one; `format-gallery` (on a
// WordPress post and its page's body) names the post's format.
const modifiers = new Set(["with", "has", "no", "without", "format"])

/** A class attribute's words, each class name's cut before its first modifier word. */
const classWords = (cls: string): Array<string> => {
  const out: Array<string> = []
  for (const name of cls.split(/\s+/)) {
    for (const word of words(name)) {
      if (modifiers.has(word)) break
      out.push(word)
    }
  }
  return out
}

/**
 * Lower-case tokens of an element's class and id, split at `-`, `_`, spaces and camelCase humps; a class name's
 * words after a modifier ("with", "has", "no", "without") are left out. An id of more than three words is a slug of
 * a heading ("worrying-about-your-tail"), not a name for the element's role: left out.
 */
export const tokens = (element: Element): ReadonlyArray<string> => {
  const cls = attribute(element, "class")
  const id = attribute(element, "id")
  if ((cls === null || cls === "") && (id === null || id === "")) return none
  return tokensOf(cls ?? "", id ?? "")
}

/**
 * An attribute's text, read from its node. For `class`, linkedom's `getAttribute` joins the element's class list
 * anew on every call, which cost more than the rules that read it; the node holds the same text (linkedom's parser
 * sets every class attribute through the list, and every change of the list is written back to the node).
 */
export const attribute = (element: Element, name: string): string | null =>
  element.getAttributeNode(name)?.value ?? null

const none: ReadonlyArray<string> = []

// Pages repeat a handful of class names over thousands of elements: their tokens are worked out once. Bounded, so
// a page of unique class names cannot grow it past a few thousand entries. Most elements have no id: theirs are
// looked up by the class attribute alone (no key to build), and an id's own words are added to the class's.
const classCache = new Map<string, ReadonlyArray<string>>()
const tokenCache = new Map<string, ReadonlyArray<string>>()

const remember = (cache: Map<string, ReadonlyArray<string>>, key: string, value: ReadonlyArray<string>) => {
  if (cache.size >= 4096) cache.clear()
  cache.set(key, value)
  return value
}

const tokensOf = (cls: string, id: string): ReadonlyArray<string> => {
  if (cls.length + id.length > 400) return none
  const ofClass = cls === "" ? none : (classCache.get(cls) ?? remember(classCache, cls, classWords(cls)))
  if (id === "") return ofClass
  const key = cls + "#" + id
  const cached = tokenCache.get(key)
  if (cached !== undefined) return cached
  const own = words(id)
  return remember(tokenCache, key, own.length <= 3 ? [...ofClass, ...own] : ofClass)
}

const classNames = (element: Element): ReadonlyArray<string> => {
  const cls = attribute(element, "class")
  return cls === null || cls === "" ? none : cls.toLowerCase().split(/\s+/)
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
  // Post-order: an element is finished once all its children are.
  const stack: Array<{ readonly node: Element; visited: boolean }> = [{ node: root, visited: false }]
  while (stack.length > 0) {
    const top = stack[stack.length - 1]
    if (!top.visited) {
      top.visited = true
      for (let c = top.node.firstElementChild; c !== null; c = c.nextElementSibling) {
        stack.push({ node: c, visited: false })
      }
      continue
    }
    stack.pop()
    finish(top.node)
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
}

class ElementFacts implements Facts {
  stats: Stats = { text: 0, link: 0, embed: false }
  before = 0
  private element: Element | undefined
  private cachedText: string | undefined
  private cachedWords: ReadonlyArray<string> | undefined
  private cachedHead: string | undefined
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
}

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
