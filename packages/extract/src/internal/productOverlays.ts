/**
 * What a product page holds but does not show as its own: dialogs (`role="dialog"` or `"alertdialog"`,
 * `aria-modal="true"`: a "notify me" form, a size chart, an ad's "Why you're seeing this" notice, a quick view of
 * another product), the ARIA twins of the `<dialog>` element every section-pass reader drops; and text nodes that
 * are a bare UUID, an identifier a script or a stylesheet reads (pages that scramble a label's letters among decoys
 * fill it with them), never words a reader reads. Removed once the reader has decided to read the page, before the
 * page is surveyed again, so that a rail's cards are measured by what they show.
 */
import { attribute } from "./boilerplate.js"

const ELEMENT = 1
const TEXT = 3

const uuid = /^\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/i
/** Text nodes longer than this are not a bare identifier (and are not tested). */
const maxIdentifierChars = 64

const isDialog = (element: Element): boolean => {
  const role = attribute(element, "role")
  return role === "dialog" || role === "alertdialog" || attribute(element, "aria-modal") === "true"
}

/** Removes the dialogs and bare identifiers under `root` (one walk); whether it removed anything. */
export const strip = (root: Element): boolean => {
  const out: Array<Node> = []
  const stack: Array<Node> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === TEXT) {
      const data = (node as CharacterData).data
      if (data.length <= maxIdentifierChars && uuid.test(data)) out.push(node)
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    if (node !== root && isDialog(node as Element)) {
      out.push(node)
      continue
    }
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  for (const node of out) node.parentNode?.removeChild(node)
  return out.length > 0
}
