/**
 * The rules `boilerplate.ts`'s pruning applies: hidden elements and hover cards, captions, link blocks and teasers,
 * boilerplate after the article, title, byline and dateline lines at its top, section labels; and the embedded
 * posts' wrappers kept from Readability. Each rule looks at one element's facts, gathered once per pass: linear.
 */
import { type Facts, hoverTokens, isCaption, isEmbed, isHidden, mayStart, type Rule, startSet } from "./boilerplate.js"
import * as TagWalk from "./tagWalk.js"

/** Hidden elements and hover cards: text nobody sees in the reading flow. */
export const hiddenRule: Rule = (element, facts) => isHidden(element) || facts.words().some((t) => hoverTokens.has(t))

/**
 * Captions, photo credits, slide counters and galleries, unless the caller keeps them. Not headings: a heading's
 * "caption" class word names a type size (`caption-s5`), and a heading is no caption.
 */
export const captionRule: Rule = (element, facts) =>
  !facts.context.keepCaptions &&
  !headings.has(element.localName) &&
  facts.stats.text < 600 &&
  isCaption(
    element,
    facts.stats.text <= 40 && mayStart(facts.first(), counterStarts) ? facts.text() : undefined,
    facts.words()
  )

// What a slide counter ("Photo 3 of 12", "2/9") starts with: a digit or its label's first letter.
const counterStarts = startSet("0123456789bfips")

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

/** Navigation left inside the article: a `nav` or `menu` element mostly of links (a section menu, tab links). */
export const navRule: Rule = (element, facts) =>
  (element.localName === "nav" || element.localName === "menu") && facts.stats.link >= facts.stats.text * 0.5

/** A pager link's whole text: where it leads in a sequence of pages, not what it leads to. */
const pagerWord =
  /^(?:[«‹←<]\s*)?(?:prev|previous|next|up|home|top|back|zurück|weiter|précédent|suivant|anterior|siguiente)(?:\s*[»›→>])?$/i
/** The pager words that lead forward and back: a pager has one of each. */
const forward = /next|weiter|suivant|siguiente|[»›→>]/i
const backward = /prev|back|zurück|précédent|anterior|[«‹←<]/i

/** Nodes a pager table is read through before it is taken for something else. */
const maxPagerNodes = 200

/**
 * A pager set as a table (the "Prev | Up | Home | Next" rows generated documentation puts above and below each page):
 * a short table whose links are all pager words, one leading forward and one back (a table of keys with an "Up" and
 * a "Home" link is no pager). Read through at most `maxPagerNodes` nodes.
 */
export const pagerRule: Rule = (element, facts) => {
  if (element.localName !== "table" || facts.stats.link === 0 || facts.stats.text > 300) return false
  let ahead = false
  let behind = false
  let nodes = 0
  const stack: Array<Element> = [element]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (++nodes > maxPagerNodes) return false
    if (node.localName !== "a") {
      for (let c = node.firstElementChild; c !== null; c = c.nextElementSibling) stack.push(c)
      continue
    }
    // The link's text, its nodes counted against the same budget.
    let text = ""
    const inside: Array<Node> = [node]
    while (inside.length > 0) {
      const n = inside.pop()!
      if (++nodes > maxPagerNodes) return false
      if (n.nodeType === 3) text += (n as CharacterData).data
      else for (let c = n.lastChild; c !== null; c = c.previousSibling) inside.push(c)
    }
    const word = text.replace(/\s+/g, " ").trim()
    if (!pagerWord.test(word)) return false
    ahead ||= forward.test(word)
    behind ||= backward.test(word)
  }
  return ahead && behind
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
  "abo",
  // Post-meta rows under a post ("This entry was posted in …", "Der Beitrag wurde am … veröffentlicht"), the likes
  // row, an author's profile box.
  "postmetadata",
  "postmeta",
  "utility",
  "likes",
  "profile"
])

/** Text outside links past which a block named as trailing boilerplate is taken for the article it wraps. */
export const maxTrailingProse = 1000

/** A copyright or citation line, at the start of a block's text. */
export const legalLine =
  /^(?:©|\(c\)\s|copyright\b|all rights reserved|alle rechte vorbehalten|cite this|zitiervorschlag|zitierweise)/i

// What a {@link legalLine} starts with besides "©": "(c)", "copyright", "all …", "alle …", "cite …", "zitier…".
const legalStarts = startSet("(acz")

/**
 * Boilerplate around the article: author bios, newsletter sign-ups, about boxes, share and tag rows (by their
 * class/id words, when they hold a small part of the article's text, less than `maxTrailingProse` outside links, and
 * no embedded post), and copyright and citation lines.
 */
export const trailingRule: Rule = (_, facts) => {
  const { stats } = facts
  if (stats.text <= 200 && mayStart(facts.first(), legalStarts) && legalLine.test(facts.head())) return true
  if (stats.text >= facts.total * 0.25) return false
  const words = facts.words()
  if (words.length === 0 || !words.some((t) => trailingTokens.has(t) || (t === "author" && words.length > 1)))
    return false
  // A bio, a share row or a tag list is short: this much text outside links is the article in a wrapper named for
  // its author or its share buttons (`author-jane-doe`, `sharingContainer`). (Long comments stay out all the same:
  // Readability drops them as unlikely candidates, and our own block counts them as chrome.)
  if (stats.text - stats.link >= maxTrailingProse) return false
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
  // `withTags`, not `getElementsByTagName`: linkedom's upper-cases the name of every element it passes.
  for (const embed of TagWalk.withTags(root, ["blockquote"]).filter(isEmbed)) {
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
