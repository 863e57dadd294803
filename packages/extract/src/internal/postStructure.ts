/**
 * The posts of a thread, found by their shape: the largest group of same-shaped elements (same tag and class words)
 * whose members each carry an author (a name, a profile link), a time (`<time>`, a date) and text of their own.
 * Forum software, Q&A sites, issue trackers and comment threads all repeat one post shape per post, whatever their
 * names for it. One walk over the page (post-order, without recursion), then work per group: linear in its size.
 */
import * as Boilerplate from "./boilerplate.js"
import { inlineTags } from "./inlineTags.js"

const ELEMENT = 1
const TEXT = 3

/** Class names that say only how an element looks now (alternating rows, states): left out of its shape. */
const stateNames = new Set([
  "odd",
  "even",
  "alt",
  "first",
  "last",
  "active",
  "selected",
  "new",
  "unread",
  "read",
  "clearfix",
  "cf",
  "highlighted",
  "sticky",
  "collapsed",
  "noncollapsed",
  "expanded",
  "visible",
  "hover",
  "focus"
])

/** Class words of an author's name or card. */
export const authorWords = new Set([
  "author",
  "username",
  "user",
  "poster",
  "nick",
  "nickname",
  "member",
  "membername",
  "creator",
  "owner",
  "avatar",
  "profile",
  "userinfo",
  "postauthor",
  "postprofile",
  "postavatar",
  "usertitle"
])
/** Class words of a post's time. */
export const timeWords = new Set([
  "date",
  "time",
  "timestamp",
  "datetime",
  "posted",
  "published",
  "ago",
  "timeago",
  "postdate"
])
/** Attributes that hold a post's time for a script to show. */
const timeAttributes = ["datetime", "data-timestamp", "data-time", "data-date"] as const
/** Tags that hold a post's time. */
const timeTags = new Set(["time", "relative-time", "time-ago", "local-time"])
const skipped = new Set(["script", "style", "noscript", "template", "textarea", "svg", "head", "select", "option"])
/** Whole-page chrome: never a post, nor inside one. Not forms: forum software wraps whole threads in one. */
const chromeTags = new Set(["nav", "header", "footer", "aside", "menu", "dialog"])

/** A link to a member's profile page. Constant work per position, on at most 200 characters. */
const profileHref =
  /(?:^|\/)(?:u|user|users|member|members|profile|profiles|people|author|authors|usr)(?:\/|\.php|$)|memberlist\.php|[?&](?:u|user|userid|uid|showuser)=|\/[@~][\w.-]/i

/** A link that shares the page on another site. Tested on at most 200 characters. */
const shareHref = /share|intent\/tweet|\/submit\?|mailto:/i

/** Whether a link goes to a member's profile. */
export const isProfileLink = (element: Element): boolean => {
  if (element.localName !== "a") return false
  const href = element.getAttribute("href")
  if (href === null) return false
  const head = href.slice(0, 200)
  // A share button's link names the page to share in the same query parameters (`sharer.php?u=`): not a member.
  return profileHref.test(head) && !shareHref.test(head)
}

