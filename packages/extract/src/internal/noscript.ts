/**
 * Pages that render their content with JavaScript often also serve it inside `<noscript>`, for crawlers and readers
 * without scripts (forum software does). Where that copy is most of the page's text, it is the content: its
 * `<noscript>` elements are unwrapped so that every reading (the type's reader, Readability, the whole-page pass)
 * sees it. Elsewhere `<noscript>` holds fallback images and "enable JavaScript" notes, and stays out.
 */

/** The `<noscript>` text is the content from this many characters ... */
export const minChars = 500
/** ... when it holds at least this many times the text outside it. */
export const minShare = 2

/** Whether a page with `text` characters outside `<noscript>` and `noscriptText` inside it is served in it. */
export const servesContent = (text: number, noscriptText: number): boolean =>
  noscriptText >= minChars && noscriptText >= text * minShare

/** Replaces every `<noscript>` in the body with what it holds. Linear in the page's size. */
export const reveal = (doc: Document): void => {
  if (doc.body === null) return
  // A static list (querySelectorAll), outermost first: unwrapping an outer one leaves the inner ones in place.
  for (const element of Array.from(doc.body.querySelectorAll("noscript"))) {
    const parent = element.parentNode
    if (parent === null) continue
    while (element.firstChild !== null) parent.insertBefore(element.firstChild, element)
    parent.removeChild(element)
  }
}
