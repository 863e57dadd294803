/**
 * The reader of forum threads (Q&A pages, discussion boards, issue trackers, comment threads): every post, in page
 * order, each under a line with its author and time, without the vote widgets, signatures, reply and share buttons
 * around it. The posts are found by their shape (`postStructure.ts`); a page whose posts hold too little of its
 * prose (an article with a few comments) is left to the article path.
 */
import * as Markdown from "../Markdown.js"
import * as Boilerplate from "./boilerplate.js"
import * as BoilerplateRules from "./boilerplateRules.js"
import * as PostParts from "./postParts.js"
import * as PostStructure from "./postStructure.js"
import * as QuoteEcho from "./quoteEcho.js"
import type * as TypedPage from "./typedPage.js"

const ELEMENT = 1
const TEXT = 3

/** The posts must hold at least this share of the page's prose (text in runs of 80 characters or more). */
export const minProseShare = 0.5

/** Whether a form has a field to fill in (a reply box, a search): it is one, not a wrapper. */
const hasField = (form: Element): boolean => {
  for (const element of PostParts.elementsOf(form, PostParts.never)) {
    const name = element.localName
    if (name === "textarea" || name === "select") return true
    if (name === "input" && (element.getAttribute("type") ?? "text").toLowerCase() !== "hidden") return true
  }
  return false
}

/** The outermost forms under `root` (itself included): their subtrees are apart. */
const outermostForms = (root: Element): Array<Element> => {
  const out: Array<Element> = []
  const stack: Array<Element> = [root]
  while (stack.length > 0) {
    const element = stack.pop()!
    if (element.localName === "form") {
      out.push(element)
      continue
    }
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  return out
}

/**
 * The post's body with its forms that have no field to fill in made plain blocks: such a form around a post's text
 * is an edit-in-place wrapper (old Reddit wraps every comment in one), not a reply box, and markdown drops forms as
 * page chrome. Returns the body (a new element when the body was such a form). linkedom nests a `<form>` met inside
 * another, so only the outermost forms are asked for a field (one walk each, their subtrees apart): a form inside
 * one without a field has none either, and one inside a form with a field goes with it as chrome.
 */
const ownForms = (body: Element, size: Map<Element, number>): Element => {
  const forms: Array<Element> = []
  for (const outer of outermostForms(body)) {
    if ((size.get(outer) ?? 0) === 0 || hasField(outer)) continue
    for (const element of PostParts.elementsOf(outer, PostParts.never)) {
      if (element.localName === "form" && (size.get(element) ?? 0) > 0) forms.push(element)
    }
  }
  let out = body
  for (const form of forms) {
    const block = form.ownerDocument.createElement("div")
    while (form.firstChild !== null) block.appendChild(form.firstChild)
    form.replaceWith(block)
    size.set(block, size.get(form) ?? 0)
    if (form === body) out = block
  }
  return out
}

/** A label has at most this many words, in this many characters. */
const maxLabelWords = 3
const maxShortLabel = 60

/**
 * One post as markdown (standing alone, its replies taken out): a line with its author and time, then its body,
 * without the quotations of the posts above it (`echo` remembers them).
 */
const renderPost = (
  post: Element,
  size: Map<Element, number>,
  baseUrl: string | undefined,
  echo: QuoteEcho.Echo
): string => {
  const body = ownForms(PostParts.bodyOf(post, size), size)
  const { author, time } = PostParts.signature(post, body)
  // Inside the body, the signature line and the widgets go: the author and time are in the post's first line.
  const drop: Array<Element> = []
  for (const element of PostParts.elementsOf(body, PostParts.never)) {
    if (element === body) continue
    if (element === author?.element || element === time?.element || PostParts.isWidget(element, size)) {
      drop.push(element)
    }
  }
  for (const element of drop) element.remove()
  echo.dropRepeats(body)
  echo.remember(body)
  Boilerplate.prune(body, { title: undefined, byline: undefined, keepCaptions: false }, [BoilerplateRules.hiddenRule])
  const text = Markdown.fromNode(body, { baseUrl, dropChrome: true })
  const head = [author && `**${PostParts.inline(author.name)}**`, time && PostParts.inline(time.text)]
    .filter((part) => part !== undefined)
    .join(" · ")
  // A post with no text of its own (a deleted one, a "load more" stub) is left out, its line too; so is a member of
  // the posts' shape that shows neither author nor time and only a label ("Post Options"): a menu, not a post.
  if (
    text === "" ||
    (head === "" && text.length <= maxShortLabel && (text.match(/[\p{L}\p{N}]+/gu) ?? []).length <= maxLabelWords)
  )
    return ""
  return head === "" ? text : `${head}\n\n${text}`
}

const chrome = new Set(["nav", "header", "footer", "aside", "menu", "dialog", "form"])

/** An opening post's body has at least this many characters of text, at most 30% of them in links. */
const minOpeningChars = 100
/** At most this many opening posts are looked for before the first post. */
const maxOpening = 2
/** An opening post's wrapper holds at most this many times its body's text (plus a card's worth). */
const maxWrapperShare = 2

/** Text and link-text lengths of every element under `root`, bottom-up. */
const textAndLinks = (root: Element): Map<Element, { text: number; links: number }> => {
  const out = new Map<Element, { text: number; links: number }>()
  Boilerplate.bottomUp(root, (element) => {
    let text = 0
    let links = 0
    for (let c = element.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === TEXT) text += (c as Text).data.trim().length
      else if (c.nodeType === ELEMENT) {
        const child = out.get(c as Element)
        text += child?.text ?? 0
        links += child?.links ?? 0
      }
    }
    out.set(element, { text, links: element.localName === "a" ? text : links })
  })
  return out
}

