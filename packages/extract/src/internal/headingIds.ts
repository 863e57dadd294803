/**
 * Ids that name a section after its heading. Documentation generators (Sphinx, MkDocs, Docusaurus, Hugo, GitHub's
 * READMEs) give every section, or its heading, the heading's words as an id: `<section id="respond-to-review-comments">`
 * says what the section is about, not what part of the page it plays. Readability and the boilerplate rules read ids
 * as roles ("comment", "related", "footer", "share"), and so dropped such a section whole. Those ids are moved to
 * `data-heading-id` before the page is read (where the article's table of contents still finds them); every other id
 * stays.
 */

import * as TagWalk from "./tagWalk.js"

const headingNames = ["h1", "h2", "h3", "h4", "h5", "h6"]

/** A generated id has at least this many words: a role (`comments`, `related-posts`) has one or two. */
const minWords = 3
/** Ids and heading texts longer than this are not looked at (no heading worth an id is longer). */
const maxLength = 200

/** A heading's text, at most `maxLength` + 1 characters of it, read without recursion. */
const headingText = (heading: Element): string => {
  let out = ""
  const stack: Array<Node> = [heading]
  while (stack.length > 0 && out.length <= maxLength) {
    const node = stack.pop()!
    if (node.nodeType === 3) out += (node as CharacterData).data
    else if (node.nodeType === 1) for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
  }
  return out
}

/** The words of a text as generators join them into an id: lower case, letters and digits, `-` between. */
export const slug = (text: string): string => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join("-")

/**
 * First words of headings that name a role of their own: "Related posts for you", "Share this article", "Comments
 * on this post", "Leave a reply", "Sign up for our newsletter", "You might also like", "About the author". Their
 * sections are what the role words say, and keep their ids.
 */
const roleStarts = new Set([
  "related",
  "share",
  "sharing",
  "comment",
  "comments",
  "leave",
  "reply",
  "replies",
  "join",
  "sign",
  "subscribe",
  "newsletter",
  "follow",
  "more",
  "recommended",
  "popular",
  "trending",
  "you",
  "about",
  "advertisement",
  "sponsored",
  "read"
])

/** Whether `id` is `heading`'s text as an id (a prefix such as `user-content-` or `section-` allowed). */
const namedFor = (id: string, heading: Element): boolean => {
  const text = headingText(heading)
  if (text.length > maxLength) return false
  const words = slug(text)
  const parts = words.split("-")
  if (parts.length < minWords || roleStarts.has(parts[0])) return false
  const own = slug(id)
  return own === words || own.endsWith(`-${words}`)
}

/**
 * Whether `heading` opens `element`: it is its first element child, after at most 3 empty ones (anchors such as
 * `<span id="x"></span>`).
 */
const opens = (heading: Element, element: Element): boolean => {
  let child = element.firstElementChild
  for (let skipped = 0; child !== null && child.firstChild === null && skipped < 3; skipped++)
    child = child.nextElementSibling
  return child === heading
}

/** The attribute an id named after its heading is moved to. */
export const attribute = "data-heading-id"

/** Moves `element`'s id to {@link attribute} when it is `heading`'s text as an id. */
const move = (element: Element, heading: Element): void => {
  const id = element.getAttribute("id")
  if (id === null || id.length > maxLength || id.length < 5 || !namedFor(id, heading)) return
  element.setAttribute(attribute, id)
  element.removeAttribute("id")
}

/**
 * Moves the ids of `root`'s descendants named after their own heading: each heading's, and its section's (the
 * element the heading opens). One pass over the headings.
 */
export const clear = (root: Element): void => {
  for (const heading of TagWalk.withTags(root, headingNames)) {
    move(heading, heading)
    const section = heading.parentElement
    if (section !== null && section !== root && opens(heading, section)) move(section, heading)
  }
}
