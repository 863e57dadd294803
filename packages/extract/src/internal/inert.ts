/**
 * Removal of scripts (except JSON-LD), styles, inline SVG, comments and `<![...]>` sections from HTML text, by one
 * forward scan. It removes what this expression matches, keeping its first group (a JSON-LD script, left whole; an
 * end tag is its name then HTML whitespace, `/` or `>`, up to the next `>`):
 * `/(<script\b(?=[^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script(?=[\t\n\f\r />])[^>]*>)|
 * <script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script(?=[\t\n\f\r />])[^>]*>|
 * <style\b[^>]*>[\s\S]*?<\/style(?=[\t\n\f\r />])[^>]*>|<svg\b[^>]*>[\s\S]*?<\/svg(?=[\t\n\f\r />])[^>]*>|
 * <!--[\s\S]*?-->|<!\[[^>]*>/gi`, but that expression, on a page of unclosed `<script>` or `<!--` openings, reads to
 * the end of the page from each of them: quadratic. Here every search that finds nothing is remembered (what is not in
 * the rest of the page from one point is not there from any later one).
 *
 * A `<![CDATA[` (or `<![if IE]>`) in HTML outside SVG and MathML is a bogus comment that ends at the next `>`, as a
 * browser reads it; linkedom would read a CDATA section to its `]]>` or, without one, to the end of the page, and so
 * lose all of it. JSON-LD is kept whole, so a CDATA wrapper inside it stays for `structuredData.ts` to read.
 */

const word = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95

/**
 * The next match of a pattern at or after a position, for positions that only grow: a match found from an
 * earlier position is still the next one while it lies ahead, and no match from an earlier position means none
 * from any later one. Each character is then searched a bounded number of times.
 */
interface Ahead {
  readonly pattern: RegExp
  /** Where the last search found a match; -1 for nowhere; -2 before any search. */
  index: number
  end: number
}

const ahead = (pattern: RegExp): Ahead => ({ pattern, index: -2, end: -1 })

/** The start and end of the next match at or after `from`, or `undefined`. */
const next = (text: string, a: Ahead, from: number): Ahead | undefined => {
  if (a.index === -1) return undefined
  if (a.index < from) {
    a.pattern.lastIndex = from
    const match = a.pattern.exec(text)
    a.index = match === null ? -1 : match.index
    a.end = match === null ? -1 : match.index + match[0].length
  }
  return a.index === -1 ? undefined : a
}

const elements = ["script", "style", "svg"] as const

/**
 * Whether `name` (lower-case ASCII letters) is written at `at` in any case: read in place, as a slice lowered for
 * each of the three names at every `<` of the page was most of what this scan allocated.
 */
const namedAt = (html: string, at: number, name: string): boolean => {
  if (at + name.length > html.length) return false
  for (let k = 0; k < name.length; k++) {
    // ASCII letters only: setting the 0x20 bit lowers an upper-case letter and leaves a lower-case one.
    if ((html.charCodeAt(at + k) | 0x20) !== name.charCodeAt(k)) return false
  }
  return true
}

/** Removes scripts (except JSON-LD), styles, inline SVG, comments and `<![` sections; linear in the text's length. */
export const strip = (html: string): string => {
  // An end tag is its name followed by HTML whitespace, `/` or `>`, and runs to the next `>` (`</script\n<!-- -->`
  // closes the script at the comment's `>`, as a browser reads it): found in two steps, so a `</script ` with no
  // `>` after it costs one search, not a read to the end of the page.
  const closes = elements.map((name) => ahead(new RegExp(`</${name}(?=[\\t\\n\\f\\r />])`, "gi")))
  const comment = ahead(/-->/g)
  const sectionEnd = ahead(/>/g)
  // Each memo is searched from positions that only grow: the `>` of an opening tag from the scan position, and the
  // `>` ending an element's end tag from where that element's end tags are found (one memo per element, since one
  // element's end tag may lie beyond where a later element starts).
  const gt = ahead(/>/g)
  const closeGts = elements.map(() => ahead(/>/g))
  const jsonLd = ahead(/application\/ld\+json/gi)
  let out = ""
  let from = 0
  let i = html.indexOf("<")
  while (i >= 0) {
    let end = -1
    // The end of a JSON-LD script, which is kept: the scan goes on after it.
    let kept = -1
    if (html.startsWith("<!--", i)) {
      end = next(html, comment, i + 4)?.end ?? -1
    } else if (html.startsWith("<![", i)) {
      end = next(html, sectionEnd, i + 3)?.end ?? -1
    } else {
      for (let e = 0; e < elements.length; e++) {
        const name = elements[e]
        const after = i + 1 + name.length
        if (!namedAt(html, i + 1, name)) continue
        if (after < html.length && word(html.charCodeAt(after))) continue
        const tagEnd = next(html, gt, after)?.index
        if (tagEnd === undefined) break
        const close = next(html, closes[e], tagEnd + 1)?.end
        const closeEnd = close === undefined ? -1 : (next(html, closeGts[e], close)?.end ?? -1)
        const ld = name === "script" ? next(html, jsonLd, after)?.end : undefined
        if (ld !== undefined && ld <= tagEnd) kept = closeEnd
        else end = closeEnd
        break
      }
    }
    if (kept > 0) {
      i = html.indexOf("<", kept)
    } else if (end > 0) {
      out += html.slice(from, i)
      from = end
      i = html.indexOf("<", end)
    } else {
      i = html.indexOf("<", i + 1)
    }
  }
  return from === 0 ? html : out + html.slice(from)
}
