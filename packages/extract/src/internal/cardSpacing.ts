/**
 * The gaps a card's style sheet draws between its parts. A card often sets a brand and a product's name, or a name
 * and its variant, in sibling elements with no space between (`<span>Gregory</span><span>Paragon 68 Pack</span>`),
 * laid out as blocks by its style sheet: read as text they run together ("GregoryParagon", "HOKAClifton", "$25Was").
 * Where one text ends in a letter or a digit and the next, in another element, starts with a capital and nothing
 * spaces them, a space is put back. Only cards are read (see `ItemGrid.scan`: a node is in few of them), in document
 * order: linear in the page.
 */
import { isHidden } from "./boilerplate.js"

const ELEMENT = 1
const TEXT = 3

const skipped = new Set(["script", "style", "noscript", "template", "svg"])

// Emphasis inside a word ("i<b>Phone</b>", "Mc<i>Donald</i>") is drawn inline: no gap there.
const phrasing = new Set(["b", "i", "em", "strong", "u", "mark", "small", "sub", "sup", "abbr", "code", "s"])

const endsWord = /[\p{L}\p{N}]$/u
const startsUpper = /^\p{Lu}/u

/** Puts a space between the run-together parts of each card. */
export const space = (cards: ReadonlyArray<Element>): void => {
  const stack: Array<Node> = []
  for (const card of cards) {
    let previous: CharacterData | undefined
    stack.push(card)
    while (stack.length > 0) {
      const node = stack.pop()!
      if (node.nodeType === TEXT) {
        const text = node as CharacterData
        const data = text.data
        if (data === "") continue
        if (
          previous !== undefined &&
          previous.parentNode !== text.parentNode &&
          !phrasing.has((previous.parentNode as Element).localName) &&
          !phrasing.has((text.parentNode as Element).localName) &&
          endsWord.test(previous.data) &&
          startsUpper.test(data)
        )
          text.data = " " + data
        previous = text
        continue
      }
      if (node.nodeType !== ELEMENT) continue
      const element = node as Element
      if (node !== card && (skipped.has(element.localName) || isHidden(element))) continue
      for (let c = element.lastChild; c !== null; c = c.previousSibling) stack.push(c)
    }
  }
}
