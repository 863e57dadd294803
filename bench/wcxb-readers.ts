/**
 * The readers of product, collection, listing and service pages measured on their own, against the article path,
 * on the WCXB development pages labelled with their type (the label, not detection, picks the reader: this isolates
 * reading from detection; `bench/wcxb-dev.ts` measures both end to end).
 *
 *   node --conditions=@websearch/source --import tsx bench/wcxb-readers.ts [options]
 *     --type T      only pages of this type (repeatable; default: product, collection, listing, service)
 *     --every N     one page in N
 *     --id ID       one page: print the reader's markdown and both scores
 *     --worst N     list the N pages where the reader loses most against the article path (and wins most)
 *     --as T        read every page with the reader of type T (what a misdetection as T would cost)
 *     --rows FILE   write each page's two scores to FILE as JSON (to join with `wcxb-dev.ts --out`)
 */
import * as Either from "effect/Either"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import * as Charset from "../packages/extract/src/internal/charset.js"
import * as Extract from "../packages/extract/src/Extract.js"
import * as Metadata from "../packages/extract/src/Metadata.js"
import * as BlankRuns from "../packages/extract/src/internal/blankRuns.js"
import * as HtmlDocument from "../packages/extract/src/internal/htmlDocument.js"
import * as Inert from "../packages/extract/src/internal/inert.js"
import * as Dispatch from "../packages/extract/src/internal/dispatch.js"
import type * as PageType from "../packages/extract/src/PageType.js"
import type * as TypedPage from "../packages/extract/src/internal/typedPage.js"
import * as Wcxb from "../test-support/wcxb.js"
import { readers } from "../packages/extract/src/internal/readers.js"

const args = process.argv.slice(2)
const values = (flag: string): Array<string> =>
  args.flatMap((a, i) => (a === flag && i + 1 < args.length ? [args[i + 1]] : []))
const value = (flag: string): string | undefined => values(flag)[0]

const chosen = values("--type") as Array<Wcxb.WcxbType>
const types: ReadonlyArray<Wcxb.WcxbType> = chosen.length > 0 ? chosen : ["product", "collection", "listing", "service"]
const pages = Wcxb.load({ every: Number(value("--every") ?? 1), types })
if (pages === undefined) {
  console.error("wcxb-readers: the corpus is not there (../shared/corpus/wcxb-dev or WEBSEARCH_WCXB_CORPUS)")
  process.exit(2)
}

const articlePathNow = (page: Wcxb.WcxbPage): string =>
  // Forced to the article path: what the page would get without a reader.
  Either.match(
    Extract.extractSync({ body: page.bytes(), contentType: "text/html", url: page.url }, { pageType: "article" }),
    {
      onLeft: () => "",
      onRight: (doc) => doc.markdown
    }
  )

const as = value("--as") as PageType.PageType | undefined

// The article path's markdown per page, kept in a file between runs (--cache FILE) while the readers change.
const cacheFile = value("--cache")
const cache: Record<string, string> =
  cacheFile !== undefined && existsSync(cacheFile)
    ? (JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, string>)
    : {}
const articlePath = (page: Wcxb.WcxbPage): string => (cache[page.id] ??= articlePathNow(page))

/** The page parsed and shown as `MainContent.fromHtml` does it (see `Dispatch.show`), and the reader's context. */
const prepare = (page: Wcxb.WcxbPage): { readonly doc: Document; readonly context: TypedPage.Context } => {
  const text = Charset.decode(page.bytes(), "text/html", "html").text
  const doc = HtmlDocument.parse(BlankRuns.dropBetweenBlocks(Inert.strip(text)))
  const { signals } = Dispatch.show(doc, page.url)
  const metadata = Metadata.fromDocument(doc)
  return {
    doc,
    context: { pageType: as ?? page.type, baseUrl: page.url, title: metadata.title, structured: signals.structured }
  }
}

const read = (page: Wcxb.WcxbPage): string | undefined => {
  const reader = readers[as ?? page.type]
  if (reader === undefined) return undefined
  const { context, doc } = prepare(page)
  const markdown = reader(doc, context)
  // As the dispatcher takes it: an answer without a letter or digit is none.
  return markdown !== undefined && /[\p{L}\p{N}]/u.test(markdown) ? markdown : undefined
}

