/**
 * Removal of scripts (except JSON-LD), styles, inline SVG and comments from HTML text, by one forward scan. It
 * removes what this expression matches (an end tag is its name then HTML whitespace, `/` or `>`, up to the next `>`):
 * `/<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script(?=[\t\n\f\r />])[^>]*>|
 * <style\b[^>]*>[\s\S]*?<\/style(?=[\t\n\f\r />])[^>]*>|<svg\b[^>]*>[\s\S]*?<\/svg(?=[\t\n\f\r />])[^>]*>|
 * <!--[\s\S]*?-->/gi`, but that expression, on a page of unclosed `<script>` or `<!--` openings, reads to the end of
 * the page from each of them: quadratic. Here every search that finds nothing is remembered (what is not in the rest
 * of the page from one point is not there from any later one).
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

/** Removes scripts (except JSON-LD), styles, inline SVG and comments; linear in the length of the text. */
export const strip = (html: string): string => {
  // An end tag is its name followed by HTML whitespace, `/` or `>`, and runs to the next `>` (`</script\n<!-- -->`
  // closes the script at the comment's `>`, as a browser reads it): found in two steps, so a `</script ` with no
  // `>` after it costs one search, not a read to the end of the page.
  const closes = elements.map((name) => ahead(new RegExp(`</${name}(?=[\\t\\n\\f\\r />])`, "gi")))
  const comment = ahead(/-->/g)
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
    if (html.startsWith("<!--", i)) {
      end = next(html, comment, i + 4)?.end ?? -1
    } else {
      for (let e = 0; e < elements.length; e++) {
        const name = elements[e]
        const after = i + 1 + name.length
        if (html.slice(i + 1, after).toLowerCase() !== name) continue
        if (after < html.length && word(html.charCodeAt(after))) continue
        const tagEnd = next(html, gt, after)?.index
        if (tagEnd === undefined) break
        if (name === "script") {
          const ld = next(html, jsonLd, after)?.end
          if (ld !== undefined && ld <= tagEnd) break
        }
        const close = next(html, closes[e], tagEnd + 1)?.end
        end = close === undefined ? -1 : (next(html, closeGts[e], close)?.end ?? -1)
        break
      }
    }
    if (end > 0) {
      out += html.slice(from, i)
      from = end
      i = html.indexOf("<", end)
    } else {
      i = html.indexOf("<", i + 1)
    }
  }
  return from === 0 ? html : out + html.slice(from)
}
