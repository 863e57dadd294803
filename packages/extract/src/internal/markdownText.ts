/**
 * The text side of `Markdown.fromNode`: the sentinels that stand for block and line breaks while a tree is rendered,
 * and how a page's text and inline marks are written so that a markdown reader takes them for text (escapes, code
 * spans, emphasis). Every expression here is linear in its input.
 */

// Sentinels for block and line breaks while rendering; resolved (with the whitespace around them) in `finish`.
// Input text never contains them: `text` replaces them with spaces.
export const BLOCK = "\uE000"
export const LINE = "\uE001"

const whitespace = /[ \t\n\r\f]+/g
const sentinels = /[\uE000-\uE002\0]/g

// Text that reads like a tag ("<script>" written as &lt;script&gt; in the page) is backslash-escaped (`\<script>`,
// which CommonMark renders as the literal text), so that a markdown renderer downstream cannot turn the page's
// text into markup; code keeps it verbatim (renderers do not
// interpret HTML inside code). Parsers split text nodes at entities, so "<" becomes a sentinel here and is
// resolved once the whole text is joined.
const LT = "\uE002"
const tagLike = /\uE002(?=[A-Za-z!/?])/g

// A backtick in text is escaped too: left bare, it can pair with a following code span's fence ("`" then
// `<script>` would read as "``<script>`", an unclosed span followed by raw HTML).
// Brackets are escaped here, on the text, and not on a rendered link label: an image in a link renders as
// `[![alt](src)](href)`, whose own brackets must stay markup. All text's brackets, not only labels': "[1]" or
// "[Militär]" in a paragraph is text, and a reader of the markdown must not take it for a link or drop it as markup.
// A text that starts like a list item or a heading ("100. Ray Gillen", "- note", "# 1") is escaped at its start
// too: at the start of a line it would turn a paragraph into a list item or a heading and lose its number. Only
// the first characters are tested (whitespace is collapsed first), so the test is constant-time.
// A backslash in text is escaped where CommonMark would read it as an escape: before ASCII punctuation, and at the
// end of the text, where the next node may start with a code span's fence, a bracket or a tag. Left bare, the
// page's "\" before our own escaped bracket or a code span's backtick ("\\`<script>`") would undo that escape.
// Elsewhere ("C:\Users") it is literal already and stays as written. One lookahead per backslash: linear.
const backslash = /\\(?=[!-/:-@[-`{-~]|$)/g
const softHyphen = /\u00ad/g
const markerStart = /^( ?)(?:(\d{1,9})([.)])|([-+*]|#{1,6}))(?= |$)/
export const text = (data: string, pre: boolean, _link = false): string => {
  const clean = data.replace(sentinels, pre ? "" : " ")
  if (pre) return clean
  // Soft hyphens are invisible break hints ("Kiess\u00adling"): left in, the text no longer matches its words.
  const out = clean
    .replace(softHyphen, "")
    .replace(whitespace, " ")
    .replace(backslash, "\\\\")
    .replace(/</g, LT)
    .replace(/`/g, "\\`")
    .replace(/[[\]]/g, "\\$&")
  return out.replace(markerStart, (_m, space: string, digits: string | undefined, dot: string, mark: string) =>
    digits === undefined ? `${space}\\${mark}` : `${space}${digits}\\${dot}`
  )
}

export const oneLine = (s: string): string => s.replace(/[\s\uE000\uE001]+/g, " ").trim()

/** Wraps inline content in a marker, moving the surrounding spaces outside so `** x **` never appears. */
export const wrap = (inner: string, marker: string): string => {
  const core = inner.trim()
  if (core === "") return inner
  const lead = inner.length > 0 && (inner[0] === " " || inner[0] === LINE) ? " " : ""
  const last = inner[inner.length - 1]
  const trail = last === " " || last === LINE ? " " : ""
  return lead + marker + core.replace(/[\uE000\uE001]+/g, " ") + marker + trail
}

export const inlineCode = (code: string): string => {
  const content = code.replace(/\n/g, " ")
  if (content.trim() === "") return content
  const longest = (content.match(/`+/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0)
  const fence = "`".repeat(longest + 1)
  const pad = content.startsWith("`") || content.endsWith("`") ? " " : ""
  return fence + pad + content + pad + fence
}

/**
 * An image's alt text (already on one line), escaped as text is (backslashes, backticks, brackets): it is the page's
 * text either way.
 */
export const altText = (alt: string): string =>
  alt.replace(/</g, LT).replace(backslash, "\\\\").replace(/`/g, "\\`").replace(/[[\]]/g, "\\$&")

/** Resolves the "<" sentinel once the whole text is joined: a "<" that reads like a tag is backslash-escaped. */
export const resolveTags = (s: string): string => s.replace(tagLike, "\\<").replace(/\uE002/g, "<")
