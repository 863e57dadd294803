/**
 * Readability's visibility test, reading the inline style as text. Readability asks it of every element of the page
 * on every attempt, through `node.style.display` and `node.style.visibility`; linkedom answers with a
 * `CSSStyleDeclaration` built for the element (a `Map` behind a `Proxy`, the style attribute split anew on each
 * read), which cost more than the rest of the test and left one such object per element for the collector. Here
 * the same answer from the attribute's text: linkedom's reading is the last declaration of that exact property
 * name with a non-empty value, name and value trimmed, and so is this one.
 */

/** The value the inline style `style` gives `property`, or `""`: read as linkedom's `CSSStyleDeclaration` reads it. */
export const declared = (style: string, property: string): string => {
  let value = ""
  let start = 0
  // The next colon is remembered, not looked up from each declaration: `;;;;…:` would make that quadratic.
  let colon = -2
  while (start <= style.length) {
    let end = style.indexOf(";", start)
    if (end < 0) end = style.length
    if (colon !== -1 && colon < start) colon = style.indexOf(":", start)
    if (colon >= 0 && colon < end && style.slice(start, colon).trim() === property) {
      const v = style.slice(colon + 1, end).trim()
      if (v !== "") value = v
    }
    start = end + 1
  }
  return value
}

/** Whether an element is probably visible, as Readability's `_isProbablyVisible` decides it. */
export const isProbablyVisible = (node: Element): boolean => {
  const style = node.getAttributeNode("style")?.value
  if (style !== undefined && (declared(style, "display") === "none" || declared(style, "visibility") === "hidden")) {
    return false
  }
  if (node.hasAttribute("hidden")) return false
  if (node.getAttributeNode("aria-hidden")?.value !== "true") return true
  // Wikimedia's math images are `aria-hidden` and shown all the same.
  return node.className.includes("fallback-image")
}

/**
 * Gives one Readability instance the test above in place of its own (`_isProbablyVisible`, a method of its
 * prototype); an instance without that method is left as it is.
 */
export const install = (reader: object): void => {
  const own = reader as { _isProbablyVisible?: unknown }
  if (typeof own._isProbablyVisible !== "function") return
  own._isProbablyVisible = isProbablyVisible
}