/**
 * Posts shaped otherwise than the replies (a question above its answers, a story above its comments) whose body has
 * the replies' body shape: found between the thread's title and `mark` (where the first post stood), each widened to
 * the wrapper around its body that holds its author and time. The posts stand alone already (taken out of `root`).
 */
const openingPosts = (root: Element, mark: Element, shape: string): Array<Element> => {
  const size = textAndLinks(root)
  const found: Array<Element> = []
  // Only after the thread's title when the page has one: above it are menus and banners.
  let titled = root.querySelector("h1") === null
  const stack: Array<Element> = [root]
  while (stack.length > 0 && found.length < maxOpening) {
    const element = stack.pop()!
    if (element === mark) break
    if (chrome.has(element.localName)) continue
    if (element.localName === "h1") titled = true
    const own = size.get(element)
    if (
      titled &&
      element !== root &&
      own !== undefined &&
      own.text >= minOpeningChars &&
      own.links <= own.text * 0.3 &&
      PostStructure.shapeOf(element) === shape
    ) {
      found.push(element)
      continue
    }
    for (let c = element.lastElementChild; c !== null; c = c.previousElementSibling) stack.push(c)
  }
  // The walk stopped at the mark, so what it found lies before it; each body is widened to its wrapper.
  return found.map((body) => {
    const own = size.get(body)?.text ?? 0
    let wrapper = body
    for (let up = 0; up < 3; up++) {
      const parent = wrapper.parentElement
      if (parent === null || parent === root || parent.contains(mark)) break
      if ((size.get(parent)?.text ?? 0) > own * maxWrapperShare + PostParts.maxCardChars) break
      wrapper = parent
    }
    return wrapper
  })
}

/** The share of a reply's text that the block holding it has, at least. */
const innerShare = 0.5

/** The body shape most posts share (at least half of them), if any. */
const commonShape = (bodies: ReadonlyArray<Element>): string | undefined => {
  const counts = new Map<string, number>()
  for (const body of bodies) {
    const shape = PostStructure.shapeOf(body)
    if (shape !== undefined) counts.set(shape, (counts.get(shape) ?? 0) + 1)
  }
  let best: string | undefined
  for (const [shape, n] of counts)
    if (n >= bodies.length / 2 && (best === undefined || n > counts.get(best)!)) best = shape
  return best
}

/** Reads a thread's posts; `undefined` when the page shows none, or they hold too little of its prose. */
export const read: TypedPage.Reader = (doc, context) => {
  const root = doc.body
  if (root === null) return undefined
  const thread = PostStructure.find(root)
  if (thread === undefined || thread.prose < thread.pageProse * minProseShare) return undefined
  // Each post stands alone: replies nested in a post are taken out of it (innermost first), and a mark holds the
  // first post's place, to look for an opening post shaped otherwise before it.
  const { posts } = thread
  for (let i = posts.length - 1; i > 0; i--) posts[i].remove()
  const mark = doc.createElement("template")
  posts[0].replaceWith(mark)
  const sizes = posts.map((post) => PostParts.lengths(post))
  const shape = commonShape(posts.map((post, i) => PostParts.bodyOf(post, sizes[i])))
  let opening = shape === undefined ? [] : openingPosts(root, mark, shape)
  // Short replies are mostly their cards, so their body is the whole cell, shaped as a reply's only ("answercell"):
  // the opening post is then looked for by the block that holds its text, the one holding most of a reply's.
  if (opening.length === 0) {
    const inner = commonShape(posts.map((post, i) => PostParts.bodyOf(post, sizes[i], innerShare)))
    if (inner !== undefined && inner !== shape) opening = openingPosts(root, mark, inner)
  }
  for (const post of opening) post.remove()
  const parts: Array<string> = []
  const echo = QuoteEcho.make()
  for (const post of opening) parts.push(renderPost(post, PostParts.lengths(post), context.baseUrl, echo))
  posts.forEach((post, i) => parts.push(renderPost(post, sizes[i], context.baseUrl, echo)))
  // Nothing to show after all: an answer without text, so the page is parsed afresh for the article path.
  return parts.filter((part) => part !== "").join("\n\n---\n\n")
}
