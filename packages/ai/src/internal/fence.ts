/**
 * Fencing of web-derived text for a model: the text sits in a code fence longer than any backtick run inside
 * it, so a page cannot close the fence early and smuggle text out of the "untrusted data" block.
 */

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

/** Fences `text` as untrusted data from `source` (a URL or provider name). */
export const untrusted = (source: string, text: string): string => {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1))
  // A backtick in the label would end the info string; URLs may carry one in their query.
  const label = source.replace(/`/g, "%60").replace(/[\r\n]+/g, " ")
  return `${fence}untrusted-data source=${label}\n${text}\n${fence}`
}

/** The fence content of a string made by `untrusted`, or the string itself when it is not fenced. */
export const unfence = (fenced: string): string => {
  const match = /^(`{3,})untrusted-data [^\n]*\n([\s\S]*)\n\1$/.exec(fenced)
  return match === null ? fenced : match[2]
}
