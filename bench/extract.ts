/**
 * Main-content extraction over two corpora: the Readability test pages (`../shared/corpus/readability-pages`, or
 * WEBSEARCH_EXTRACT_CORPUS) and the trafilatura evaluation pages (`../shared/corpus/trafilatura-eval`, or
 * WEBSEARCH_TRAFILATURA_CORPUS; scored as its README says, see `test-support/trafilaturaEval.ts`, with the published
 * figures of nine extractors printed beside ours). Time per page and quality of `@websearch/extract` against
 * `@mozilla/readability` + `linkedom` + `turndown`, over the same pages in the same process. Both extractors get
 * the page decoded by `Charset.decode` (the baseline would otherwise read latin-1 pages as mojibake).
 *
 *   node --conditions=@websearch/source --import tsx bench/extract.ts
 *                                             this case alone (--rounds N: timed passes, default 3 over the
 *                                             Readability pages and 1 over the trafilatura pages;
 *                                             --pages: the pages whose score differs between the two;
 *                                             --only readability|trafilatura: one corpus)
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
import * as Charset from "../packages/extract/src/Charset.js"
import * as Extract from "../packages/extract/src/Extract.js"
import { readable, score } from "../test-support/shingleScore.js"
import * as TrafilaturaEval from "../test-support/trafilaturaEval.js"

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

export { readable, score }

type Extractor = (page: { readonly bytes: Uint8Array; readonly url: string }) => string

/** @websearch/extract, as the fetch provider calls it. */
export const ours: Extractor = (page) =>
  Either.match(Extract.extractSync({ body: page.bytes, contentType: "text/html", url: page.url }), {
    onLeft: () => "",
    onRight: (doc) => doc.markdown
  })

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" })
turndown.remove(["script", "style", "noscript"])

