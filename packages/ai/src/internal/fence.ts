/**
 * Fencing of web-derived text for a model: the text sits in a code fence longer than any backtick run inside
 * it, so a page cannot close the fence early and smuggle text out of the "untrusted data" block. Text that is
 * shown outside a fence (titles, URLs, messages) goes through `oneLine` instead, so it cannot start a line.
 */

/** The longest title a tool shows; a longer one is cut with an ellipsis. */
export const maxTitleLength = 500

const longestBacktickRun = (text: string): number => {
  let longest = 0
  let run = 0
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 96) {
      run += 1
      if (run > longest) longest = run
    } else run = 0
  }
  return longest
}

// Line breaks of every kind a reader may honour (\n, \r, \v, \f, NEL, LS, PS), the other C0 and C1 controls and
// DEL, and Unicode white space: each run of them becomes one space.
const isBreakOrSpace = (code: number): boolean =>
  code <= 0x20 ||
  (code >= 0x7f && code <= 0xa0) ||
  code === 0x1680 ||
  (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x202f ||
  code === 0x205f ||
  code === 0x3000 ||
  code === 0xfeff

// Bidi marks, embeddings, overrides and isolates: removed, so the text reads in its logical order.
const isBidi = (code: number): boolean =>
  code === 0x061c ||
  code === 0x200e ||
  code === 0x200f ||
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069)

/**
 * `text` on one line: every run of line breaks, controls and white space is one space, bidi controls are
 * removed, runs of backticks are cut to two (so the text can never look like a fence delimiter), and the result
 * is trimmed and cut to `max` characters. One pass, linear in the text.
 */
export const oneLine = (text: string, max = Number.POSITIVE_INFINITY): string => {
  let out = ""
  let space = false
  let backticks = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (isBreakOrSpace(code)) {
      space = out.length > 0
      backticks = 0
      continue
    }
    if (isBidi(code)) continue
    backticks = code === 96 ? backticks + 1 : 0
    if (backticks > 2) continue
    if (space) {
      out += " "
      space = false
    }
    if (out.length >= max) return `${out.slice(0, Math.max(0, max - 1))}…`
    out += text[i]
  }
  return out
}

/** Fences `text` as untrusted data from `source` (a URL or provider name). */
export const untrusted = (source: string, text: string): string => {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1))
  // A backtick in the label would end the info string; URLs may carry one in their query.
  const label = oneLine(source.replace(/`/g, "%60"))
  return `${fence}untrusted-data source=${label}\n${text}\n${fence}`
}

/** The fence content of a string made by `untrusted`, or the string itself when it is not fenced. */
export const unfence = (fenced: string): string => {
  const match = /^(`{3,})untrusted-data [^\n]*\n([\s\S]*)\n\1$/.exec(fenced)
  return match === null ? fenced : match[2]
}
