/**
 * Main-content extraction over the Readability test corpus (`../shared/corpus/readability-pages`, or the
 * directory in WEBSEARCH_EXTRACT_CORPUS): pages per second and content F1 of `@websearch/extract` against
 * `@mozilla/readability` + `linkedom` + `turndown`, over the same pages in the same process.
 *
 *   node --conditions=@websearch/source --import tsx bench/extract.ts
 *                                             this case alone (--rounds N: timed passes, default 3;
 *                                             --pages: the pages whose F1 differs between the two)
 *   npm run bench -- extract                  through the bench runner
 *
 * Content F1 is the article-extraction-benchmark measure: lower-case word tokens (letters and digits), sets of
 * 4-token shingles, precision / recall / F1 per page against the ground truth's `articleBody`, mean over
 * pages. Both outputs are markdown, so link and image targets (`](https://...)`) and code-fence info strings
 * are removed before tokenizing — the same projection for both; the F1 of the raw markdown is printed too.
 * The expected text is Readability's own output, which favours Readability-like extractors (see the corpus
 * README): a regression guard, not an independent quality figure.
 */
import { Readability } from "@mozilla/readability"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import { parseHTML } from "linkedom"
import TurndownService from "turndown"
import * as Either from "effect/Either"
import * as Extract from "../packages/extract/src/Extract.js"

/**
 * @since 0.1.0
 */
export const corpusDir =
  process.env.WEBSEARCH_EXTRACT_CORPUS ??
  [
    fileURLToPath(new URL("../../shared/corpus/readability-pages/", import.meta.url)),
    "/work/shared/corpus/readability-pages/"
  ].find((candidate) => existsSync(`${candidate}/ground-truth.json`)) ??
  fileURLToPath(new URL("../../shared/corpus/readability-pages/", import.meta.url))

interface Page {
  readonly name: string
  readonly url: string
  readonly html: string
  readonly bytes: Uint8Array
  readonly expected: string
}

/** Loads the corpus; `undefined` when it is absent. */
export const loadCorpus = (dir = corpusDir): ReadonlyArray<Page> | undefined => {
  const truthFile = `${dir}/ground-truth.json`
  if (!existsSync(truthFile)) return undefined
  const truth = JSON.parse(readFileSync(truthFile, "utf8")) as Record<string, { articleBody: string; url: string }>
  return readdirSync(dir)
    .filter((name) => truth[name] !== undefined && existsSync(`${dir}/${name}/source.html`))
    .sort()
    .map((name) => {
      const bytes = new Uint8Array(readFileSync(`${dir}/${name}/source.html`))
      return {
        name,
        url: truth[name].url,
        bytes,
        html: new TextDecoder().decode(bytes),
        expected: truth[name].articleBody
      }
    })
}

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

type Extractor = (page: Page) => string

const ours: Extractor = (page) =>
  Either.match(Extract.extractSync({ body: page.bytes, contentType: "text/html", url: page.url }), {
    onLeft: () => "",
    onRight: (doc) => doc.markdown
  })

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" })
turndown.remove(["script", "style", "noscript"])

const baseline: Extractor = (page) => {
  try {
    const { document } = parseHTML(new TextDecoder().decode(page.bytes))
    const article = new Readability(document as unknown as Document).parse()
    return article?.content ? turndown.turndown(article.content) : ""
  } catch {
    return ""
  }
}

interface Quality {
  readonly f1: number
  readonly precision: number
  readonly recall: number
  readonly rawF1: number
  readonly perPage: ReadonlyArray<number>
}

const quality = (pages: ReadonlyArray<Page>, extractor: Extractor): Quality => {
  let f1 = 0
  let precision = 0
  let recall = 0
  let rawF1 = 0
  const perPage: Array<number> = []
  for (const page of pages) {
    const markdown = extractor(page)
    const s = score(page.expected, readable(markdown))
    f1 += s.f1
    precision += s.precision
    recall += s.recall
    rawF1 += score(page.expected, markdown).f1
    perPage.push(s.f1)
  }
  const n = pages.length
  return { f1: f1 / n, precision: precision / n, recall: recall / n, rawF1: rawF1 / n, perPage }
}

