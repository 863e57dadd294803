/**
 * Removes the whitespace that only indents markup: a run of HTML whitespace between two tags, one of which is a
 * block-level tag (start or end), outside `pre`, `textarea`, `script` and `title`. A browser renders nothing for
 * it (whitespace collapses away at a block's edges), the markdown renderer resolves it into the block break it
 * stands beside, and every text-reading rule here separates blocks itself; but parsed, each run is a text node, a
 * quarter of all nodes of a typical page, which the parser, Readability and every walk pay for. One forward scan,
 * each character read a bounded number of times: linear in the page.
 */

const blocks = new Set([
  "address",
  "article",
  "aside",
  "base",
  "blockquote",
  "body",
  "caption",
  "center",
  "col",
  "colgroup",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "head",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "link",
  "main",
  "menu",
  "meta",
  "nav",
  "ol",
  "optgroup",
  "option",
  "p",
  "pre",
  "script",
  "section",
  "style",
  "summary",
  "table",
  "tbody",
  "td",
  "template",
  "tfoot",
  "th",
  "thead",
  "title",
  "tr",
  "ul"
])

// Elements whose content is kept exactly (preformatted, or text the tokenizer does not read as markup).
const verbatim = new Set(["pre", "textarea", "script", "title", "listing", "xmp", "plaintext"])

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12
const isNameChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45

interface Tag {
  /** Lower-case name, `""` for `<!…>` and `<?…>`, `undefined` when `<` starts no tag. */
  name: string | undefined
  closing: boolean
  /** Index just past the tag's `>`; -1 when the tag never ends. */
  end: number
}

const set = (tag: Tag, name: string | undefined, closing: boolean, end: number): Tag => {
  tag.name = name
  tag.closing = closing
  tag.end = end
  return tag
}

/**
 * Reads the tag starting at `i` (a `<`) into `tag`, as the tokenizer reads it: quoted attribute values may hold `>`.
 * Into an object the scan owns, not a new one per tag: two per page, not two per tag.
 */
const readTag = (html: string, i: number, tag: Tag): Tag => {
  const first = html.charCodeAt(i + 1)
  if (first === 33 || first === 63) {
    // A doctype or processing instruction: to the next `>`.
    const gt = html.indexOf(">", i + 2)
    return set(tag, "", false, gt < 0 ? -1 : gt + 1)
  }
  const closing = first === 47
  const start = closing ? i + 2 : i + 1
  const c = html.charCodeAt(start)
  if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90))) return set(tag, undefined, false, -1)
  let j = start + 1
  while (j < html.length && isNameChar(html.charCodeAt(j))) j++
  const name = j - start <= 12 ? html.slice(start, j).toLowerCase() : "-"
  // Attributes: a quote opens a value only right after `=` (and the whitespace after it).
  let afterEquals = false
  while (j < html.length) {
    const d = html.charCodeAt(j)
    if (d === 62) return set(tag, name, closing, j + 1)
    if (d === 61) afterEquals = true
    else if (afterEquals && (d === 34 || d === 39)) {
      const q = html.indexOf(d === 34 ? '"' : "'", j + 1)
      if (q < 0) return set(tag, name, closing, -1)
      j = q
      afterEquals = false
    } else if (!isSpace(d)) afterEquals = false
    j++
  }
  return set(tag, name, closing, -1)
}

/** `html` without the whitespace runs between tags that a block-level tag bounds (see the module comment). */
export const dropBetweenBlocks = (html: string): string => {
  let out = ""
  let from = 0
  let keep = 0 // open verbatim elements
  let previousBlock = false // the tag ending just before the run is block-level
  // The tag at `i`, and the one after a whitespace run (read ahead; the next step starts at it, and reuses it).
  let tag: Tag = { name: undefined, closing: false, end: -1 }
  let next: Tag = { name: undefined, closing: false, end: -1 }
  let nextAt = -1
  let i = html.indexOf("<")
  while (i >= 0) {
    if (i === nextAt) {
      const read = tag
      tag = next
      next = read
    } else readTag(html, i, tag)
    nextAt = -1
    if (tag.name === undefined) {
      previousBlock = false
      i = html.indexOf("<", i + 1)
      continue
    }
    if (tag.end < 0) break
    if (verbatim.has(tag.name)) keep = tag.closing ? Math.max(0, keep - 1) : keep + 1
    previousBlock = tag.name === "" || blocks.has(tag.name)
    // The whitespace run after this tag, and the tag after it.
    const end = tag.end
    let j = end
    while (j < html.length && isSpace(html.charCodeAt(j))) j++
    if (j > end && j < html.length && html.charCodeAt(j) === 60 && keep === 0) {
      readTag(html, j, next)
      nextAt = j
      const nextBlock = next.name !== undefined && (next.name === "" || blocks.has(next.name))
      if (previousBlock || nextBlock) {
        out += html.slice(from, end)
        from = j
      }
    }
    i = html.indexOf("<", j)
  }
  return from === 0 ? html : out + html.slice(from)
}
