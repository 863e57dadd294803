/**
 * How much text an HTML page shows, estimated from its source without parsing it: the letters and digits outside
 * tags, comments and the elements whose content is never shown as text (scripts, styles, templates, inline SVG).
 * One forward scan: each search for an element's end tag starts where the last one ended, and a search that finds
 * nothing ends the scan (nothing after it is shown text the estimate could count), so the cost is linear in the page.
 */

const hidden = ["script", "style", "template", "svg", "noscript"]

const isLetterOrDigit = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code >= 0xc0

/** The letters and digits a reader sees on a page (entities and hidden elements counted too: an estimate). */
export const letters = (html: string): number => {
  const lower = html.toLowerCase()
  let count = 0
  let i = 0
  while (i < lower.length) {
    const code = lower.charCodeAt(i)
    if (code !== 60) {
      if (isLetterOrDigit(code)) count++
      i++
      continue
    }
    if (lower.startsWith("<!--", i)) {
      const end = lower.indexOf("-->", i + 4)
      if (end < 0) break
      i = end + 3
      continue
    }
    const close = lower.indexOf(">", i + 1)
    if (close < 0) break
    const name = hidden.find(
      (tag) => lower.startsWith(tag, i + 1) && !isLetterOrDigit(lower.charCodeAt(i + 1 + tag.length))
    )
    if (name === undefined) {
      i = close + 1
      continue
    }
    const end = lower.indexOf(`</${name}`, close + 1)
    if (end < 0) break
    i = end + 2 + name.length
  }
  return count
}
