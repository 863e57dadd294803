/**
 * The controls of a collection's item cards: "Add to cart", "Quick view", "Choose options", "Compare" and the like,
 * drawn as links (a `<button>` is dropped by the section pass already). Each card repeats them, and they tell a
 * reader nothing of the item: an element whose whole text is one such label is removed. Only an element whose text
 * is one text node is read (its first text, from the survey), so each element costs one test: linear in the page.
 */
import type * as SectionPass from "./sectionPass.js"

/** A label is at most this many characters. */
export const maxLabelChars = 40

/** The labels: what a card's controls say, in English. */
export const labels =
  /^(?:add to (?:cart|bag|basket|trolley|wish ?list|favou?rites|compare)|quick (?:view|shop|look|add)|(?:choose|select|show|view) options|compare)$/i

const headings = new Set(["h1", "h2", "h3", "h4", "h5", "h6"])

/** Removes, under `root`, the elements whose whole text is a control's label; `page` from the survey. */
export const remove = (root: Element, page: ReturnType<typeof SectionPass.survey> & object): void => {
  const removals: Array<Element> = []
  const stack: Array<Element> = []
  for (let c = root.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  while (stack.length > 0) {
    const element = stack.pop()!
    const s = page.stats.get(element)
    if (s === undefined || s.text === 0) continue
    if (s.text <= maxLabelChars && !headings.has(element.localName) && s.first !== undefined) {
      const data = (s.first as CharacterData).data.trim()
      if (data.length === s.text && labels.test(data.replace(/\s+/g, " "))) {
        removals.push(element)
        continue
      }
    }
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  for (const element of removals) element.parentNode?.removeChild(element)
}
