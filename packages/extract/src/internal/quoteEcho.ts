/**
 * Quotations that repeat an earlier post of the thread. A reply that quotes the post it answers repeats that post's
 * text (often whole, under "ada said:" and a "Click to expand..." link); the thread already shows that post above, so
 * the copy only doubles what the reader gets. A quotation of text that is not above (a post on an earlier page, an
 * announcement, a manual) stays: it is the only place that text is. Posts are read in page order; each post's text
 * is remembered as runs of a few words, and a quotation most of whose runs were seen before goes. Linear in the
 * thread's text: each run is one string key (its words joined), kept in one set of at most {@link maxRuns} keys; past
 * that, later posts are not remembered and their quotations stay (a cut that drops nothing).
 */
import * as Boilerplate from "./boilerplate.js"

const ELEMENT = 1
const TEXT = 3

/** Words per run: long enough that two posts share one only by quoting, short enough for a two-line quotation. */
export const runWords = 5
/** A quotation goes when at least this share of its runs were in the posts above. */
export const seenShare = 0.5
/** At most this many runs are remembered (a few MiB of keys; a long thread's first 200,000 words). */
export const maxRuns = 200_000

const skipped = new Set(["script", "style", "noscript", "template", "svg"])

/** A quotation of another post: a `blockquote`, or an element whose class says quote ("bbCodeBlock--quote"). */
export const isQuotation = (element: Element): boolean =>
  element.localName === "blockquote" || Boilerplate.tokens(element).includes("quote")

/** The lower-cased words of the text under `root`. */
const wordsOf = (root: Element): Array<string> => {
  const out: Array<string> = []
  const stack: Array<Node> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === TEXT) {
      for (const word of (node as Text).data.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) out.push(word)
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    const element = node as Element
    if (element !== root && skipped.has(element.localName)) continue
    for (let c = element.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return out
}

const runsOf = (words: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i + runWords <= words.length; i++) out.push(words.slice(i, i + runWords).join(" "))
  return out
}

/** A quotation's attribution ("ada wrote:" beside it) holds at most this many characters, in this many nodes. */
const maxAttribution = 80
const maxAttributionNodes = 16

/** The characters of text under `node`, or `undefined` past `maxAttributionNodes` nodes or `maxAttribution` characters. */
const smallText = (node: Node): number | undefined => {
  let chars = 0
  let nodes = 0
  const stack: Array<Node> = [node]
  while (stack.length > 0) {
    const next = stack.pop()!
    if (++nodes > maxAttributionNodes) return undefined
    if (next.nodeType === TEXT) chars += (next as Text).data.trim().length
    else for (let c = next.lastChild; c !== null; c = c.previousSibling) stack.push(c)
    if (chars > maxAttribution) return undefined
  }
  return chars
}

/**
 * The quotation with the wrapper that adds only its attribution before it (`<div class="quotebox"><cite>ada
 * wrote:</cite><blockquote>`), up to two levels below `body`: what goes with it. Reads a few nodes beside it at most.
 */
const withAttribution = (quote: Element, body: Element): Element => {
  let out = quote
  for (let up = 0; up < 2; up++) {
    const parent = out.parentElement
    if (parent === null || parent === body) break
    // The attribution comes before the quotation: text after it is the reply's own ("Agreed!").
    // Siblings are read up to `maxAttributionNodes` each side: a wider wrapper is more than an attribution.
    let before = 0
    let n = 0
    for (let c = out.previousSibling; c !== null && before <= maxAttribution; c = c.previousSibling) {
      before += ++n > maxAttributionNodes ? Infinity : (smallText(c) ?? Infinity)
    }
    let after = 0
    n = 0
    for (let c = out.nextSibling; c !== null && after === 0; c = c.nextSibling) {
      after += ++n > maxAttributionNodes ? Infinity : (smallText(c) ?? Infinity)
    }
    if (before > maxAttribution || after > 0) break
    out = parent
  }
  return out
}

/** What the thread has shown so far, to tell a repeating quotation from a new one. */
export interface Echo {
  /** Takes out of `body` the outermost quotations (not `body` itself) that repeat the posts remembered so far. */
  readonly dropRepeats: (body: Element) => void
  /** Remembers the text of a post's body (what is left of it), for the quotations of the posts below. */
  readonly remember: (body: Element) => void
}

export const make = (): Echo => {
  const seen = new Set<string>()
  return {
    dropRepeats: (body) => {
      const quotes: Array<Element> = []
      const stack: Array<Element> = []
      for (let c = body.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
      while (stack.length > 0) {
        const element = stack.pop()!
        if (skipped.has(element.localName)) continue
        if (isQuotation(element)) {
          quotes.push(element)
          continue
        }
        for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
      }
      for (const quote of quotes) {
        const runs = runsOf(wordsOf(quote))
        if (runs.length === 0) continue
        let known = 0
        for (const run of runs) if (seen.has(run)) known++
        if (known >= runs.length * seenShare) withAttribution(quote, body).remove()
      }
    },
    remember: (body) => {
      for (const run of runsOf(wordsOf(body))) {
        if (seen.size >= maxRuns) return
        seen.add(run)
      }
    }
  }
}
