/** The text of an ATX heading line (`## Title ##`), found by a scan from each end of the line. */

const lineTerminator = /[\r\u2028\u2029]/

/**
 * What `/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/` captures in a line, by a scan from each end: that expression retries
 * the trailing `\s*` at every character of a long run of spaces, quadratic in the line.
 */
export const atxHeading = (line: string): string | undefined => {
  const space = (i: number) => i < line.length && /\s/.test(line[i])
  let i = 0
  while (i < 3 && space(i)) i++
  let hashes = 0
  while (i < line.length && line[i] === "#") {
    i++
    hashes++
  }
  if (hashes < 1 || hashes > 6 || !space(i)) return undefined
  while (space(i)) i++
  // The capture is the shortest text before a suffix of whitespace, hashes and whitespace: the longest such
  // suffix, read from the end.
  let end = line.length
  while (end > i && /\s/.test(line[end - 1])) end--
  while (end > i && line[end - 1] === "#") end--
  while (end > i && /\s/.test(line[end - 1])) end--
  const heading = line.slice(i, end)
  // `.` does not match a line terminator, so the expression finds no heading in a line holding one there.
  return lineTerminator.test(heading) ? undefined : heading
}
