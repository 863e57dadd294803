/**
 * A quick loop for extraction work over the WCXB development set (`test-support/wcxb.ts`): `@websearch/extract`
 * alone, in process, scored with the benchmark's own metric, overall and per page type. The full comparison with
 * the baselines is `bench/extract.ts`.
 *
 *   node --conditions=@websearch/source --import tsx bench/wcxb-dev.ts [options]
 *     --every N         one page in N (the same pages each run)
 *     --type T          only pages of this type (repeatable)
 *     --out FILE        write each page's scores (and the page type it was read as) to FILE as JSON
 *     --diff FILE       compare with an earlier --out: the pages that moved most, and the mean change per type
 *     --worst N         list the N lowest-scoring pages
 *     --id ID           one page: print our markdown and its scores
 */
import * as Either from "effect/Either"
import { writeFileSync, readFileSync } from "node:fs"
import * as Extract from "../packages/extract/src/Extract.js"
import * as Wcxb from "../test-support/wcxb.js"

const args = process.argv.slice(2)
const values = (flag: string): Array<string> =>
  args.flatMap((a, i) => (a === flag && i + 1 < args.length ? [args[i + 1]] : []))
const value = (flag: string): string | undefined => values(flag)[0]

const types = values("--type") as Array<Wcxb.WcxbType>
const pages = Wcxb.load({ every: Number(value("--every") ?? 1), types: types.length > 0 ? types : undefined })
if (pages === undefined) {
  console.error("wcxb-dev: the corpus is not there (../shared/corpus/wcxb-dev or WEBSEARCH_WCXB_CORPUS)")
  process.exit(2)
}

const extract = (page: Wcxb.WcxbPage): { readonly markdown: string; readonly pageType: string | undefined } =>
  Either.match(Extract.extractSync({ body: page.bytes(), contentType: "text/html", url: page.url }), {
    onLeft: () => ({ markdown: "", pageType: undefined }),
    onRight: (doc) => ({ markdown: doc.markdown, pageType: (doc as { readonly pageType?: string }).pageType })
  })

const only = value("--id")
if (only !== undefined) {
  const page = pages.find((p) => p.id === only)
  if (page === undefined) {
    console.error(`wcxb-dev: no page ${only} among the pages chosen`)
    process.exit(2)
  }
  const { markdown, pageType } = extract(page)
  const s = Wcxb.scoreMarkdown(page, markdown)
  console.log(markdown)
  console.log(
    `\n--- ${page.id} ${page.url}\n--- type ${page.type}, read as ${pageType ?? "?"}; F1 ${s.bag.f1.toFixed(3)} ` +
      `P ${s.bag.precision.toFixed(3)} R ${s.bag.recall.toFixed(3)}`
  )
  process.exit(0)
}

interface PageScore {
  readonly id: string
  readonly type: Wcxb.WcxbType
  readonly readAs: string | undefined
  readonly f1: number
  readonly precision: number
  readonly recall: number
}

const started = performance.now()
const scored: Array<Parameters<typeof Wcxb.summarize>[0][number]> = []
const perPage: Array<PageScore> = []
for (const page of pages) {
  const { markdown, pageType } = extract(page)
  const s = Wcxb.scoreMarkdown(page, markdown)
  scored.push({ type: page.type, expected: page.expected, bag: s.bag, set: s.set, empty: markdown.trim() === "" })
  perPage.push({
    id: page.id,
    type: page.type,
    readAs: pageType,
    f1: s.bag.f1,
    precision: s.bag.precision,
    recall: s.bag.recall
  })
}
const seconds = (performance.now() - started) / 1000

const summary = Wcxb.summarize(scored)
for (const line of Wcxb.table(summary)) console.log(line)
console.log(`${pages.length} pages in ${seconds.toFixed(1)} s`)

// Which type each page was read as, against its label (once the extractor says).
if (perPage.some((p) => p.readAs !== undefined)) {
  const kinds = [...new Set(perPage.map((p) => p.readAs ?? "?"))].sort()
  console.log(`\nlabel \\ read as | ${kinds.join(" | ")} | correct`)
  for (const type of Wcxb.pageTypes) {
    const of = perPage.filter((p) => p.type === type)
    if (of.length === 0) continue
    const cells = kinds.map((k) => of.filter((p) => (p.readAs ?? "?") === k).length)
    const correct = of.filter((p) => p.readAs === type).length / of.length
    console.log(`${type} | ${cells.join(" | ")} | ${(correct * 100).toFixed(0)}%`)
  }
}

const worst = Number(value("--worst") ?? 0)
if (worst > 0) {
  console.log(`\nworst ${worst}:`)
  for (const p of [...perPage].sort((a, b) => a.f1 - b.f1).slice(0, worst)) {
    console.log(
      `${p.id} ${p.type.padEnd(13)} read as ${(p.readAs ?? "?").padEnd(13)} F1 ${p.f1.toFixed(3)} ` +
        `P ${p.precision.toFixed(3)} R ${p.recall.toFixed(3)}`
    )
  }
}

const out = value("--out")
if (out !== undefined) writeFileSync(out, JSON.stringify(perPage))

const diff = value("--diff")
if (diff !== undefined) {
  const before = new Map((JSON.parse(readFileSync(diff, "utf8")) as Array<PageScore>).map((p) => [p.id, p]))
  const moved = perPage
    .filter((p) => before.has(p.id))
    .map((p) => ({ ...p, delta: p.f1 - before.get(p.id)!.f1 }))
    .filter((p) => Math.abs(p.delta) > 0.001)
    .sort((a, b) => a.delta - b.delta)
  console.log(`\n${moved.length} pages moved; worst 15 and best 15:`)
  for (const p of [...moved.slice(0, 15), ...moved.slice(-15)]) {
    console.log(`${p.id} ${p.type.padEnd(13)} ${p.delta >= 0 ? "+" : ""}${p.delta.toFixed(3)} -> ${p.f1.toFixed(3)}`)
  }
  for (const type of Wcxb.pageTypes) {
    const of = moved.filter((p) => p.type === type)
    const n = perPage.filter((p) => p.type === type).length
    if (n > 0 && of.length > 0) {
      console.log(
        `${type}: ${of.reduce((a, p) => a + p.delta, 0) / n >= 0 ? "+" : ""}${(of.reduce((a, p) => a + p.delta, 0) / n).toFixed(4)} mean`
      )
    }
  }
}
