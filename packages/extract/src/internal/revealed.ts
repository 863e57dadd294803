/**
 * Content a script would show, shown before the page is read. Two shapes, both general:
 * - a page hidden as a whole until its scripts run (a wrapper with `hidden`, `display:none`, `visibility:hidden` or a
 *   hiding class around most of the page's text and markup, against a flash of unstyled content): it is unhidden;
 * - React's streamed boundaries: the server sends a placeholder (`<template id="B:0">`) and, later in the body, the
 *   content in `<div hidden id="S:0">`, which a script moves into place. The content is moved into place here.
 * Elsewhere hidden elements stay hidden (menus, dialogs, inactive tabs), for the rules that drop them.
 */
import * as Boilerplate from "./boilerplate.js"

/** A hidden element is a page wrapper when it holds at least this share of the page's text. */
export const minWrapperShare = 0.5
/** Wrappers are looked for this many levels below `<body>` at most. */
export const maxWrapperDepth = 6

/** A streamed boundary's content (`<div hidden id="S:12">`). */
export const isStreamed = (element: Element): boolean =>
  element.localName === "div" && element.hasAttribute("hidden") && /^S:\d{1,9}$/.test(element.id)

/**
 * Whether a hidden element near the top of the page holds enough of its `text` characters and of its `elements` to be
 * the page (a hidden dialog or a hidden blob of JSON may hold much text, but not most of the page's markup).
 */
export const isPageWrapper = (element: Element, text: number, elements: number): boolean => {
  if (text === 0 || !Boilerplate.isHidden(element)) return false
  let chars = 0
  let count = 0
  const stack: Array<Node> = [element]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.nodeType === 3) chars += (node as Text).data.trim().length
    else if (node.nodeType === 1) {
      count++
      for (let c = node.lastChild; c !== null; c = c.previousSibling) stack.push(c)
    }
  }
  return chars >= text * minWrapperShare && count >= elements * minWrapperShare
}

/** Whether an element is a streamed boundary's placeholder (`<template id="B:12">`). */
export const isPlaceholder = (element: Element): boolean =>
  element.localName === "template" && /^B:\d{1,9}$/.test(element.id)

/**
 * Unhides `wrappers` (see {@link isPageWrapper}) and moves each streamed boundary's content into its placeholder
 * (found by id among `placeholders`; without one, the content is unhidden where it is).
 */
export const reveal = (
  wrappers: ReadonlyArray<Element>,
  streamed: ReadonlyArray<Element>,
  placeholders: ReadonlyMap<string, Element>
): void => {
  for (const element of wrappers) {
    for (const attr of ["hidden", "aria-hidden", "style", "class"]) element.removeAttribute(attr)
  }
  for (const content of streamed) {
    const placeholder = placeholders.get(`B:${content.id.slice(2)}`)
    content.removeAttribute("hidden")
    if (placeholder === undefined || placeholder.parentNode === null) continue
    const parent = placeholder.parentNode
    while (content.firstChild !== null) parent.insertBefore(content.firstChild, placeholder)
    content.remove()
    placeholder.remove()
  }
}