/** A date as posts show it ("3 days ago", "Jan 5, 2024", "05.01.2024", "2024-01-05 10:00"). Tested on short texts. */
export const dateLike =
  /\b\d{1,3}\s+(?:second|minute|hour|day|week|month|year)s?\s+ago\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+(?:'|’)?\d{2,4}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}\b|\b\d{4}-\d{2}-\d{2}(?:\b|T)|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b(?:yesterday|today)\b/i

/** A short text (a label, a name, a date) is at most this long. */
export const maxShort = 60

const shapeCache = new Map<string, string>()

/**
 * Utility classes (Bootstrap's, Tailwind's): they say how an element is laid out, not what it is, and modern pages
 * put the same ones on posts, menus and footers alike. Tested on class names without digits, so bounded.
 */
const utility =
  /^(?:[a-z]{1,6}:)?-?(?:d|flex|grid|block|inline|relative|absolute|static|fixed|container|row|col|w|h|p|m|pt|pb|pl|pr|px|py|mt|mb|ml|mr|mx|my|ms|me|ps|pe|gap|space|text|font|fw|fs|lh|leading|tracking|bg|border|rounded|shadow|items|justify|align|self|order|overflow|position|float|clear|z|opacity|min|max|top|bottom|left|right|inset|cursor|select|transition|duration|ease|list|whitespace|break|truncate|visually|sr|shrink|grow|basis|content|place|object|aspect|ring|outline|animate|transform|translate|scale|rotate)(?:-[a-z-]{1,30})?$/

/** Attributes that name what an element is in a page's own vocabulary (`component="post"`, `data-role="comment"`). */
const roleAttributes = ["component", "data-role", "data-testid", "data-type"] as const

/**
 * The shape of an element: its tag and the role an attribute names (see `roleAttributes`), or else its first three
 * class names (lower case; without names holding a digit, which number or hash an element, utility classes, nor
 * state names such as `odd` or `is-open`). `undefined` for an inline element, or a plain element of a common tag
 * with no such name (a bare `div` is no shape).
 */
export const shapeOf = (element: Element): string | undefined => {
  const name = element.localName
  if (inlineTags.has(name)) return undefined
  for (const attr of roleAttributes) {
    const role = Boilerplate.attribute(element, attr)
    if (role !== null && /^[A-Za-z][\w/-]{0,40}$/.test(role)) return `${name}@${role.toLowerCase()}`
  }
  const cls = Boilerplate.attribute(element, "class")
  // The shape reads the first 300 characters of the class: the key holds no more (a page of huge classes stays small).
  const key = name + " " + (cls ?? "").slice(0, 300)
  const cached = shapeCache.get(key)
  if (cached !== undefined) return cached === "" ? undefined : cached
  let out = name
  let n = 0
  for (const part of (cls ?? "")
    .slice(0, 300)
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)) {
    if (n === 3) break
    if (
      part === "" ||
      /\d/.test(part) ||
      stateNames.has(part) ||
      /^(?:is|has)-|(?:^|[-_]|row)(?:odd|even)$/.test(part) ||
      utility.test(part)
    ) {
      continue
    }
    out += "." + part
    n++
  }
  // Without a class name of its own, only an element that is a unit of a list or a page is a shape.
  if (n === 0 && !(name === "article" || name === "li" || name === "tr" || name.includes("-"))) out = ""
  if (shapeCache.size >= 4096) shapeCache.clear()
  shapeCache.set(key, out)
  return out === "" ? undefined : out
}

/** Facts of one element, summed over its subtree. */
interface Frame {
  readonly element: Element
  readonly shape: string | undefined
  /** Pre-order index, and that of its last descendant. */
  readonly index: number
  end: number
  /** Characters of text outside links, inside links, and in prose (text nodes of 80+ characters outside links). */
  text: number
  links: number
  prose: number
  times: number
  authors: number
  /** Of those, in same-shaped elements inside it (replies inside a reply): not its own. */
  nestedTimes: number
  nestedAuthors: number
  /** The nearest element of the same shape that holds it. */
  readonly outer: Frame | undefined
  readonly nested: boolean
}

/** A group of same-shaped elements, members in document order. */
export interface Group {
  readonly shape: string
  readonly members: ReadonlyArray<Element>
  /** Text outside links, and prose, of the outermost members. */
  readonly text: number
  readonly prose: number
}

/** The thread's posts, and the page's prose (to judge how much of the page they are). */
export interface Thread {
  readonly posts: ReadonlyArray<Element>
  readonly prose: number
  readonly pageProse: number
}

interface Tally {
  members: Array<Frame>
  text: number
  prose: number
  withTime: number
  withAuthor: number
  times: number
}

/** Posts are the members of a group of at least this many ... */
export const minPosts = 2
/** ... at least this share of which shows a time and an author ... */
export const minSignedShare = 0.5
/** ... and which show on average at most this many times each (more: each holds several posts). */
export const maxTimesPerPost = 4

const ownSignals = (element: Element, words: ReadonlyArray<string>): { time: number; author: number } => {
  let time = timeTags.has(element.localName) || timeAttributes.some((a) => element.hasAttribute(a)) ? 1 : 0
  let author = 0
  for (const w of words) {
    if (timeWords.has(w)) time = 1
    if (authorWords.has(w)) author = 1
  }
  if (element.getAttribute("itemprop") === "author" || element.getAttribute("rel") === "author") author = 1
  if (isProfileLink(element)) author = 1
  return { time, author }
}

/**
 * Finds the posts of `root`: every member of the best group of same-shaped, signed elements (see {@link Group}),
 * nested ones included (replies inside replies), in document order. `undefined` when no group looks like posts.
 */
