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

/**
 * Lower-case tokens of an element's class and id, split at `-`, `_`, spaces and camelCase humps. An id of more
 * than three words is a slug of a heading ("worrying-about-your-tail"), not a name for the element's role: left out.
 */
export const tokens = (element: Element): ReadonlyArray<string> => {
  const cls = element.getAttribute("class")
  const id = element.getAttribute("id")
  if ((cls === null || cls === "") && (id === null || id === "")) return none
  return tokensOf(cls ?? "", id ?? "")
}

const none: ReadonlyArray<string> = []

// Pages repeat a handful of class names over thousands of elements: their tokens are worked out once. Bounded, so
// a page of unique class names cannot grow it past a few thousand entries.
const tokenCache = new Map<string, ReadonlyArray<string>>()

const tokensOf = (cls: string, id: string): ReadonlyArray<string> => {
  if (cls.length + id.length > 400) return none
  const key = cls + "#" + id
  const cached = tokenCache.get(key)
  if (cached !== undefined) return cached
  const out = cls === "" ? [] : words(cls)
  if (id !== "") {
    const own = words(id)
    if (own.length <= 3) out.push(...own)
  }
  if (tokenCache.size >= 4096) tokenCache.clear()
  tokenCache.set(key, out)
  return out
}

const classNames = (element: Element): ReadonlyArray<string> => {
  const cls = element.getAttribute("class")
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
  if (element.hasAttribute("hidden") || element.getAttribute("aria-hidden") === "true") return true
  const style = element.getAttribute("style")
  if (style !== null && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)) return true
  const cls = element.getAttribute("class")
  return cls !== null && cls !== "" && cls.length <= 400 && hides(cls)
}

const hoverTokens = new Set(["rollover", "tooltip", "popover", "hovercard"])

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
  "legende"
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