/** Readability over linkedom, its HTML turned into markdown by turndown. */
export const baseline: Extractor = (page) => {
  try {
    const { document } = parseHTML(Charset.decode(page.bytes, "text/html", "html").text)
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

/** The trafilatura corpus's figures for one extractor, with each page's counts. */
export interface SnippetQuality extends TrafilaturaEval.Figures {
  readonly counts: TrafilaturaEval.Counts
  readonly perPage: ReadonlyArray<TrafilaturaEval.Counts>
}

/** Scores `extractor` over trafilatura-eval pages as the corpus README says. */
export const snippetQuality = (
  pages: ReadonlyArray<TrafilaturaEval.EvalPage>,
  extractor: Extractor
): SnippetQuality => {
  let counts = TrafilaturaEval.zero
  const perPage: Array<TrafilaturaEval.Counts> = []
  for (const page of pages) {
    const c = TrafilaturaEval.countPage(page, TrafilaturaEval.plainText(extractor(page)))
    perPage.push(c)
    counts = TrafilaturaEval.add(counts, c)
  }
  return { ...TrafilaturaEval.figures(counts), counts, perPage }
}

/**
 * Milliseconds per page of both extractors over `rounds` passes, timed page by page and alternating which runs
 * first, so load from anything else on the machine (GC, other processes) falls on both alike.
 */
const speeds = (
  pages: ReadonlyArray<{ readonly bytes: Uint8Array; readonly url: string }>,
  rounds: number
): { readonly ours: number; readonly baseline: number } => {
  let oursMs = 0
  let baselineMs = 0
  const time = (extractor: Extractor, page: { readonly bytes: Uint8Array; readonly url: string }) => {
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
  const n = rounds * pages.length
  return { ours: oursMs / n, baseline: baselineMs / n }
}

/**
 * @since 0.1.0
 */
export interface Measured {
  readonly readability:
    | {
        readonly pages: number
        readonly ours: Quality & { readonly msPerPage: number }
        readonly baseline: Quality & { readonly msPerPage: number }
      }
    | undefined
  readonly trafilatura:
    | {
        readonly pages: number
        readonly ours: SnippetQuality & { readonly msPerPage: number }
        readonly baseline: SnippetQuality & { readonly msPerPage: number }
      }
    | undefined
  readonly peakRssMiB: number
}

/** Measures both extractors over both corpora (each `undefined` when absent or not asked for). */
export const measure = (
  options: {
    readonly rounds?: number | undefined
    readonly trafilaturaRounds?: number | undefined
    readonly only?: "readability" | "trafilatura" | undefined
  } = {}
): Measured => {
  const pages = options.only === "trafilatura" ? undefined : loadCorpus()
  let readability: Measured["readability"]
  if (pages !== undefined) {
    const oursQuality = quality(pages, ours) // also the warm-up
    const baselineQuality = quality(pages, baseline)
    const speed = speeds(pages, options.rounds ?? 3)
    readability = {
      pages: pages.length,
      ours: { ...oursQuality, msPerPage: speed.ours },
      baseline: { ...baselineQuality, msPerPage: speed.baseline }
    }
  }
  const evalPages = options.only === "readability" ? undefined : TrafilaturaEval.load()
  let trafilatura: Measured["trafilatura"]
  if (evalPages !== undefined) {
    const oursQuality = snippetQuality(evalPages, ours)
    const baselineQuality = snippetQuality(evalPages, baseline)
    const speed = speeds(evalPages, options.trafilaturaRounds ?? 1)
    trafilatura = {
      pages: evalPages.length,
      ours: { ...oursQuality, msPerPage: speed.ours },
      baseline: { ...baselineQuality, msPerPage: speed.baseline }
    }
  }
  return { readability, trafilatura, peakRssMiB: process.resourceUsage().maxRSS / 1024 }
}

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}

const main = () => {
  const rounds = arg("--rounds")
  const only = arg("--only")
  const measured = measure({
    rounds: rounds === undefined ? undefined : Number(rounds),
    trafilaturaRounds: rounds === undefined ? undefined : Number(rounds),
    only: only === "readability" || only === "trafilatura" ? only : undefined
  })
  const fixed = (n: number, width: number, digits = 4) => n.toFixed(digits).padStart(width)
  const vs = "readability + linkedom + turndown"
  const r = measured.readability
  if (r === undefined) {
    if (only !== "trafilatura") console.log(`extract: no corpus at ${corpusDir} (set WEBSEARCH_EXTRACT_CORPUS)`)
  } else {
    const row = (name: string, q: NonNullable<Measured["readability"]>["ours"]) =>
      `${name.padEnd(44)} ${fixed(q.f1, 8)} ${fixed(q.precision, 9)} ${fixed(q.recall, 8)} ${fixed(q.rawF1, 8)} ${fixed(q.msPerPage, 10, 2)}`
    console.log(`readability-pages: ${r.pages} pages of ${corpusDir} (mean shingle F1 per page)`)
    console.log(
      `${"".padEnd(44)} ${"F1".padStart(8)} ${"precision".padStart(9)} ${"recall".padStart(8)} ${"raw F1".padStart(8)} ${"ms/page".padStart(10)}`
    )
    console.log(row("@websearch/extract", r.ours))
    console.log(row(vs, r.baseline))
    console.log(
      `${"speed-up (baseline ms / ours ms)".padEnd(44)} ${"".padStart(8)} ${"".padStart(9)} ${"".padStart(8)} ${"".padStart(8)} ${fixed(r.baseline.msPerPage / r.ours.msPerPage, 10, 3)}`
    )
  }
  const t = measured.trafilatura
  if (t === undefined) {
    if (only !== "readability")
      console.log(`extract: no corpus at ${TrafilaturaEval.corpusDir} (set WEBSEARCH_TRAFILATURA_CORPUS)`)
  } else {
    console.log(`\ntrafilatura-eval: ${t.pages} pages of ${TrafilaturaEval.corpusDir} (segments, micro-averaged)`)
    console.log(
      `${"".padEnd(44)} ${"F1".padStart(8)} ${"precision".padStart(9)} ${"recall".padStart(8)} ${"accuracy".padStart(8)} ${"ms/page".padStart(10)}`
    )
    const row = (name: string, q: Omit<TrafilaturaEval.Figures, "accuracy"> & { accuracy?: number }, ms?: number) =>
      `${name.padEnd(44)} ${fixed(q.f1, 8)} ${fixed(q.precision, 9)} ${fixed(q.recall, 8)} ${q.accuracy === undefined ? "".padStart(8) : fixed(q.accuracy, 8)} ${ms === undefined ? "".padStart(10) : fixed(ms, 10, 2)}`
    console.log(row("@websearch/extract", t.ours, t.ours.msPerPage))
    console.log(row(vs, t.baseline, t.baseline.msPerPage))
    for (const p of TrafilaturaEval.published) console.log(row(`${p.system} (published)`, p))
    console.log(
      `${"speed-up (baseline ms / ours ms)".padEnd(44)} ${"".padStart(8)} ${"".padStart(9)} ${"".padStart(8)} ${"".padStart(8)} ${fixed(t.baseline.msPerPage / t.ours.msPerPage, 10, 3)}`
    )
    const c = t.ours.counts
    console.log(`ours: TP ${c.tp} FN ${c.fn} FP ${c.fp} TN ${c.tn}`)
  }
  console.log(`peak RSS ${measured.peakRssMiB.toFixed(0)} MiB (both extractors, one process)`)
  if (process.argv.includes("--pages")) {
    if (r !== undefined) {
      loadCorpus()!.forEach((page, i) => {
        const delta = r.ours.perPage[i] - r.baseline.perPage[i]
        if (Math.abs(delta) > 0.001)
          console.log(
            `${page.name.padEnd(50)} ours ${r.ours.perPage[i].toFixed(3)} baseline ${r.baseline.perPage[i].toFixed(3)}`
          )
      })
    }
    if (t !== undefined) {
      TrafilaturaEval.load()!.forEach((page, i) => {
        const o = t.ours.perPage[i]
        const b = t.baseline.perPage[i]
        if (o.tp !== b.tp || o.fp !== b.fp)
          console.log(`${page.name.padEnd(50)} ours TP ${o.tp} FP ${o.fp} baseline TP ${b.tp} FP ${b.fp}`)
      })
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
