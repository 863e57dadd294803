/**
 * The content F1 of the article-extraction-benchmark, as bench/extract.ts and the corpus tests compute it over the
 * Readability test pages: lower-case word tokens (letters and digits), sets of 4-token shingles, precision, recall
 * and F1 of the extracted text against the expected text.
 */
const tokens = (text: string): Array<string> => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

const shingles = (text: string): Set<string> => {
  const words = tokens(text)
  const out = new Set<string>()
  if (words.length > 0 && words.length < 4) out.add(words.join(" "))
  for (let i = 0; i + 4 <= words.length; i++) out.add(words.slice(i, i + 4).join(" "))
  return out
}

/** Markdown -> the words a reader sees: link and image targets and code-fence info strings removed. */
export const readable = (markdown: string): string =>
  markdown
    .replace(/\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, "]")
    .replace(/^(\s*)(`{3,}|~{3,})[^\n]*$/gm, "$1")
    .replace(/<(https?:\/\/[^>\s]+)>/g, "")

/** Shingle precision, recall and F1 of `actual` against `expected`. */
export const score = (
  expected: string,
  actual: string
): { readonly precision: number; readonly recall: number; readonly f1: number } => {
  const want = shingles(expected)
  const got = shingles(actual)
  if (want.size === 0 && got.size === 0) return { precision: 1, recall: 1, f1: 1 }
  let hit = 0
  for (const s of got) if (want.has(s)) hit++
  const precision = got.size === 0 ? 0 : hit / got.size
  const recall = want.size === 0 ? 0 : hit / want.size
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { precision, recall, f1 }
}
