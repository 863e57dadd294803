/**
 * BM25 scoring of text chunks against a query, with a Unicode word tokenizer. Private to `Compression`.
 *
 * @since 0.1.0
 */

/**
 * Term-frequency saturation.
 *
 * @since 0.1.0
 * @category constants
 */
export const k1 = 1.2

/**
 * Length normalisation.
 *
 * @since 0.1.0
 * @category constants
 */
export const b = 0.75

const wordSegmenter: Intl.Segmenter | undefined =
  typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "word" }) : undefined

const wordPattern = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu

// Scripts written without spaces between words: only runs containing them need dictionary segmentation.
const unspaced =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u

/**
 * Lower-cased words of a text. Letter-and-digit runs are words; runs in scripts written without spaces
 * (Chinese, Japanese, Thai…) are split further by `Intl.Segmenter`, which is much slower, so only those runs
 * go through it. NFKC folds full-width and compatibility forms so `ＡＢＣ` matches `abc`. No stemming.
 *
 * @since 0.1.0
 * @category encoding
 */
export const tokenize = (text: string): Array<string> => {
  const runs = text.normalize("NFKC").toLowerCase().match(wordPattern) ?? []
  if (wordSegmenter === undefined) return runs
  const words: Array<string> = []
  for (const run of runs) {
    if (!unspaced.test(run)) {
      words.push(run)
      continue
    }
    for (const segment of wordSegmenter.segment(run)) {
      if (segment.isWordLike === true) words.push(segment.segment)
    }
  }
  return words
}

/**
 * BM25 scores of `documents` against `query`, one per document in order. IDF is computed over these documents
 * only, with the `+1` inside the logarithm so common terms score low but never negative. Each distinct query
 * term counts once.
 *
 * @since 0.1.0
 * @category utils
 */
export const score = (query: string, documents: ReadonlyArray<string>): Array<number> => {
  const terms = [...new Set(tokenize(query))]
  if (terms.length === 0 || documents.length === 0) return documents.map(() => 0)
  const wanted = new Set(terms)
  const frequencies = documents.map((document) => {
    // Only query terms are ever looked up, so only they are counted; the length counts every word.
    const counts = new Map<string, number>()
    const words = tokenize(document)
    for (const word of words) if (wanted.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1)
    return { counts, length: words.length }
  })
  const averageLength = frequencies.reduce((sum, f) => sum + f.length, 0) / documents.length
  const n = documents.length
  const idf = new Map(
    terms.map((term) => {
      const containing = frequencies.filter((f) => f.counts.has(term)).length
      return [term, Math.log(1 + (n - containing + 0.5) / (containing + 0.5))] as const
    })
  )
  return frequencies.map(({ counts, length }) => {
    // An empty corpus has no average length; every document is then "average".
    const norm = averageLength === 0 ? 1 : 1 - b + (b * length) / averageLength
    let total = 0
    for (const term of terms) {
      const tf = counts.get(term) ?? 0
      if (tf > 0) total += ((idf.get(term) ?? 0) * tf * (k1 + 1)) / (tf + k1 * norm)
    }
    return total
  })
}
