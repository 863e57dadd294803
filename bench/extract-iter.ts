/**
 * Development helper for bench/extract: scores @websearch/extract alone (no baseline, no timing) over both corpora
 * or a subset, and writes per-page details (missed `with` segments, kept `without` segments) to a JSON file.
 *
 *   node --conditions=@websearch/source --import tsx bench/extract-iter.ts [--every N] [--offset K] [--out FILE]
 *                                                                         [--only readability|trafilatura]
 */
import { writeFileSync } from "node:fs"
import * as TrafilaturaEval from "../test-support/trafilaturaEval.js"
import { loadCorpus, ours, readable, score } from "./extract.js"

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}
const every = Number(arg("--every") ?? "1")
const offset = Number(arg("--offset") ?? "0")
const only = arg("--only")
const out = arg("--out")
const details: Record<string, unknown> = {}
const start = performance.now()
if (only !== "trafilatura") {
  const pages = (loadCorpus() ?? []).filter((_, i) => i % every === offset % every)
  let f1 = 0
  for (const page of pages) {
    const s = score(page.expected, readable(ours(page))).f1
    f1 += s
    details[`r:${page.name}`] = s
  }
  console.log(`readability-pages ${pages.length} pages F1 ${(f1 / pages.length).toFixed(4)}`)
}
if (only !== "readability") {
  const pages = (TrafilaturaEval.load() ?? []).filter((_, i) => i % every === offset % every)
  let counts = TrafilaturaEval.zero
  const norm = (s: string) => s.replace(/\s+/g, " ").trim()
  for (const page of pages) {
    const text = norm(TrafilaturaEval.plainText(ours(page)))
    const c = TrafilaturaEval.countPage(page, text)
    counts = TrafilaturaEval.add(counts, c)
    details[`t:${page.name}`] = {
      url: page.url,
      missed: page.with.filter((s) => !text.includes(norm(s))),
      kept: page.without.filter((s) => text.includes(norm(s)))
    }
  }
  const f = TrafilaturaEval.figures(counts)
  console.log(
    `trafilatura-eval ${pages.length} pages F1 ${f.f1.toFixed(4)} P ${f.precision.toFixed(4)} R ${f.recall.toFixed(4)} ` +
      `TP ${counts.tp} FN ${counts.fn} FP ${counts.fp} TN ${counts.tn}`
  )
}
console.log(`${((performance.now() - start) / 1000).toFixed(1)} s`)
if (out !== undefined) writeFileSync(out, JSON.stringify(details, null, 1))
