/**
 * Plain text and markdown bodies: passed through with line endings normalized and control characters removed;
 * a markdown document's first heading is its title.
 *
 * @since 0.1.0
 */

/**
 * Normalizes line endings to `\n` and removes NULs and other C0/C1 control characters (tabs, newlines and form
 * feeds stay): they carry no text and confuse whatever reads the result.
 *
 * @since 0.1.0
 * @category cleaning
 */
export const clean = (text: string): string =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\uE000\uE001]/g, "")
    .replace(/[ \t]+$/gm, "")
    .replace(/^\n+|\s+$/g, "")

/**
 * The title of a markdown document: its first ATX (`# Title`) or setext (`Title` over `===`) heading outside
 * code fences, or `""`.
 *
 * @since 0.1.0
 * @category metadata
 */
export const markdownTitle = (markdown: string): string => {
  const lines = markdown.split("\n", 400)
  let fenced = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^\s{0,3}(?:```|~~~)/.test(line)) fenced = !fenced
    if (fenced) continue
    const atx = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (atx !== null && atx[1] !== "") return atx[1]
    if (line.trim() !== "" && i + 1 < lines.length && /^\s{0,3}(?:=+|-+)\s*$/.test(lines[i + 1])) {
      if (/^\s{0,3}=+/.test(lines[i + 1]) || i === 0) return line.trim()
    }
  }
  return ""
}

/**
 * Skips YAML front matter (`---` ... `---` at the very top), which tools put in markdown files and no reader
 * wants first.
 *
 * @since 0.1.0
 * @category cleaning
 */
export const frontMatter = (markdown: string): { readonly body: string; readonly title: string | undefined } => {
  const match = /^---\n([\s\S]{0,8000}?)\n---(?:\n|$)/.exec(markdown)
  if (match === null) return { body: markdown, title: undefined }
  const title = /^title:\s*["']?(.*?)["']?\s*$/m.exec(match[1])?.[1]
  return { body: markdown.slice(match[0].length), title: title === "" ? undefined : title }
}