export const find = (root: Element): Thread | undefined => {
  const tallies = new Map<string, Tally>()
  const open: Array<Frame> = []
  // The innermost open element of each shape.
  const openShapes = new Map<string, Frame>()
  let pageProse = 0
  let linkDepth = 0
  let chromeDepth = 0
  let index = 0
  // Markers: 0 closes a frame, 1 a link, 2 chrome.
  const stack: Array<Node | 0 | 1 | 2> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node === 1) {
      linkDepth--
      continue
    }
    if (node === 2) {
      chromeDepth--
      continue
    }
    if (node === 0) {
      const frame = open.pop()!
      frame.end = index - 1
      if (frame.shape !== undefined) {
        if (frame.outer === undefined) openShapes.delete(frame.shape)
        else {
          openShapes.set(frame.shape, frame.outer)
          frame.outer.nestedTimes += frame.times
          frame.outer.nestedAuthors += frame.authors
        }
        if (chromeDepth === 0 && frame.text > 0) {
          let tally = tallies.get(frame.shape)
          if (tally === undefined) {
            tally = { members: [], text: 0, prose: 0, withTime: 0, withAuthor: 0, times: 0 }
            tallies.set(frame.shape, tally)
          }
          tally.members.push(frame)
          if (!frame.nested) {
            tally.text += frame.text
            tally.prose += frame.prose
          }
          // Its own signals: a reply's author and time are the reply's.
          const times = frame.times - frame.nestedTimes
          if (times > 0) tally.withTime++
          if (frame.authors - frame.nestedAuthors > 0) tally.withAuthor++
          tally.times += times
        }
      }
      const parent = open[open.length - 1]
      if (parent !== undefined) {
        parent.text += frame.text
        parent.links += frame.links
        parent.prose += frame.prose
        parent.times += frame.times
        parent.authors += frame.authors
      }
      continue
    }
    if (node.nodeType === TEXT) {
      const frame = open[open.length - 1]
      if (frame === undefined) continue
      const data = (node as Text).data
      const size = data.length <= maxShort * 4 ? data.trim().length : data.length
      if (size === 0) continue
      if (linkDepth > 0) frame.links += size
      else {
        frame.text += size
        if (size >= 80 && chromeDepth === 0) {
          frame.prose += size
          pageProse += size
        }
      }
      if (size <= maxShort && frame.times === 0 && dateLike.test(data)) frame.times++
      continue
    }
    if (node.nodeType !== ELEMENT) continue
    const element = node as Element
    const name = element.localName
    if (skipped.has(name)) continue
    const shape = shapeOf(element)
    const outer = shape === undefined ? undefined : openShapes.get(shape)
    const own = ownSignals(element, Boilerplate.tokens(element))
    const frame: Frame = {
      element,
      shape,
      index: index++,
      end: -1,
      text: 0,
      links: 0,
      prose: 0,
      times: own.time,
      authors: own.author,
      nestedTimes: 0,
      nestedAuthors: 0,
      outer,
      nested: outer !== undefined
    }
    if (shape !== undefined) openShapes.set(shape, frame)
    open.push(frame)
    stack.push(0)
    if (name === "a") {
      linkDepth++
      stack.push(1)
    }
    if (chromeTags.has(name)) {
      chromeDepth++
      stack.push(2)
    }
    for (let c = element.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  const valid: Array<Tally> = []
  for (const tally of tallies.values()) {
    const n = tally.members.length
    if (n < minPosts || tally.text === 0) continue
    if (tally.withTime < n * minSignedShare || tally.withAuthor < n * minSignedShare) continue
    if (tally.times > n * maxTimesPerPost) continue
    valid.push(tally)
  }
  let best = pick(valid)
  if (best === undefined) return undefined
  // A group whose members each hold several members of another valid group is a group of containers: the posts are
  // the inner group's, when it holds most of the text.
  for (let step = 0; step < 4; step++) {
    const inner = finer(best, valid)
    if (inner === undefined) break
    best = inner
  }
  // A member that is mostly links and shows no time is a menu or a pager of the same shape, not a post.
  const posts = best.members
    .filter((f) => f.times > f.nestedTimes || f.text >= f.links)
    .sort((a, b) => a.index - b.index)
  if (posts.length < minPosts) return undefined
  return { posts: posts.map((f) => f.element), prose: best.prose, pageProse }
}

const pick = (valid: ReadonlyArray<Tally>): Tally | undefined => {
  let best: Tally | undefined
  // On equal text the outer group wins (it closes later): a wrapper that adds nothing holds the post's author too.
  for (const tally of valid) if (best === undefined || tally.text >= best.text) best = tally
  return best
}

/** A valid group inside `outer`'s members, with at least 1.5 times its members and 70% of its text. */
const finer = (outer: Tally, valid: ReadonlyArray<Tally>): Tally | undefined => {
  const ranges = outer.members
    .filter((f) => !f.nested)
    .map((f) => [f.index, f.end] as const)
    .sort((a, b) => a[0] - b[0])
  const inside = (f: Frame): boolean => {
    let lo = 0
    let hi = ranges.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (ranges[mid][0] > f.index) hi = mid - 1
      else if (ranges[mid][1] < f.index) lo = mid + 1
      else return ranges[mid][0] !== f.index
    }
    return false
  }
  let found: Tally | undefined
  for (const tally of valid) {
    if (tally === outer || tally.members.length < outer.members.length * 1.5 || tally.text < outer.text * 0.7) continue
    if (!tally.members.every(inside)) continue
    if (found === undefined || tally.text > found.text) found = tally
  }
  return found
}
