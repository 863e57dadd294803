/**
 * "Did you mean": the known name nearest to a mistyped one (`--max-result` → `--max-results`, `serach` →
 * `search`), by edit distance with adjacent transpositions counted as one edit. Only close names are offered: at
 * most one edit for names of up to four characters, two for longer ones.
 */

// Optimal string alignment distance, stopped early: a word whose length differs by more than the limit is never
// compared, so the work is bounded by the candidates' lengths, whatever was typed.
const distance = (a: string, b: string, limit: number): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let before: Array<number> = []
  let previous: Array<number> = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1)
      current.push(best)
    }
    before = previous
    previous = current
  }
  return previous[b.length]
}

/** The candidate nearest to `word` (the first of equals, in the candidates' order), or none close enough. */
export const nearest = (word: string, candidates: ReadonlyArray<string>): string | undefined => {
  let found: string | undefined
  let best = Infinity
  for (const candidate of candidates) {
    if (candidate === word) continue
    const limit = candidate.replace(/^-+/, "").length <= 4 ? 1 : 2
    const d = distance(word.toLowerCase(), candidate, limit)
    if (d <= limit && d < best) {
      best = d
      found = candidate
    }
  }
  return found
}

/** `: did you mean X?` after a refused name when a known one is near, else nothing; `quote` wraps the name. */
export const didYouMean = (
  word: string,
  candidates: ReadonlyArray<string>,
  quote: (name: string) => string = (name) => name
): string => {
  const near = nearest(word, candidates)
  return near === undefined ? "" : `: did you mean ${quote(near)}?`
}
