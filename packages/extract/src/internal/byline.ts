/**
 * Readability's byline test, with the element's text read last. Until it has a byline Readability asks every
 * element it walks whether it is one (`_isValidByline`), and its own test reads the element's whole text
 * (`textContent`) before the cheap questions (a `rel="author"`, an `itemprop` naming the author, class or id words
 * like "byline"): the body's first elements hold the whole page, so each of them built a copy of the page's text for
 * the collector, only to find no byline. Here the same answer, the text read only for an element that can be one.
 */

interface Reader {
  readonly REGEXPS?: { readonly byline?: RegExp }
}

/** Whether `node` is a byline, as Readability's `_isValidByline` decides it (`byline` is its class-and-id pattern). */
export const isValidByline = (node: Element, matchString: string, byline: RegExp): boolean => {
  const rel = node.getAttribute("rel")
  const itemprop = node.getAttribute("itemprop")
  if (!(rel === "author" || (itemprop !== null && itemprop.includes("author")) || byline.test(matchString))) {
    return false
  }
  const length = (node.textContent ?? "").trim().length
  return length > 0 && length < 100
}

/**
 * Gives one Readability instance the test above in place of its own (`_isValidByline`, a method of its prototype,
 * with its pattern in `REGEXPS.byline`); an instance without either is left as it is.
 */
export const install = (reader: object): void => {
  const own = reader as Reader & { _isValidByline?: unknown }
  const byline = own.REGEXPS?.byline
  if (typeof own._isValidByline !== "function" || !(byline instanceof RegExp)) return
  own._isValidByline = (node: Element, matchString: string) => isValidByline(node, matchString, byline)
}
