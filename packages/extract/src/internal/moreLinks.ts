/**
 * "Read more" links and buttons: a landing page's cards and sections each end with a link of their own line that
 * says only "Learn more" or "Read more", or a call to action ("Get started", "See details", "Start for free", "Read
 * the case study", "Order now"). On the page they lead a reader on; in the text they are the same few words again
 * and again, and say nothing the page does not. A link with more words ("Learn more about pricing", "Get started
 * with the CLI") stays, as does one inside a sentence, and one that names where it leads ("View pricing", "Talk to
 * sales", "Try it free"). "Read the …", "Read our …" and "Start your free …" go whatever follows: a case study, a
 * story, a trial. One walk over the links, each looking at its own text and at most two nodes on either side:
 * linear in the page's size.
 */
import { inlineTags } from "./inlineTags.js"

const ELEMENT = 1
const TEXT = 3

/** A link's text longer than this is not a bare "read more". */
const maxChars = 40

const moreLine = /^(?:read|learn|know|see|find out|discover|explore|view) more\W{0,3}$/i

// Calls to action that say nothing of their own: the whole text, or its first words followed by a short object
// ("Read the case study", "Start your free trial"). Words, not a pattern: a link's text is at most `maxChars`.
const actionLines = new Set(["see details", "order now", "expand", "sign up", "get started", "start now", "start free"])
const actionStarts = [
  "read the ",
  "read our ",
  "read their ",
  "read case ",
  "read success ",
  "read customer ",
  "read blog",
  "see case ",
  "start for free",
  "start free ",
  "start your free ",
  "sign up ",
  "explore now",
  "download now"
]

/** Whether a link's text (trimmed, at most `maxChars`) is a bare "read more" or call to action. */
export const saysNothing = (text: string): boolean => {
  if (moreLine.test(text)) return true
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, " ")
    .replace(/ {2,}/g, " ")
    .trim()
  return actionLines.has(words) || actionStarts.some((start) => words.startsWith(start) || words === start.trim())
}

const blank = (node: ChildNode | null): boolean =>
  node !== null && node.nodeType === TEXT && (node as CharacterData).data.trim() === ""

/** A line ends here: the parent's edge, or a block (a paragraph, a heading). */
const breaks = (node: ChildNode | null): boolean =>
  node === null || (node.nodeType === ELEMENT && !inlineTags.has((node as Element).localName))

/** Whether `node` has a line's end beside it, past one blank text node at most. */
const atEdge = (node: ChildNode, step: (n: ChildNode) => ChildNode | null): boolean => {
  const next = step(node)
  return breaks(next) || (blank(next) && breaks(step(next!)))
}

/** Whether `link` says only "read more" (or the like) on a line of its own. */
export const isMoreLink = (link: Element): boolean => {
  const text = link.textContent ?? ""
  if (text.length > maxChars || !saysNothing(text.trim())) return false
  return atEdge(link, (n) => n.previousSibling) && atEdge(link, (n) => n.nextSibling)
}

/** Removes the "read more" links of their own line under `root`. */
export const remove = (root: Element): void => {
  for (const link of Array.from(root.querySelectorAll("a"))) {
    if (isMoreLink(link)) link.parentNode?.removeChild(link)
  }
}
