/**
 * Pickers of this page in other versions or languages. Documentation sets above its text a row of links to the same
 * page under other releases ("Supported versions: Current (18) / 17 / 16 / 15") or in other languages: every link's
 * path is the page's own with one segment changed (`/docs/17/indexes.html` for `/docs/current/indexes.html`,
 * `/fr/docs/Web/HTML` for `/en-US/docs/Web/HTML`). Such a row says nothing of the page's subject; a block made of at
 * least three of them and a short label is removed. One pass over the page's links, and each candidate block is read
 * once through a bounded number of nodes.
 */
import * as TagWalk from "./tagWalk.js"

/** A block this many links of the kind make is a picker ... */
const minLinks = 3
/** ... when its text outside them has at most this many letters (a label: "Supported versions:"). */
const maxLabelLetters = 40
/** Nodes and characters a candidate block is read through before it is taken for something larger. */
const maxBlockNodes = 400
const maxBlockChars = 2000
/** Ancestors looked through for a link's block. */
const maxLevels = 4

const blocks = new Set(["p", "div", "li", "ul", "ol", "dd", "td", "section", "nav", "header"])
/** Final segments too common to say "the same page": every section's start page is an index. */
const generic = new Set(["index.html", "index.htm", "index.php", "index", "default.aspx", "home", "readme"])

const segments = (url: URL): Array<string> => url.pathname.split("/").filter((s) => s !== "")

/**
 * A path segment that names a release or a language: `18`, `v2.1`, `3.x`, `current`, `latest`, `en`, `en-US`,
 * `zh-Hans`, `pt_BR`. (Sibling sections, `/guide/configuration/` beside `/guide/deployment/`, are neither.)
 */
const variant =
  /^(?:v?\d{1,4}(?:\.(?:\d{1,4}|x))*|current|latest|stable|dev|devel|development|main|master|next|nightly|beta|preview|lts|[a-z]{2}|[a-z]{2,3}[-_][a-z]{2,4})$/i

/**
 * The one position at which `path` differs from `page` (same length, same last segment), both sides of it naming a
 * release or a language; -2 for the page itself; -1 otherwise.
 */
const slot = (path: ReadonlyArray<string>, page: ReadonlyArray<string>): number => {
  if (path.length !== page.length) return -1
  let at = -1
  for (let i = 0; i < path.length - 1; i++) {
    if (path[i] === page[i]) continue
    if (at >= 0 || !variant.test(path[i]) || !variant.test(page[i])) return -1
    at = i
  }
  // The page itself (the picker's current entry) counts with any slot.
  return at === -1 ? -2 : at
}

interface Tally {
  links: number
  picker: number
  slot: number
}

/** The nearest block holding `a` (at most `maxLevels` up), or undefined. */
const blockOf = (a: Element): Element | undefined => {
  let node = a.parentElement
  for (let level = 0; node !== null && level < maxLevels; level++, node = node.parentElement) {
    if (blocks.has(node.localName)) return node
  }
  return undefined
}

const letter = /\p{L}/u

/**
 * Whether `block`'s text outside links is a label: at most `maxLabelLetters` letters, read through at most
 * `maxBlockNodes` nodes and `maxBlockChars` characters (a block past either is no picker).
 */
const labelOnly = (block: Element): boolean => {
  let letters = 0
  let nodes = 0
  let chars = 0
  const stack: Array<Node> = [block]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (++nodes > maxBlockNodes) return false
    if (node.nodeType === 3) {
      const data = (node as CharacterData).data
      chars += data.length
      if (chars > maxBlockChars) return false
      for (const ch of data) if (letter.test(ch) && ++letters > maxLabelLetters) return false
      continue
    }
    if (node.nodeType !== 1 || (node as Element).localName === "a") continue
    for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return true
}

/**
 * Removes from `body` the blocks that pick this page (at `pageUrl`) in another version or language; links resolve
 * against `baseUrl` (its `<base href>`, or the page's URL).
 */
export const remove = (body: Element, pageUrl: string | undefined, baseUrl: string | undefined = pageUrl): number => {
  if (pageUrl === undefined) return 0
  let page: URL
  let base: URL
  try {
    page = new URL(pageUrl)
    base = baseUrl === undefined ? page : new URL(baseUrl, page)
  } catch {
    return 0
  }
  const own = segments(page)
  const last = own[own.length - 1]
  if (last === undefined || own.length < 2 || generic.has(last.toLowerCase())) return 0
  const tallies = new Map<Element, Tally>()
  for (const a of TagWalk.withTags(body, ["a"])) {
    const block = blockOf(a)
    if (block === undefined) continue
    let tally = tallies.get(block)
    if (tally === undefined) tallies.set(block, (tally = { links: 0, picker: 0, slot: -2 }))
    tally.links++
    const href = a.getAttribute("href")
    if (href === null || href.length > 2000) continue
    let path: Array<string>
    try {
      path = segments(new URL(href, base))
    } catch {
      continue
    }
    if (path[path.length - 1] !== last) continue
    const at = slot(path, own)
    if (at === -1) continue
    // Every link of a picker changes the same segment of the page's path.
    if (at >= 0 && tally.slot >= 0 && tally.slot !== at) continue
    if (at >= 0) tally.slot = at
    tally.picker++
  }
  let removed = 0
  for (const [block, tally] of tallies) {
    if (tally.picker < minLinks || tally.picker !== tally.links || tally.slot < 0) continue
    if (!labelOnly(block)) continue
    block.parentNode?.removeChild(block)
    removed++
  }
  return removed
}
