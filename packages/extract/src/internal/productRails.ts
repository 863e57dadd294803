/**
 * The rails of a product page: runs of item cards that are other products ("People who viewed this item also
 * viewed", "Similar items", sponsored carousels, a seller's other items, "Featured products"). A card is a sibling
 * of a same-shaped run that carries a link, a price and little text (a name, a price, a rating); a rail is a run of
 * at least {@link minCards} of them, with what frames it (its heading, a "See all" link). The product itself is one
 * item, not a run, and its region holds the page's `<h1>`: a run around that is never a rail.
 *
 * Two walks, each linear in the page's size: one marks bottom-up the elements that hold a price or the `<h1>`; one
 * groups each element's children by shape once.
 */
import { attribute, bottomUp, tokens } from "./boilerplate.js"
import * as PostStructure from "./postStructure.js"
import type * as SectionPass from "./sectionPass.js"

const ELEMENT = 1
const TEXT = 3

/** A rail has at least this many cards ... */
export const minCards = 3
/** ... that are at least this share of their run of same-shaped siblings ... */
export const minCardShare = 0.6
/** ... each with at least this many characters of text ... */
export const minCardChars = 8
/** ... and at most this many (a name, a price, a rating, a seller: not a description). */
export const maxCardChars = 400

/**
 * A frame around a rail (its heading, a "See all" link, a carousel's controls) holds at most this many characters
 * besides the rail, or this share of the rail's.
 */
export const maxFrameChars = 120
export const maxFrameShare = 0.1

// A price: a currency sign next to a digit, or a currency code next to an amount. Tested on one text node at a time,
// each alternative a fixed run of characters: linear.
const price =
  /[$€£¥₹]\s?\d|\d\s?[$€£¥₹]|\b(?:USD|EUR|GBP|AUD|CAD|CHF|JPY|INR|SEK|NOK|DKK|PLN)\s?\d|\d\s?(?:USD|EUR|GBP|AUD|CAD|CHF|JPY|INR|SEK|NOK|DKK|PLN|kr|zł)\b/

// Class words of an element that shows a price, however its text is split (`<span>$</span><span>8</span>`).
const priceWords = new Set(["price", "prices", "amount", "money"])

const PRICE = 1
const HEADING = 2
const LINK = 4

// What an element holds, in bits: a price, the page's `<h1>`, a link to another page.
const gather = (root: Element): Map<Element, number> => {
  const marks = new Map<Element, number>()
  bottomUp(root, (element) => {
    let f = element.localName === "h1" ? HEADING : 0
    if (element.localName === "a" && navigates(element)) f |= LINK
    if (attribute(element, "itemprop") === "price" || tokens(element).some((t) => priceWords.has(t))) f |= PRICE
    for (let c = element.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === ELEMENT) f |= marks.get(c as Element) ?? 0
      else if (c.nodeType === TEXT && (f & PRICE) === 0) {
        const data = (c as CharacterData).data
        if (data.length <= 200 && price.test(data)) f |= PRICE
      }
    }
    marks.set(element, f)
  })
  return marks
}

// A link that leads to another page: not a script's action (`javascript:`, `#`), nor a button.
const navigates = (a: Element): boolean => {
  const href = attribute(a, "href")
  if (href === null || attribute(a, "role") === "button") return false
  const h = href.trimStart().slice(0, 11).toLowerCase()
  return h !== "" && !h.startsWith("#") && !h.startsWith("javascript:")
}

const shapeOf = (element: Element): string => PostStructure.shapeOf(element) ?? element.localName

/**
 * The rails under `root` (not `root` itself), outermost frame of each, from the facts of {@link SectionPass.survey}
 * taken before anything was removed.
 */
export const find = (root: Element, page: SectionPass.Page): Array<Element> => {
  const marks = gather(root)
  const mark = (e: Element) => marks.get(e) ?? 0
  const rails: Array<Element> = []
  const taken = new Set<Element>()
  const groups = new Map<string, Array<Element>>()
  const runs: Array<Element> = []
  const stack: Array<Element> = [root]
  while (stack.length > 0) {
    const parent = stack.pop()!
    let children = 0
    for (let c = parent.lastElementChild; c !== null; c = c.previousElementSibling) children++
    let rail: Element | undefined
    if (children >= minCards && parent !== root && (mark(parent) & HEADING) === 0 && (mark(parent) & PRICE) !== 0) {
      groups.clear()
      for (let c = parent.firstElementChild; c !== null; c = c.nextElementSibling) {
        const key = c.localName
        const group = groups.get(key)
        if (group === undefined) groups.set(key, [c])
        else group.push(c)
      }
      for (const group of groups.values()) {
        if (group.length < minCards) continue
        let cards = 0
        let text = 0
        for (const c of group) {
          const chars = page.text(c)
          text += chars
          if (chars >= minCardChars && chars <= maxCardChars && (mark(c) & (PRICE | LINK)) === (PRICE | LINK)) cards++
        }
        if (cards < minCards || cards < group.length * minCardShare || !alike(group)) continue
        // The run holds most of the parent: the parent is the rail, framed by what holds it; else the run is.
        if (text >= page.text(parent) * (1 - maxFrameShare)) rail = frame(parent, root, page, mark, taken)
        else for (const c of group) runs.push(c)
        break
      }
    }
    if (rail !== undefined) {
      rails.push(rail)
      continue
    }
    if (runs.length > 0) {
      for (const run of runs) rails.push(run)
      runs.length = 0
    }
    for (let c = parent.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  return rails
}

// Most of a run's members share one shape (a carousel's first slide may carry a class of its own); a page's own blocks
// of one tag (a purchase box, a bundle, an add-on list) each have their own.
const alike = (group: ReadonlyArray<Element>): boolean => {
  const counts = new Map<string, number>()
  let most = 0
  for (const c of group) {
    const key = shapeOf(c)
    const n = (counts.get(key) ?? 0) + 1
    counts.set(key, n)
    if (n > most) most = n
  }
  return most >= group.length * minCardShare
}

/** The outermost ancestor of `rail` below `root` that holds little besides it (and not the `<h1>`). */
const frame = (
  rail: Element,
  root: Element,
  page: SectionPass.Page,
  mark: (e: Element) => number,
  taken: Set<Element>
): Element => {
  const own = page.text(rail)
  const room = Math.max(maxFrameChars, own * maxFrameShare)
  let out = rail
  for (let up = rail.parentElement; up !== null && up !== root && !taken.has(up); up = up.parentElement) {
    if (page.text(up) - own > room || (mark(up) & HEADING) !== 0) break
    taken.add(up)
    out = up
  }
  return out
}
