/**
 * Plain text and markdown bodies: passed through with line endings normalized and control characters removed;
 * a markdown document's first heading is its title.
 *
 * @internal Used by the extractor only, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */

import { atxHeading } from "./atxHeading.js"
import * as Whitespace from "./whitespace.js"

/**
 * Normalizes line endings to `\n` and removes NULs and other C0/C1 control characters (tabs, newlines and form
 * feeds stay): they carry no text and confuse whatever reads the result.
 *
 * @since 0.1.0
 * @category utils
 */
export const clean = (text: string): string =>
  // Linear scans, not `/[ \t]+$/gm` and `/^\n+|\s+$/g`: those are quadratic on a long run of spaces.
  Whitespace.trimLeadingNewlines(
    Whitespace.trimLineEnds(
      text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\uE000\uE001]/g, "")
    )
  ).trimEnd()

/**
 * The title of a markdown document: its first ATX (`# Title`) or setext (`Title` over `===`) heading outside
 * code fences, or `""`.
 *
 * @since 0.1.0
 * @category utils
 */
export const markdownTitle = (markdown: string): string => {
  const lines = markdown.split("\n", 400)
  let fenced = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^\s{0,3}(?:```|~~~)/.test(line)) fenced = !fenced
    if (fenced) continue
    const atx = atxHeading(line)
    if (atx !== undefined && atx !== "") return atx
    if (line.trim() !== "" && i + 1 < lines.length && /^\s{0,3}(?:=+|-+)\s*$/.test(lines[i + 1])) {
      if (/^\s{0,3}=+/.test(lines[i + 1]) || i === 0) return line.trim()
    }
  }
  return ""
}

// The `title:` line's value, unquoted: a scan, where `/^title:\s*["']?(.*?)["']?\s*$/m` took 0.8 s on 8000
// characters of front matter (the lazy capture retries the trailing `\s*` at every space of a long run).
const yamlTitle = (yaml: string): string | undefined => {
  for (const line of yaml.split("\n")) {
    if (!line.startsWith("title:")) continue
    let value = line.slice(6).trim()
    if (value.startsWith('"') || value.startsWith("'")) value = value.slice(1)
    if (value.endsWith('"') || value.endsWith("'")) value = value.slice(0, -1)
    return value.trimEnd()
  }
  return undefined
}

/**
 * Skips YAML front matter (`---` ... `---` at the very top), which tools put in markdown files and no reader
 * wants first.
 *
 * @since 0.1.0
 * @category utils
 */
export const frontMatter = (markdown: string): { readonly body: string; readonly title: string | undefined } => {
  const match = /^---\n([\s\S]{0,8000}?)\n---(?:\n|$)/.exec(markdown)
  if (match === null) return { body: markdown, title: undefined }
  const title = yamlTitle(match[1])
  return { body: markdown.slice(match[0].length), title: title === "" ? undefined : title }
}
