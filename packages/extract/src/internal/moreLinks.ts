/**
 * "Read more" links: a landing page's cards and sections each end with a link of their own line that says only
 * "Learn more" or "Read more". On the page they lead a reader on; in the text they are the same two words again and
 * again, and say nothing of what they lead to. A link with more words ("Learn more about pricing") stays, as does one
 * inside a sentence. One walk over the links, each looking at its own text and at most two nodes on either side:
 * linear in the page's size.
 */
import { inlineTags } from "./inlineTags.js"

const ELEMENT = 1
const TEXT = 3

/** A link's text longer than this is not a bare "read more". */
const maxChars = 40

const moreLine = /^(?:read|learn|know|see|find out|discover) more\W{0,3}$/i

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
  if (text.length > maxChars || !moreLine.test(text.trim())) return false
  return atEdge(link, (n) => n.previousSibling) && atEdge(link, (n) => n.nextSibling)
}

/** Removes the "read more" links of their own line under `root`. */
export const remove = (root: Element): void => {
  for (const link of Array.from(root.querySelectorAll("a"))) {
    if (isMoreLink(link)) link.parentNode?.removeChild(link)
  }
}