/**
 * Pages per second of both extractors over `rounds` passes, timed page by page and alternating which runs first,
 * so load from anything else on the machine (GC, other processes) falls on both alike.
 */
const speeds = (pages: ReadonlyArray<Page>, rounds: number): { readonly ours: number; readonly baseline: number } => {
  let oursMs = 0
  let baselineMs = 0
  const time = (extractor: Extractor, page: Page) => {
    const start = performance.now()
    extractor(page)
    return performance.now() - start
  }
  for (let r = 0; r < rounds; r++) {
    pages.forEach((page, i) => {
      if ((i + r) % 2 === 0) {
        oursMs += time(ours, page)
        baselineMs += time(baseline, page)
      } else {
        baselineMs += time(baseline, page)
        oursMs += time(ours, page)
      }
    })
  }
  const n = rounds * pages.length * 1000
  return { ours: n / oursMs, baseline: n / baselineMs }
}

/**
 * @since 0.1.0
 */
export interface Measured {
  readonly pages: number
  readonly ours: Quality & { readonly pagesPerSecond: number }
  readonly baseline: Quality & { readonly pagesPerSecond: number }
  readonly peakRssMiB: number
}

/** Measures both extractors; `undefined` when the corpus is absent. */
export const measure = (rounds = 3): Measured | undefined => {
  const pages = loadCorpus()
  if (pages === undefined) return undefined
  const oursQuality = quality(pages, ours) // also the warm-up
  const baselineQuality = quality(pages, baseline)
  const speed = speeds(pages, rounds)
  return {
    pages: pages.length,
    ours: { ...oursQuality, pagesPerSecond: speed.ours },
    baseline: { ...baselineQuality, pagesPerSecond: speed.baseline },
    peakRssMiB: process.resourceUsage().maxRSS / 1024
  }
}

const main = () => {
  const roundsArg = process.argv.indexOf("--rounds")
  const measured = measure(roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : undefined)
  if (measured === undefined) {
    console.log(`extract: corpus not found at ${corpusDir}; skipped (set WEBSEARCH_EXTRACT_CORPUS to run it)`)
    return
  }
  const { baseline: b, ours: o } = measured
  const row = (name: string, q: Measured["ours"]) =>
    `${name.padEnd(34)} ${q.f1.toFixed(4).padStart(8)} ${q.precision.toFixed(4).padStart(9)} ${q.recall.toFixed(4).padStart(8)} ${q.rawF1.toFixed(4).padStart(8)} ${q.pagesPerSecond.toFixed(1).padStart(10)}`
  console.log(`extract over ${measured.pages} pages of ${corpusDir}`)
  console.log(
    `${"".padEnd(34)} ${"F1".padStart(8)} ${"precision".padStart(9)} ${"recall".padStart(8)} ${"raw F1".padStart(8)} ${"pages/s".padStart(10)}`
  )
  console.log(row("@websearch/extract", o))
  console.log(row("readability + linkedom + turndown", b))
  console.log(
    `${"ratio (ours / baseline)".padEnd(34)} ${(o.f1 / b.f1).toFixed(3).padStart(8)} ${"".padStart(9)} ${"".padStart(8)} ${(o.rawF1 / b.rawF1).toFixed(3).padStart(8)} ${(o.pagesPerSecond / b.pagesPerSecond).toFixed(3).padStart(10)}`
  )
  console.log(`peak RSS ${measured.peakRssMiB.toFixed(0)} MiB (both extractors, one process)`)
  if (process.argv.includes("--pages")) {
    const pages = loadCorpus()!
    pages.forEach((page, i) => {
      const delta = o.perPage[i] - b.perPage[i]
      if (Math.abs(delta) > 0.001)
        console.log(`${page.name.padEnd(50)} ours ${o.perPage[i].toFixed(3)} baseline ${b.perPage[i].toFixed(3)}`)
    })
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
