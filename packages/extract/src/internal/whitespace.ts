/**
 * Whitespace trims as hand-written linear scans. The regular expressions they replace (`/[ \t]+$/gm`,
 * `/\s+$/`, `/^\n+|\s+$/g`, ...) retry from every position of a long whitespace run that is not where
 * the pattern wants it, so a page of spaces cost time quadratic in its length; each function here reads every
 * character a bounded number of times. Each has the same result as the expression named in its comment
 * (property tests hold them to it).
 */

const SPACE = 32
const TAB = 9
const NEWLINE = 10

/** `s.replace(/[ \t]+$/gm, "")` for text whose lines end in `\n`: spaces and tabs before a newline or the end. */
export const trimLineEnds = (s: string): string => {
  let out = ""
  // Text is copied in slices: from `from` up to the start of a pending run of spaces and tabs.
  let from = 0
  let run = -1
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === SPACE || c === TAB) {
      if (run < 0) run = i
    } else if (c === NEWLINE) {
      if (run >= 0) {
        out += s.slice(from, run)
        from = i
      }
      run = -1
    } else {
      run = -1
    }
  }
  return out + s.slice(from, run >= 0 ? run : s.length)
}

/** `s.replace(/^\n+/, "")`. */
export const trimLeadingNewlines = (s: string): string => {
  let i = 0
  while (i < s.length && s.charCodeAt(i) === NEWLINE) i++
  return i === 0 ? s : s.slice(i)
}

/** `s.replace(/[ \t\n]+$/, "")` and its leading counterpart: the ends trimmed of spaces, tabs and newlines. */
export const trimSpaceTabNewline = (s: string): string => {
  const blank = (c: number) => c === SPACE || c === TAB || c === NEWLINE
  let start = 0
  let end = s.length
  while (start < end && blank(s.charCodeAt(start))) start++
  while (end > start && blank(s.charCodeAt(end - 1))) end--
  return start === 0 && end === s.length ? s : s.slice(start, end)
}

/** `s.replace(/\n{3,}/g, "\n\n")`. */
export const collapseBlankLines = (s: string): string => {
  let out = ""
  let from = 0
  let i = 0
  while (i < s.length) {
    if (s.charCodeAt(i) !== NEWLINE) {
      i++
      continue
    }
    let end = i
    while (end < s.length && s.charCodeAt(end) === NEWLINE) end++
    if (end - i >= 3) {
      out += s.slice(from, i) + "\n\n"
      from = end
    }
    i = end
  }
  return from === 0 ? s : out + s.slice(from)
}

/**
 * The one-character marker `X` and the spaces and tabs on either side become a newline, as the expression
 * `[ \t]*X[ \t]*` (global) replaced by `"\n"` does.
 */
export const resolveLineMarker = (s: string, marker: string): string => {
  const m = marker.charCodeAt(0)
  let out = ""
  let from = 0
  let run = -1
  let i = 0
  while (i < s.length) {
    const c = s.charCodeAt(i)
    if (c === SPACE || c === TAB) {
      if (run < 0) run = i
      i++
      continue
    }
    if (c !== m) {
      run = -1
      i++
      continue
    }
    out += s.slice(from, run >= 0 ? run : i) + "\n"
    i++
    while (i < s.length && (s.charCodeAt(i) === SPACE || s.charCodeAt(i) === TAB)) i++
    from = i
    run = -1
  }
  return from === 0 ? s : out + s.slice(from)
}

/**
 * Every maximal run of spaces, tabs, newlines and the one-character marker `X` that holds a marker becomes one
 * blank line, as the expression `[ \t\n]*X[ \t\nX]*` (global) replaced by `"\n\n"` does.
 */
export const resolveBlockMarker = (s: string, marker: string): string => {
  const m = marker.charCodeAt(0)
  let out = ""
  let from = 0
  let i = 0
  while (i < s.length) {
    const c = s.charCodeAt(i)
    if (c !== SPACE && c !== TAB && c !== NEWLINE && c !== m) {
      i++
      continue
    }
    const start = i
    let marked = false
    while (i < s.length) {
      const d = s.charCodeAt(i)
      if (d === m) marked = true
      else if (d !== SPACE && d !== TAB && d !== NEWLINE) break
      i++
    }
    if (marked) {
      out += s.slice(from, start) + "\n\n"
      from = i
    }
  }
  return from === 0 ? s : out + s.slice(from)
}
