/**
 * The parts of one forum post: its body (the text, below the wrappers that add the author's card and the post's
 * header), its author and time (wherever the forum software puts them), and the widgets around its text (votes,
 * reactions, signatures, share and reply rows, the author's card). Every look is bounded: a name or a date is read
 * from a few dozen nodes at most, so a post of nested look-alikes costs what its size does.
 */
import * as Boilerplate from "./boilerplate.js"
import * as PostStructure from "./postStructure.js"

const ELEMENT = 1
const TEXT = 3

/** Class words of what surrounds a post's text: votes, signatures, reactions, share and reply rows. */
const widgetWords = new Set([
  "signature",
  "sig",
  "signatures",
  "vote",
  "votes",
  "voting",
  "upvote",
  "downvote",
  "votecell",
  "score",
  "karma",
  "share",
  "sharing",
  "reactions",
  "reaction",
  "likes",
  "actions",
  "controls",
  "toolbar",
  "menu",
  "badge",
  "badges",
  "flair",
  "buttons",
  "icons"
])

/** An author's card holds at most this many characters (a name, a rank, a post count). */
export const maxCardChars = 200

/** Text lengths of every element under `root`, bottom-up. */
export const lengths = (root: Element): Map<Element, number> => {
  const out = new Map<Element, number>()
  Boilerplate.bottomUp(root, (element) => {
    let n = 0
    for (let c = element.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === TEXT) n += (c as Text).data.trim().length
      else if (c.nodeType === ELEMENT) n += out.get(c as Element) ?? 0
    }
    out.set(element, n)
  })
  return out
}

/** Blocks of text: a body holding two of them (or text of its own) is the post's text, not a wrapper around it. */
const textBlocks = new Set(["p", "pre", "ul", "ol", "blockquote", "table", "h1", "h2", "h3", "h4", "h5", "h6", "dl"])

/**
 * The post's body: from the post down, the child holding 80% (`share`) or more of the text, as deep as that goes, but
 * never into one block of text (a paragraph beside a code block is part of the body) nor below text of its own.
 */
export const bodyOf = (post: Element, size: Map<Element, number>, share = 0.8): Element => {
  let current = post
  for (;;) {
    const total = size.get(current) ?? 0
    let best: Element | undefined
    let most = 0
    let blocks = 0
    for (let c = current.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === TEXT) {
        if ((c as Text).data.trim() !== "") return current
        continue
      }
      if (c.nodeType !== ELEMENT) continue
      const element = c as Element
      if (textBlocks.has(element.localName)) blocks++
      const n = size.get(element) ?? 0
      if (n > most) {
        most = n
        best = element
      }
    }
    if (best === undefined || total === 0 || most < total * share || blocks >= 2 || textBlocks.has(best.localName)) {
      return current
    }
    current = best
  }
}

const collapse = (s: string): string => s.replace(/\s+/g, " ").trim()

