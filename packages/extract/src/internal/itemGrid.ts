/**
 * The item grid of a collection or listing page: the largest run of same-shaped siblings (same tag, same first
 * class words) that each carry a link and some text of their own, such as product cards, search results, course
 * tiles or archive entries. A menu's entries are too short to count, and a thread's posts or an article's comments
 * too little linked (an author's name in a post of prose). Found in one pass over the page's elements, each
 * element's children grouped once: linear in the page's size.
 */
import * as PostStructure from "./postStructure.js"
import type * as SectionPass from "./sectionPass.js"

/** The grid: the element holding the items, and the items. */
export interface Grid {
  readonly parent: Element
  readonly items: ReadonlyArray<Element>
  /** Characters of text in the items. */
  readonly text: number
}

/** A grid has at least this many items ... */
export const minItems = 3
/** ... each with at least this many characters of text ... */
export const minItemChars = 15
/** ... and at least this share of it in links (a title, a "view" link). */
export const minItemLinkShare = 0.1
/** At least this share of a run of same-shaped siblings are items. */
export const minItemShare = 0.6

/** An element's shape among its siblings: as a post's (see `postStructure.ts`), or its tag when it has no other. */
const shapeOf = (element: Element): string => PostStructure.shapeOf(element) ?? element.localName

/**
 * The page's item grid under `root`, from the facts of {@link SectionPass.survey}: the run of items holding the
 * most text; `undefined` when there is none.
 */
export const find = (root: Element, page: SectionPass.Page): Grid | undefined => scan(root, page, 0).grid

/**
 * The page's item grid (as {@link find}) and its cards: the items of every run (the grid, a rail, a row of tiles)
 * that hold at most `maxCardChars` characters each. A run of page sections is no run of cards; and as a card of at
 * most `maxCardChars` holds at most a few runs of cards nested in one another, a node is in few of them.
 */
export const scan = (
  root: Element,
  page: SectionPass.Page,
  maxCardChars: number
): { readonly grid: Grid | undefined; readonly cards: ReadonlyArray<Element> } => {
  let grid: Grid | undefined
  const cards: Array<Element> = []
  runs(root, page, (run) => {
    if (grid === undefined || run.text > grid.text) grid = run
    for (const item of run.items) if (page.text(item) <= maxCardChars) cards.push(item)
  })
  return { grid, cards }
}

const runs = (root: Element, page: SectionPass.Page, found: (grid: Grid) => void): void => {
  const groups = new Map<string, Array<Element>>()
  const stack: Array<Element> = [root]
  while (stack.length > 0) {
    const parent = stack.pop()!
    let children = 0
    for (let c = parent.lastElementChild; c !== null; c = c.previousElementSibling) {
      stack.push(c)
      children++
    }
    if (children < minItems) continue
    groups.clear()
    for (let c = parent.firstElementChild; c !== null; c = c.nextElementSibling) {
      const key = shapeOf(c)
      const group = groups.get(key)
      if (group === undefined) groups.set(key, [c])
      else group.push(c)
    }
    for (const group of groups.values()) {
      if (group.length < minItems) continue
      let text = 0
      const items: Array<Element> = []
      for (const c of group) {
        const chars = page.text(c)
        if (chars >= minItemChars && page.links(c) > 0 && page.linkText(c) >= chars * minItemLinkShare) {
          items.push(c)
          text += chars
        }
      }
      if (items.length < minItems || items.length < group.length * minItemShare) continue
      found({ parent, items, text })
    }
  }
}
