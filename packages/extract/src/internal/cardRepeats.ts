/**
 * The repeats inside a collection's item cards. A card often draws its title or its price twice: an image link
 * that carries the title beside the card's heading, a "no image" copy of the card's body beside the one with the
 * image, a regular and a sale price block where the style sheet shows one. A reader sees each once, so a text that
 * a card already showed is dropped the second time. Of two copies, the one in a heading stays (it names the item);
 * otherwise the first. Only texts that are a whole text node count, and hidden copies are passed over (the section
 * pass drops them): each card's nodes are walked once and the cards do not overlap, so the walk is linear in the
 * page.
 */
import { isHidden } from "./boilerplate.js"
import type * as SectionPass from "./sectionPass.js"

const ELEMENT = 1
const TEXT = 3

/** A text shorter than this is not a repeat worth dropping (a "/", a "|", a lone digit). */
export const minChars = 2

/** Longer texts are prose, which a card does not draw twice by accident. */
export const maxChars = 200

const skipped = new Set(["script", "style", "noscript", "template", "svg", "select", "option"])
// A table's cells, a definition's parts and times say the same thing twice on purpose ("Waterproof: Yes",
// "Bluetooth: Yes"; "Starts Mon 10:00", "Ends Mon 10:00"): their texts are neither dropped nor counted.
const paired = new Set(["td", "th", "dt", "dd", "time"])
const headings = new Set(["h1", "h2", "h3", "h4", "h5", "h6"])

/** A card holds at most this many characters: a larger "item" is a section of the page, whose repeats are its own. */
export const maxCardChars = 600

/** Removes, in each card, the text nodes whose text the card showed already; `page` from the survey. */
export const remove = (cards: ReadonlyArray<Element>, page: SectionPass.Page): void => {
  // A text's first node, and whether it is in a heading (carried down the walk, not looked up).
  const seen = new Map<string, { node: Node; heading: boolean }>()
  const removals: Array<Node> = []
  const stack: Array<Node> = []
  const headed: Array<boolean> = []
  for (const card of cards) {
    if (page.text(card) > maxCardChars) continue
    seen.clear()
    stack.push(card)
    headed.push(false)
    while (stack.length > 0) {
      const node = stack.pop()!
      const heading = headed.pop()!
      if (node.nodeType === TEXT) {
        const text = (node as CharacterData).data.replace(/\s+/g, " ").trim()
        if (text.length < minChars || text.length > maxChars) continue
        const earlier = seen.get(text)
        if (earlier === undefined) seen.set(text, { node, heading })
        else if (heading && !earlier.heading) {
          removals.push(earlier.node)
          seen.set(text, { node, heading })
        } else removals.push(node)
        continue
      }
      if (node.nodeType !== ELEMENT) continue
      const element = node as Element
      if (node !== card && (skipped.has(element.localName) || paired.has(element.localName) || isHidden(element)))
        continue
      const below = heading || headings.has(element.localName)
      for (let c = element.lastChild; c !== null; c = c.previousSibling) {
        stack.push(c)
        headed.push(below)
      }
    }
  }
  for (const node of removals) node.parentNode?.removeChild(node)
}