/** Escapes what would read as markup in a line of plain text. */
export const inline = (s: string): string => s.replace(/[\\`*_[\]<]/g, "\\$&")

/** At most this many nodes are read for a name or a date. */
const maxNodes = 64

/** The text of a small element (a name, a date), or `undefined` when it holds more than a short text. */
const shortText = (element: Element): string | undefined => {
  let raw = ""
  let nodes = 0
  const stack: Array<Node> = [element]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (++nodes > maxNodes) return undefined
    if (node.nodeType === TEXT) {
      raw += (node as Text).data
      if (raw.length > PostStructure.maxShort * 4) return undefined
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  const text = collapse(raw)
  return text.length > 0 && text.length <= PostStructure.maxShort && /\p{L}/u.test(text) ? text : undefined
}

/** The first element under `root` (itself excluded) that `test` accepts, among its first few dozen nodes. */
const firstWithin = (root: Element, test: (element: Element) => boolean): Element | undefined => {
  let nodes = 0
  const stack: Array<Element> = []
  for (let c = root.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  while (stack.length > 0 && ++nodes <= maxNodes) {
    const element = stack.pop()!
    if (test(element)) return element
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  return undefined
}

/** Elements under `root` in document order, outside the subtrees `skip` says to pass over. */
export function* elementsOf(root: Element, skip: (element: Element) => boolean): Generator<Element> {
  const stack: Array<Element> = [root]
  while (stack.length > 0) {
    const element = stack.pop()!
    if (element !== root && skip(element)) continue
    yield element
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
}

/** Skips nothing. */
export const never = () => false

/** A quotation of another post: its author and time are not this post's. */
const isQuote = (element: Element): boolean =>
  element.localName === "blockquote" || Boilerplate.tokens(element).some((w) => w === "quote" || w === "bbcode")

/** A post's author and time, with the elements they were read from. */
export interface Signed {
  readonly author: { readonly element: Element; readonly name: string } | undefined
  /** The time's element, when it holds nothing else (to leave out of the body). */
  readonly time: { readonly element: Element | undefined; readonly text: string } | undefined
}

/** Class words of a member's details, whose dates are when they joined, not when they posted. */
const memberWords = new Set([
  "joined",
  "registered",
  "regdate",
  "joindate",
  "since",
  "profile",
  "postprofile",
  "userinfo",
  "authorinfo"
])

/**
 * A date that is not when the post was written: a member's, as a card labels it ("Registered: 2011-11-29", "Joined
 * Mar 2020", "Member since ..."), or an edit's ("Last edited by ada (2024-08-03 15:49)").
 */
const otherDate = /^(?:registered|joined|join date|member since|since|last edited|edited)\b/i

/** Whether an element is in an author's card: named as one itself or two levels up, or as a user's four levels up. */
const inCard = (element: Element): boolean => {
  let current: Element | null = element
  for (let up = 0; up < 4 && current !== null; up++, current = current.parentElement) {
    const words = Boilerplate.tokens(current)
    if (up < 3 && words.some((w) => memberWords.has(w))) return true
    if (words.includes("user") && words.some((w) => userCardWords.has(w))) return true
  }
  return false
}

/**
 * A time read from an attribute, for a script to show: its date when it is a machine's timestamp ("2024-04-17" of
 * "2024-04-17T11:38:44.717Z"); the seconds and the zone of a stamp the page never shows as such are noise to read.
 */
const machineDate = (text: string): string => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.exec(text)?.[0].slice(0, 10) ?? text

/** At most this many links of an author's element are read for a name. */
const maxLinksTried = 4

/** The first author (itemprop, then class words, then a profile link) and time (a time element, then a date). */
const signedIn = (elements: Iterable<Element>): Signed => {
  let byProp: Signed["author"]
  let byWord: Signed["author"]
  let byLink: Signed["author"]
  let time: Signed["time"]
  let dated: Signed["time"]
  for (const element of elements) {
    if (byProp === undefined && element.getAttribute("itemprop") === "author") {
      const named = firstWithin(element, (e) => e.getAttribute("itemprop") === "name")
      const name = shortText(named ?? element)
      if (name !== undefined) byProp = { element, name }
    }
    if (byWord === undefined && element.localName !== "img") {
      const words = Boilerplate.tokens(element)
      if (words.some((w) => w === "username" || w === "author" || w === "poster" || w === "creator" || w === "nick")) {
        // "by ada » Tue Aug 27": the name is the link in it, when it has one.
        // The first link with a name: an avatar's link comes first in many cards. The element's own text, when it
        // has a date in it ("adaPosted April 18"), is the header the name sits in, not a name.
        let tried = 0
        const link = firstWithin(
          element,
          (e) => e.localName === "a" && tried++ < maxLinksTried && shortText(e) !== undefined
        )
        const own = shortText(element)
        const name =
          (link === undefined ? undefined : shortText(link)) ??
          (own === undefined || PostStructure.dateLike.test(own) ? undefined : own)
        if (name !== undefined) byWord = { element, name }
      }
    }
    if (byLink === undefined && PostStructure.isProfileLink(element)) {
      const name = shortText(element)
      if (name !== undefined) byLink = { element, name }
    }
    if (time === undefined && (element.localName === "time" || element.localName === "relative-time")) {
      const text = shortText(element) ?? machineDate(collapse(element.getAttribute("datetime") ?? "").slice(0, 40))
      if (text !== "") time = { element, text }
    }
    // A time a script fills in ("3 days ago" from an empty `<span class="timeago" title="2024-04-17T11:38">`).
    if (time === undefined && Boilerplate.tokens(element).some((w) => PostStructure.timeWords.has(w))) {
      const title = collapse(element.getAttribute("title") ?? element.getAttribute("datetime") ?? "").slice(0, 60)
      if (shortText(element) === undefined && PostStructure.dateLike.test(title)) {
        time = { element, text: machineDate(title) }
      }
    }
    if (dated === undefined && !inCard(element)) {
      // A date is often one text among others in its element ("by ada » Tue Aug 27, 2019 1:47 am").
      for (let c = element.firstChild; c !== null && dated === undefined; c = c.nextSibling) {
        if (c.nodeType !== TEXT || (c as Text).data.length > PostStructure.maxShort * 4) continue
        const text = collapse((c as Text).data).replace(/^[^\p{L}\p{N}]+/u, "")
        if (text.length <= PostStructure.maxShort && PostStructure.dateLike.test(text) && !otherDate.test(text)) {
          dated = { element: element.childNodes.length === 1 ? element : undefined, text }
        }
      }
    }
  }
  return { author: byProp ?? byWord ?? byLink, time: time ?? dated }
}

/** The post's author and time: looked for around its body first, then in it (outside quotations). */
export const signature = (post: Element, body: Element): Signed => {
  const around = body === post ? { author: undefined, time: undefined } : signedIn(elementsOf(post, (e) => e === body))
  if (around.author !== undefined && around.time !== undefined) return around
  const inside = signedIn(elementsOf(body, isQuote))
  return { author: around.author ?? inside.author, time: around.time ?? inside.time }
}

/** Class words of an author's card (name, avatar, rank, post count) ... */
const cardWords = new Set([
  "username",
  "poster",
  "postprofile",
  "userinfo",
  "postauthor",
  "avatar",
  "membername",
  "nickname",
  "nick",
  "author",
  "authorinfo"
])
/** ... or of a card when beside `user` ("user-info", "message-cell--user") ... */
const userCardWords = new Set(["info", "details", "card", "meta", "cell", "profile", "block", "box", "panel", "stats"])
/** ... unless they name the post's text ("user-content", "message-userContent"). */
const contentWords = new Set(["content", "body", "text"])

/** A control drawn as a link or a box: a script link ("[–]" to fold a reply, "(3 children)") or a button role. */
const isControl = (element: Element): boolean =>
  element.getAttribute("role") === "button" ||
  (element.localName === "a" && /^\s*javascript:/i.test((element.getAttribute("href") ?? "").slice(0, 40)))

/** Whether an element is a widget around the post's text, or the author's card (`size`: its text length). */
export const isWidget = (element: Element, size: Map<Element, number>): boolean => {
  if (isControl(element) && (size.get(element) ?? 0) <= PostStructure.maxShort) return true
  const words = Boilerplate.tokens(element)
  if (words.length === 0) return false
  // A signature is never the post, however long; the other widgets are short.
  if (words.some((w) => w === "signature" || w === "sig" || w === "signatures")) return true
  if (words.some((w) => widgetWords.has(w))) return (size.get(element) ?? 0) <= 400
  if ((size.get(element) ?? 0) > maxCardChars || words.some((w) => contentWords.has(w))) return false
  return words.some((w) => cardWords.has(w)) || (words.includes("user") && words.some((w) => userCardWords.has(w)))
}