const only = value("--id")
if (only !== undefined) {
  const page = pages.find((p) => p.id === only)
  if (page === undefined) {
    console.error(`wcxb-readers: no page ${only} among the pages chosen`)
    process.exit(2)
  }
  const markdown = read(page)
  const mine = Wcxb.scoreMarkdown(page, markdown ?? "").bag
  const theirs = Wcxb.scoreMarkdown(page, articlePath(page)).bag
  // Each line marked with the share of its words the reference has (a quick view of what is noise).
  const words = (t: string) => t.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []
  const reference = new Set(words(page.expected))
  const ours = new Set(words(markdown ?? ""))
  for (const line of (markdown ?? "(undefined: left to the article path)").split("\n")) {
    const w = words(line)
    const share = w.length === 0 ? 1 : w.filter((t) => reference.has(t)).length / w.length
    console.log(`${share >= 0.5 ? "  " : "- "}${line}`)
  }
  console.log("\n--- reference lines mostly missing:")
  for (const line of page.expected.split("\n")) {
    const w = words(line)
    if (w.length > 0 && w.filter((t) => ours.has(t)).length / w.length < 0.5) console.log(`+ ${line}`)
  }
  console.log(
    `\n--- ${page.id} ${page.url}\n--- type ${page.type}; reader F1 ${mine.f1.toFixed(3)} P ${mine.precision.toFixed(3)} ` +
      `R ${mine.recall.toFixed(3)}; article path F1 ${theirs.f1.toFixed(3)} P ${theirs.precision.toFixed(3)} ` +
      `R ${theirs.recall.toFixed(3)}`
  )
  process.exit(0)
}

interface Row {
  readonly id: string
  readonly type: Wcxb.WcxbType
  readonly article: number
  /** The reader's score, or the article path's when the reader left the page to it. */
  readonly reader: number
  readonly declined: boolean
  readonly precision: number
  readonly recall: number
}

const started = performance.now()
let readerMs = 0
const rows: Array<Row> = []
for (const page of pages) {
  const article = Wcxb.scoreMarkdown(page, articlePath(page)).bag
  const t0 = performance.now()
  const markdown = read(page)
  readerMs += performance.now() - t0
  const mine = markdown === undefined ? article : Wcxb.scoreMarkdown(page, markdown).bag
  rows.push({
    id: page.id,
    type: page.type,
    article: article.f1,
    reader: mine.f1,
    declined: markdown === undefined,
    precision: mine.precision,
    recall: mine.recall
  })
}

if (cacheFile !== undefined) writeFileSync(cacheFile, JSON.stringify(cache))
const rowsFile = value("--rows")
if (rowsFile !== undefined) writeFileSync(rowsFile, JSON.stringify(rows))

const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((a, x) => a + x, 0) / xs.length)
console.log(`| type | pages | article path | reader | P | R | declined | better | worse |`)
console.log(`|---|---|---|---|---|---|---|---|---|`)
for (const type of types) {
  const of = rows.filter((r) => r.type === type)
  if (of.length === 0) continue
  console.log(
    `| ${type} | ${of.length} | ${mean(of.map((r) => r.article)).toFixed(3)} | ${mean(of.map((r) => r.reader)).toFixed(3)} | ` +
      `${mean(of.map((r) => r.precision)).toFixed(3)} | ${mean(of.map((r) => r.recall)).toFixed(3)} | ` +
      `${of.filter((r) => r.declined).length} | ${of.filter((r) => r.reader > r.article + 0.01).length} | ` +
      `${of.filter((r) => r.reader < r.article - 0.01).length} |`
  )
}
console.log(
  `${rows.length} pages in ${((performance.now() - started) / 1000).toFixed(1)} s (readers ${(readerMs / 1000).toFixed(1)} s)`
)

const worst = Number(value("--worst") ?? 0)
if (worst > 0) {
  const sorted = [...rows].sort((a, b) => a.reader - a.article - (b.reader - b.article))
  const line = (r: Row) =>
    `${r.id} ${r.type.padEnd(11)} article ${r.article.toFixed(3)} reader ${r.reader.toFixed(3)} ` +
    `(P ${r.precision.toFixed(2)} R ${r.recall.toFixed(2)})${r.declined ? " declined" : ""}`
  console.log(`\nworst ${worst}:`)
  for (const r of sorted.slice(0, worst)) console.log(line(r))
  console.log(`\nbest ${worst}:`)
  for (const r of sorted.slice(-worst).reverse()) console.log(line(r))
}
