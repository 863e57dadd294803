/**
 * Parses HTML with linkedom into a document that always has the `html > head + body` shape a browser builds.
 * linkedom keeps what the markup says, so a fragment, text after `</html>` or a missing `<body>` would leave
 * `document.body` absent or content outside it; Readability and the whole-page pass both need the real shape.
 */
import { DOMParser } from "linkedom"

const headOnly = new Set(["title", "meta", "link", "base", "style", "script", "noscript", "template"])

const ELEMENT = 1
const TEXT = 3
const DOCTYPE = 10

const wellFormed = (doc: Document): boolean => {
  let elements = 0
  for (const node of Array.from(doc.childNodes)) if (node.nodeType === ELEMENT) elements++
  const root = doc.documentElement
  if (elements !== 1 || root === null || root.localName !== "html") return false
  const head = root.firstElementChild
  const body = head?.nextElementSibling
  return head?.localName === "head" && body?.localName === "body" && body.nextElementSibling === null
}

const copyAttributes = (from: Element, to: Element) => {
  for (const attr of Array.from(from.attributes)) {
    if (!to.hasAttribute(attr.name)) to.setAttribute(attr.name, attr.value)
  }
}

const rebuild = (doc: Document): void => {
  const top = Array.from(doc.childNodes)
  const html = doc.createElement("html")
  const head = doc.createElement("head")
  const body = doc.createElement("body")
  html.appendChild(head)
  html.appendChild(body)
  // Iterative, so that deeply nested html/head wrappers cannot overflow the stack. A stack in reverse document
  // order, not a queue: `shift` and `unshift` move the whole array, and 600 000 top-level nodes took minutes.
  const stack: Array<Node> = top.slice().reverse()
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === DOCTYPE) continue
    // Whitespace between head elements must not start the body, or later <meta>s would land in it.
    if (node.nodeType === TEXT && body.firstChild === null && (node as Text).data.trim() === "") continue
    if (node.nodeType === ELEMENT) {
      const el = node as Element
      const name = el.localName
      if (name === "html" || name === "head") {
        if (name === "html") copyAttributes(el, html)
        const children = Array.from(el.childNodes)
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
        continue
      }
      if (name === "body") {
        copyAttributes(el, body)
        for (const child of Array.from(el.childNodes)) body.appendChild(child)
        continue
      }
      if (headOnly.has(name) && body.firstChild === null) {
        head.appendChild(el)
        continue
      }
    }
    body.appendChild(node)
  }
  for (const node of top) if (node.parentNode === doc && node.nodeType !== DOCTYPE) doc.removeChild(node)
  doc.appendChild(html)
}

/** Parses an HTML string; never throws for any input string. */
export const parse = (html: string): Document => {
  const doc = new DOMParser().parseFromString(html, "text/html") as unknown as Document
  if (!wellFormed(doc)) rebuild(doc)
  return doc
}