/** Text and link-text lengths of every element under `root`, bottom-up without recursion. */
const gather = (root: Element): Map<Element, Stats> => {
  const stats = new Map<Element, Stats>()
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
    let text = 0
    let link = 0
    let embed = isEmbed(top.node)
    const inLink = top.node.localName === "a"
    for (let c = top.node.firstChild; c !== null; c = c.nextSibling) {
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
    stats.set(top.node, { text, link, embed })
  }
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
  }
  text(): string {
    return (this.cachedText ??= this.stats.text === 0 ? "" : textOf(this.element!, 300))
  }
  head(): string {
    // 120 characters of text hold 40 collapsed ones but in rare markup (blank nodes count as one); reading fewer
    // matters on the whole page, where most elements are tested.
    return this.cachedText ?? (this.stats.text === 0 ? "" : textOf(this.element!, 120))
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

/** Hidden elements and hover cards: text nobody sees in the reading flow. */
export const hiddenRule: Rule = (element, facts) => isHidden(element) || facts.words().some((t) => hoverTokens.has(t))

/** Captions, photo credits, slide counters and galleries, unless the caller keeps them. */
export const captionRule: Rule = (element, facts) =>
  !facts.context.keepCaptions &&
  facts.stats.text < 600 &&
  isCaption(element, facts.stats.text <= 40 ? facts.text() : undefined, facts.words())

const teaserLabel =
  /^(?:read more|read also|also read|read next|see also|related|more from|more on|more:|recommended|you may also like|you might also like|most popular|most read|lesen sie (?:auch|mehr|hier)|mehr zum thema|mehr dazu|mehr aus|mehr von|auch interessant|weiterlesen|weitere artikel|weitere meldungen|zum thema|meistgelesen|das könnte sie auch interessieren|lire aussi|à lire aussi|voir aussi|czytaj (?:też|także|więcej))\b/i

const relatedTokens = new Set([
  "related",
  "teaser",
  "teasers",
  "recommended",
  "recommendations",
  "promo",
  "readmore",
  "outbrain",
  "taboola",
  "morestories",
  "trending",
  "popular"
])

const density = (facts: Facts): number => (facts.stats.text === 0 ? 0 : facts.stats.link / facts.stats.text)

/** Whether every letter of `s` is upper case (a teaser line: "READ MORE: …", "WATCH"). */
const shouting = (s: string): boolean => /\p{Lu}/u.test(s) && !/\p{Ll}/u.test(s)

/**
 * Links kept inside the body: teaser lines ("READ MORE: …"), all-caps link lines, link-only lists after the main
 * text, and related-story blocks (by their class/id words) that are mostly links.
 */
export const linkRule: Rule = (element, facts) => {
  const { stats } = facts
  if (stats.text === 0 || stats.link === 0) return false
  const name = element.localName
  const d = density(facts)
  if (stats.text <= 200 && d >= 0.3 && teaserLabel.test(facts.text())) return true
  if ((name === "p" || name === "div" || name === "li") && stats.text <= 160 && d >= 0.95 && shouting(facts.text()))
    return true
  if ((name === "ul" || name === "ol") && d >= 0.9 && facts.before >= facts.total * 0.6) {
    let items = 0
    for (let c = element.firstElementChild; c !== null; c = c.nextElementSibling) if (c.localName === "li") items++
    if (items >= 2) return true
  }
  return d >= 0.3 && stats.text < facts.total * 0.3 && facts.words().some((t) => relatedTokens.has(t))
}

const trailingTokens = new Set([
  "bio",
  "biography",
  "authorbox",
  "newsletter",
  "subscribe",
  "subscription",
  "signup",
  "share",
  "sharing",
  "sharebar",
  "social",
  "tags",
  "taglist",
  "keywords",
  "schlagworte",
  "about",
  "copyright",

  "disclaimer",

  "comments",
  "donate",
  "abo"
])

const legalLine =
  /^(?:©|\(c\)\s|copyright\b|all rights reserved|alle rechte vorbehalten|cite this|zitiervorschlag|zitierweise)/i

/**
 * Boilerplate around the article: author bios, newsletter sign-ups, about boxes, share and tag rows (by their
 * class/id words, when they hold a small part of the article's text and no embedded post), and copyright and
 * citation lines.
 */
export const trailingRule: Rule = (_, facts) => {
  const { stats } = facts
  if (stats.text <= 200 && legalLine.test(facts.head())) return true
  if (stats.text >= facts.total * 0.25) return false
  const words = facts.words()
  if (words.length === 0 || !words.some((t) => trailingTokens.has(t) || (t === "author" && words.length > 1)))
    return false
  // An embedded post (a tweet in a "social" wrapper) is content.
  return !stats.embed
}

const normalize = (s: string): string => s.replace(/\s+/g, " ").trim().toLowerCase()

const date =
  /\b\d{1,2}\.\s?(?:\d{1,2}\.\s?\d{2,4}|(?:jan|feb|mär|mar|apr|mai|may|jun|jul|aug|sep|okt|oct|nov|dez|dec)\p{L}*)|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\p{L}*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\p{L}*\.?\s+\d{4}/iu

const datelineWord =
  /\b(?:updated|posted|published|publié|veröffentlicht|aktualisiert|stand|erstellt|geschrieben|zuletzt|modified|opublikowano)\b/i

// "By Jane Doe", "VON Sina Giebel", "Autor: Max Muster": the word, then a capitalised name.
const bylineStart = /^(?:von|by|par|por|door|di|przez|autor|autorin|author|text)(?::|\s)\s*\p{Lu}/u
const readingTime =
  /^(?:\d{1,3}\s*(?:min(?:ute)?s?|minuten)\.?\s*(?:read|lesezeit|de lecture)|(?:lesezeit|reading time|temps de lecture)\b|ten tekst przeczytasz)/i

const blockNames = new Set([
  "p",
  "div",
  "span",
  "time",
  "small",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "address"
])

/**
 * Title, byline and dateline repeated at the top of the body (they belong in metadata), and datelines at its end.
 */
export const headRule: Rule = (element, facts) => {
  const { stats } = facts
  if (stats.text === 0 || stats.text > 200 || !blockNames.has(element.localName)) return false
  const top = facts.before <= Math.min(600, facts.total * 0.2)
  const end = facts.before >= facts.total * 0.9
  if (!top && !end) return false
  const text = facts.text()
  if (top) {
    const { byline, title } = facts.context
    if (title !== undefined && normalize(text) === normalize(title)) return true
    if (byline !== undefined && byline.length >= 3 && text.length <= byline.length + 60 && text.includes(byline))
      return true
    if (
      text.length <= 120 &&
      (bylineStart.test(text.replace(/^\S+/, (w) => w.toLowerCase())) || readingTime.test(text))
    )
      return true
  }
  if (element.localName === "time") return true
  if (!date.test(text) || text.length > 120) return false
  // A dateline is mostly its date: a name and a time beside it at the top, a word or two at the end.
  const rest = text.replace(date, "").replace(/[^\p{L}]/gu, "").length
  return datelineWord.test(text) || rest < (top ? 25 : 12)
}

const sectionLabel =
  /^(?:related(?: articles| posts| stories| content| news)?|more (?:from|on|stories|news|articles)\b.*|read more|recommended(?: for you)?|you (?:may|might) also like|most (?:popular|read|viewed)|popular (?:posts|articles)|recent (?:posts|articles)|latest (?:news|posts|articles)|share(?: this(?: article| post)?)?|tags?|topics|about the author|über den autor|zum autor|das könnte (?:sie|dich) auch interessieren|das thema könnte dich auch interessieren|auch interessant|ähnliche (?:beiträge|artikel|themen)|verwandte (?:beiträge|artikel|themen)|weitere (?:artikel|beiträge|meldungen|nachrichten|themen|informationen|links)|mehr zum thema|mehr (?:aus|von|zu|zum) .*|neueste beiträge|neue beiträge|die neuesten meldungen|meistgelesen(?:e)?|schlagworte|schlagwörter|themen|kommentare|(?:keine )?kommentare(?: schreiben)?|comments?|weiterführende (?:links|informationen)|zum weiterlesen|mehr themen|neueste (?:artikel|beiträge)|leave a (?:comment|reply)|newsletter|teilen|diesen artikel teilen|podziel się|lire aussi|à lire aussi|voir aussi|sur le même sujet|noticias relacionadas|te puede interesar)\s*:?$/i

const headings = new Set(["h1", "h2", "h3", "h4", "h5", "h6"])

/**
 * A heading that names a boilerplate section ("Related articles", "Mehr zum Thema", "Über den Autor") in the second
 * half of the article: dropped with the link-dense or short blocks that follow it.
 */
export const sectionRule: Rule = (element, facts) => {
  const { stats } = facts
  if (stats.text === 0 || stats.text > 80 || facts.before < facts.total * 0.5) return false
  const name = element.localName
  if (!headings.has(name) && !((name === "p" || name === "div" || name === "strong") && stats.link === 0)) return false
  return sectionLabel.test(facts.text()) ? "section" : false
}

// Readability's "unlikely candidate" words that publishers use for the wrappers of embedded posts.
const unlikelyWrapper = /social|share|embed|sponsor|extra|related|sidebar|community|remark/i

/**
 * Embedded posts (tweets, Instagram and TikTok posts) sit in wrappers whose class says "social" or "embed", which
 * Readability removes unread: those words are taken off the embed's nearest ancestors (at most 6) first.
 */
export const protectEmbeds = (root: Element): void => {
  // By tag, then class: a selector list is matched against every element of the page, and costs more than this.
  for (const embed of Array.from(root.getElementsByTagName("blockquote")).filter(isEmbed)) {
    let node: Element | null = embed
    for (let level = 0; level < 7 && node !== null && node !== root; level++, node = node.parentElement) {
      const words = `${node.getAttribute("class") ?? ""} ${node.getAttribute("id") ?? ""}`
      if (words.length <= 400 && unlikelyWrapper.test(words)) {
        node.removeAttribute("class")
        node.removeAttribute("id")
      }
    }
  }
}
