/**
 * The corpus figures the extract project's CI tests guard (packages/extract/test/corpus-figures.json), measured one
 * way for the tests and for the script that records them (bench/corpus-figures.ts): `@websearch/extract` as the
 * fetch provider calls it, over the Readability test pages (mean shingle F1, all 129), the trafilatura evaluation
 * pages (segment F1, one page in 3) and the WCXB development set (bag-of-words F1 overall and per page type, one
 * page in 3). Each loop yields to the event loop now and then: a test worker busy for minutes misses vitest's own
 * messages and fails the run.
 */
import * as Either from "effect/Either"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Extract from "../packages/extract/src/Extract.js"
import * as ShingleScore from "./shingleScore.js"
import * as TrafilaturaEval from "./trafilaturaEval.js"
import * as Wcxb from "./wcxb.js"

/** Where the figures are recorded. */
export const file = fileURLToPath(new URL("../packages/extract/test/corpus-figures.json", import.meta.url))

/** The recorded figures. */
export interface Recorded {
  /** How far below its recorded figure a corpus may score before the test fails. */
  readonly tolerance: number
  readonly readabilityPages: { readonly pages: number; readonly f1: number }
  readonly trafilaturaEval: { readonly every: number; readonly pages: number; readonly f1: number }
  readonly wcxbDev: {
    readonly every: number
    readonly pages: number
    readonly f1: number
    readonly types: Readonly<Record<Wcxb.WcxbType, { readonly pages: number; readonly f1: number }>>
  }
}

/** Reads the recorded figures. */
export const read = (): Recorded => JSON.parse(readFileSync(file, "utf8")) as Recorded

const yieldNow = () => new Promise((resolve) => setImmediate(resolve))

const markdown = (body: Uint8Array, url: string): string =>
  Either.match(Extract.extractSync({ body, contentType: "text/html", url }), {
    onLeft: () => "",
    onRight: (doc) => doc.markdown
  })

/** The Readability test pages' directory (WEBSEARCH_EXTRACT_CORPUS, else `shared/` beside the repository). */
export const readabilityDir: string =
  process.env.WEBSEARCH_EXTRACT_CORPUS ??
  [
    fileURLToPath(new URL("../../shared/corpus/readability-pages/", import.meta.url)),
    "/work/shared/corpus/readability-pages/"
  ].find((candidate) => existsSync(`${candidate}/ground-truth.json`)) ??
  "/work/shared/corpus/readability-pages/"

/** The Readability test pages, in name order, with the text each should give; `undefined` when absent. */
export const readabilityCorpus = ():
  | ReadonlyArray<{ readonly name: string; readonly url: string; readonly body: Uint8Array; readonly expected: string }>
  | undefined => {
  const truthFile = `${readabilityDir}/ground-truth.json`
  if (!existsSync(truthFile)) return undefined
  const truth = JSON.parse(readFileSync(truthFile, "utf8")) as Record<string, { articleBody: string; url: string }>
  return readdirSync(readabilityDir)
    .filter((name) => truth[name] !== undefined)
    .sort()
    .map((name) => ({
      name,
      url: truth[name].url,
      body: new Uint8Array(readFileSync(`${readabilityDir}/${name}/source.html`)),
      expected: truth[name].articleBody
    }))
}

/** Mean shingle F1 over the Readability pages (bench/extract.ts's measure); `undefined` when the corpus is absent. */
export const readabilityPages = async (): Promise<Recorded["readabilityPages"] | undefined> => {
  const pages = readabilityCorpus()
  if (pages === undefined) return undefined
  let sum = 0
  for (const [i, page] of pages.entries()) {
    if (i % 10 === 0) await yieldNow()
    sum += ShingleScore.score(page.expected, ShingleScore.readable(markdown(page.body, page.url))).f1
  }
  return { pages: pages.length, f1: sum / pages.length }
}

/** Segment F1 over one trafilatura-eval page in `every` (index 0, every, 2·every, …); `undefined` when absent. */
export const trafilaturaEval = async (every: number): Promise<Recorded["trafilaturaEval"] | undefined> => {
  const all = TrafilaturaEval.load()
  if (all === undefined) return undefined
  const subset = all.filter((_, i) => i % every === 0)
  let counts = TrafilaturaEval.zero
  for (const [i, page] of subset.entries()) {
    if (i % 10 === 0) await yieldNow()
    counts = TrafilaturaEval.add(
      counts,
      TrafilaturaEval.countPage(page, TrafilaturaEval.plainText(markdown(page.bytes, page.url)))
    )
  }
  return { every, pages: subset.length, f1: TrafilaturaEval.figures(counts).f1 }
}

/** Bag-of-words F1 over one WCXB-dev page in `every`, overall and per page type; `undefined` when absent. */
export const wcxbDev = async (every: number): Promise<Recorded["wcxbDev"] | undefined> => {
  const pages = Wcxb.load({ every })
  if (pages === undefined) return undefined
  const scored: Array<Parameters<typeof Wcxb.summarize>[0][number]> = []
  for (const [i, page] of pages.entries()) {
    if (i % 10 === 0) await yieldNow()
    const text = markdown(page.bytes(), page.url)
    const s = Wcxb.scoreMarkdown(page, text)
    scored.push({ type: page.type, expected: page.expected, bag: s.bag, set: s.set, empty: text.trim() === "" })
  }
  const summary = Wcxb.summarize(scored)
  const types = Object.fromEntries(
    Wcxb.pageTypes.map((type) => [type, { pages: summary[type].pages, f1: summary[type].f1 }])
  ) as Recorded["wcxbDev"]["types"]
  return { every, pages: pages.length, f1: summary.all.f1, types }
}
