/**
 * A page's own headings nested under the heading `--format markdown` gives each result: every heading level moves
 * down by `shift` (a page's `#` under the result's `##` becomes `###`), capped at `######`. ATX headings (`## Title`)
 * and one-line setext headings (`Title` over `===` or `---`) are moved; fenced code blocks and indented code are
 * left as they are. One pass over the lines, each read with anchored patterns of bounded repetition, so the cost is
 * linear in the page.
 */

const atx = /^( {0,3})(#{1,6})(?=[ \t]|$)/
const openingFence = /^ {0,3}(`{3,}|~{3,})/
const closingFence = /^ {0,3}(`{3,}|~{3,})[ \t]*$/
const setextUnderline = /^ {0,3}(=+|-+)[ \t]*$/
// Lines that cannot be the one line of a setext heading's text: indented code, or the start of another block.
const otherBlock = /^(?: {4}|\t| {0,3}(?:[#>|<]|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|`{3}|~{3}))/

const blank = (line: string) => line.trim() === ""

const level = (depth: number, shift: number) => "#".repeat(Math.min(6, depth + shift))

/** The markdown with each heading `shift` levels deeper (at most `######`). */
export const nest = (markdown: string, shift: number): string => {
  const lines = markdown.split("\n")
  const out: Array<string> = []
  let open: { readonly char: string; readonly length: number } | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (open !== undefined) {
      // A fence closes on a run of its own character at least as long, with nothing after it.
      const closing = closingFence.exec(line)
      if (closing !== null && closing[1][0] === open.char && closing[1].length >= open.length) open = undefined
      out.push(line)
      continue
    }
    const opening = openingFence.exec(line)
    if (opening !== null) {
      open = { char: opening[1][0], length: opening[1].length }
      out.push(line)
      continue
    }
    const heading = atx.exec(line)
    if (heading !== null) {
      out.push(`${heading[1]}${level(heading[2].length, shift)}${line.slice(heading[0].length)}`)
      continue
    }
    // A one-line paragraph (after a blank line, or first) over an underline is a setext heading.
    const underline = i + 1 < lines.length ? setextUnderline.exec(lines[i + 1]) : null
    if (underline !== null && !blank(line) && !otherBlock.test(line) && (i === 0 || blank(lines[i - 1]))) {
      out.push(`${level(underline[1][0] === "=" ? 1 : 2, shift)} ${line.trim()}`)
      i++
      continue
    }
    out.push(line)
  }
  return out.join("\n")
}
