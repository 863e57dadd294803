/**
 * Reads the text Exa's hosted MCP server writes for `web_search_exa` back into results. Two formats are in use:
 *
 * - current: per result `Title: …`, `URL: …`, `Published: …|N/A`, `Author: …|N/A`, then `Highlights:` (or
 *   `Text:`) and the content on the following lines; results joined by `\n\n---\n\n`;
 * - older: `Title:`, `URL:`, `Published Date:`, `Author:`, `Text: …` blocks separated by blank lines.
 *
 * A record starts at a `Title:` line directly followed by a `URL:` line, or at a `Title:` or `URL:` line that
 * opens the text or follows a `---` separator (a result missing one of the two), so content that merely contains
 * "Title:" does not split a result. Header lines we do not know end the header: they are content.
 */

/** One result as the text gave it. */
export interface TextResult {
  readonly title: string | undefined
  readonly url: string | undefined
  /** The `Published:` (or `Published Date:`) value as written, `N/A` left out. */
  readonly published?: string | undefined
  /** The `Author:` value as written, `N/A` left out. */
  readonly author?: string | undefined
  readonly content: string
}

/** The text the server sends when the search found nothing. */
export const noResultsText = /^no search results found/i

const header = /^(Title|URL|Published Date|Published|Author|Image|Favicon|ID|Id|Score):[ \t]?(.*)$/
const body = /^(Highlights|Text|Summary|Content):[ \t]?(.*)$/
const separator = /^\s*-{3,}\s*$/

/** Whether the line before `i`, blank lines skipped, is a `---` separator or the start of the text. */
const afterSeparator = (lines: ReadonlyArray<string>, i: number): boolean => {
  let j = i - 1
  while (j >= 0 && lines[j]!.trim() === "") j--
  return j < 0 || separator.test(lines[j]!)
}

const startsRecord = (lines: ReadonlyArray<string>, i: number): boolean => {
  const line = lines[i]!
  if (/^Title:/.test(line)) return /^URL:/.test(lines[i + 1] ?? "") || afterSeparator(lines, i)
  if (/^URL:/.test(line)) return !/^Title:/.test(lines[i - 1] ?? "") && afterSeparator(lines, i)
  return false
}

const tidyContent = (lines: ReadonlyArray<string>): string => {
  let end = lines.length
  while (end > 0 && (lines[end - 1]!.trim() === "" || separator.test(lines[end - 1]!))) end--
  return lines
    .slice(0, end)
    .join("\n")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
}

const readRecord = (lines: ReadonlyArray<string>): TextResult => {
  let title: string | undefined
  let url: string | undefined
  let published: string | undefined
  let author: string | undefined
  let i = 0
  for (; i < lines.length; i++) {
    const line = lines[i]!
    const known = header.exec(line)
    if (known === null) break
    const value = known[2]!.trim()
    const given = value === "" || value === "N/A" ? undefined : value
    if (known[1] === "Title") title = value === "" ? undefined : value
    else if (known[1] === "URL") url = value === "" ? undefined : value
    else if (known[1] === "Published" || known[1] === "Published Date") published = given
    else if (known[1] === "Author") author = given
  }
  const content: Array<string> = []
  const first = lines[i]
  if (first !== undefined) {
    const opened = body.exec(first)
    if (opened === null) content.push(first)
    else if (opened[2]!.trim() !== "") content.push(opened[2]!)
    content.push(...lines.slice(i + 1))
  }
  return { title, url, published, author, content: tidyContent(content) }
}

/** The results of a `web_search_exa` text, in order; none for the no-results text or a text without records. */
export const parse = (text: string): ReadonlyArray<TextResult> => {
  const normalized = text.replace(/\r\n?/g, "\n")
  if (normalized.trim() === "" || noResultsText.test(normalized.trim())) return []
  const lines = normalized.split("\n")
  const starts: Array<number> = []
  for (let i = 0; i < lines.length; i++) if (startsRecord(lines, i)) starts.push(i)
  return starts.map((start, k) => readRecord(lines.slice(start, starts[k + 1] ?? lines.length)))
}
