/**
 * Tables of contents written as definition lists. DocBook and similar generators set a chapter's contents as a
 * `<dl>` whose terms are links to its sections (`<dt><a href="indexes-intro.html">11.1. Introduction</a></dt>`), with
 * a section's own sections in a nested `<dl>` inside a `<dd>`. Such a list defines nothing: it is a list of links, and
 * read as a definition list it is a block "mostly of links" that Readability drops, taking with it what a chapter's
 * page is for. It is rewritten as the nested `<ul>` it is, which Readability keeps as a list.
 */

const WHITESPACE = /^\s*$/

/** Whether `dd` holds nothing but one nested `<dl>` (and whitespace). */
const nestedOnly = (dd: Element): Element | undefined => {
  let list: Element | undefined
  for (let c = dd.firstChild; c !== null; c = c.nextSibling) {
    if (c.nodeType === 3) {
      if (!WHITESPACE.test((c as CharacterData).data)) return undefined
      continue
    }
    if (c.nodeType !== 1) continue
    if (list !== undefined || (c as Element).localName !== "dl") return undefined
    list = c as Element
  }
  return list
}

/**
 * Whether `dt` holds a link, read until the first one and not into a nested `<dl>` (which is checked on its own):
 * the terms' subtrees so read do not overlap, and the reads are linear in the page together.
 */
const holdsLink = (dt: Element): boolean => {
  const stack: Array<Element> = [dt]
  while (stack.length > 0) {
    const element = stack.pop()!
    if (element.localName === "a") return true
    for (let c = element.firstElementChild; c !== null; c = c.nextElementSibling)
      if (c.localName !== "dl") stack.push(c)
  }
  return false
}

/**
 * Whether `dl` is a list of links: at least two terms, each holding a link, and no definitions but nested lists
 * of the same kind (checked as they are met, each element once).
 */
const isLinkTerms = (dl: Element, checked: Map<Element, boolean>): boolean => {
  const known = checked.get(dl)
  if (known !== undefined) return known
  let terms = 0
  let ok = true
  // Each nested list is checked once, by its own entry, before the lists that hold it (see `rewrite`).
  for (let c = dl.firstElementChild; c !== null && ok; c = c.nextElementSibling) {
    if (c.localName === "dt") {
      terms++
      ok = holdsLink(c)
    } else if (c.localName === "dd") {
      const nested = nestedOnly(c)
      ok = nested !== undefined && checked.get(nested) === true
    } else ok = false
  }
  const result = ok && terms >= 2
  checked.set(dl, result)
  return result
}

/** Replaces `dl` (a list of links, with its nested ones) by `<ul>`s of `<li>`s, keeping every term's content. */
const toList = (dl: Element): Element => {
  const doc = dl.ownerDocument
  const ul = doc.createElement("ul")
  let last: Element | undefined
  for (let c = dl.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.localName === "dt") {
      last = doc.createElement("li")
      while (c.firstChild !== null) last.appendChild(c.firstChild)
      ul.appendChild(last)
    } else {
      // A <dd> of one nested list, rewritten already (innermost first): it goes under the term before it.
      const nested = c.firstElementChild
      if (nested !== null) (last ?? ul).appendChild(nested)
    }
  }
  return ul
}

/**
 * Rewrites the definition lists under `root` that are lists of links (see above) as nested unordered lists.
 * `lists` are `root`'s `<dl>` elements in document order.
 */
export const rewrite = (lists: ReadonlyArray<Element>): number => {
  const checked = new Map<Element, boolean>()
  // Innermost first: in reverse document order, a list comes after every list it holds.
  for (let i = lists.length - 1; i >= 0; i--) isLinkTerms(lists[i], checked)
  let rewritten = 0
  for (let i = lists.length - 1; i >= 0; i--) {
    const dl = lists[i]
    if (checked.get(dl) !== true) continue
    // A nested list is rewritten inside its holder's rewrite, never on its own.
    const holder = dl.parentElement?.parentElement
    if (dl.parentElement?.localName === "dd" && holder != null && checked.get(holder) === true) continue
    rewriteTree(dl)
    rewritten++
  }
  return rewritten
}

/** Rewrites `dl` and the nested lists it holds, innermost first, without recursion. */
const rewriteTree = (dl: Element): void => {
  const order: Array<Element> = []
  const stack: Array<Element> = [dl]
  while (stack.length > 0) {
    const list = stack.pop()!
    order.push(list)
    for (let c = list.firstElementChild; c !== null; c = c.nextElementSibling) {
      const nested = c.localName === "dd" ? c.firstElementChild : null
      if (nested !== null && nested.localName === "dl") stack.push(nested)
    }
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const list = order[i]
    list.parentNode?.replaceChild(toList(list), list)
  }
}
