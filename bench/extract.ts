/**
 * Main-content extraction over three corpora, `@websearch/extract` beside Readability 0.6 + linkedom + turndown (the
 * baseline of every speed ratio) and defuddle + linkedom (bench/support/extractors.ts), measured in the same run, on
 * the same pages, in the same process, each page's extractors timed in an order that rotates page by page:
 *
 * - the Readability test pages (`../shared/corpus/readability-pages`, or WEBSEARCH_EXTRACT_CORPUS): content F1 of
 *   4-token shingles against the expected text (the article-extraction-benchmark measure; that text is Readability's
 *   own output, which favours Readability-like extractors: a regression guard, not an independent figure);
 * - the trafilatura evaluation pages (`../shared/corpus/trafilatura-eval`, or WEBSEARCH_TRAFILATURA_CORPUS): segment
 *   precision, recall and F1 as its README says (test-support/trafilaturaEval.ts), nine published extractors beside;
 * - the WCXB development set (`../shared/corpus/wcxb-dev`, or WEBSEARCH_WCXB_CORPUS): bag-of-words F1, P and R and
 *   the set F1, overall and per page type, and the pages answered empty (test-support/wcxb.ts), the published
 *   figures beside; and which pages our extractor took for walls (none of these pages is one).
 *
 * Markdown is scored as the words a reader sees (link and image targets and code-fence info strings removed), the
 * same projection for every extractor. Peak RSS is the process's, all extractors together.
 *
 *   nice node --conditions=@websearch/source --import tsx bench/extract.ts [options]
 *     --only readability|trafilatura|wcxb   one corpus (repeatable)
 *     --extractors ours,readability,defuddle   which extractors (the baseline is always measured for the ratios)
 *     --every N      WCXB-dev: one page in N (the same pages each run; the CI test scores N = 3)
 *     --rounds N     timed passes per corpus (default 3 over the Readability pages, 1 elsewhere; the first also scores)
 *     --pages        the Readability and trafilatura pages whose scores differ between ours and the baseline
 *     --json FILE    every figure as JSON
 *   npm run bench -- extract                  through the bench runner (all three corpora, WCXB-dev in full)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import { readable, score } from "../test-support/shingleScore.js"
import * as TrafilaturaEval from "../test-support/trafilaturaEval.js"
import * as Wcxb from "../test-support/wcxb.js"
import * as Extractors from "./support/extractors.js"
import * as Tables from "./support/extractTables.js"

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

/** Loads the Readability corpus; `undefined` when it is absent. */
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

/** @websearch/extract's markdown, as the fetch provider gets it (for the development helpers beside this file). */
export const ours = (page: Extractors.Page): string => Extractors.oursSync(page).markdown

/** The extractors' names, in the order the tables print them. */
export type Name = keyof typeof Extractors.all

/** What one pass over a corpus gives per extractor: each page's output, scored as it comes, and the time it took. */
interface Pass {
  readonly ms: Record<Name, number>
}

/**
 * Runs the extractors on each page (`load` gives a page's bytes, read outside the timing), rotating which runs first,
 * and hands each output to `onOutput` (outside the timing too). Returns the milliseconds per page of each.
 */
const pass = async (
  count: number,
  load: (i: number) => Extractors.Page,
  names: ReadonlyArray<Name>,
  onOutput?: (i: number, name: Name, output: Extractors.Output) => void
): Promise<Pass> => {
  const ms = Object.fromEntries(names.map((name) => [name, 0])) as Record<Name, number>
  for (let i = 0; i < count; i++) {
    const page = load(i)
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length]
      const start = performance.now()
      const output = await Extractors.all[name].run(page)
      ms[name] += performance.now() - start
      onOutput?.(i, name, output)
    }
    // Yield now and then, so the process stays responsive to signals on a long run.
    if (i % 25 === 24) await new Promise((resolve) => setImmediate(resolve))
  }
  for (const name of names) ms[name] /= Math.max(1, count)
  return { ms }
}

/** The mean of `rounds` passes' times (the first pass's, which also scored, included). */
const timed = async (
  first: Pass,
  rounds: number,
  count: number,
  load: (i: number) => Extractors.Page,
  names: ReadonlyArray<Name>
): Promise<Record<Name, number>> => {
  const total = { ...first.ms }
  for (let r = 1; r < rounds; r++) {
    const again = await pass(count, load, names)
    for (const name of names) total[name] += again.ms[name]
  }
  for (const name of names) total[name] /= Math.max(1, rounds)
  return total
}

/** The Readability pages' figures of one extractor. */
export interface ReadabilityFigures {
  readonly f1: number
  readonly precision: number
  readonly recall: number
  readonly rawF1: number
  readonly msPerPage: number
  readonly perPage: ReadonlyArray<number>
}

/** The trafilatura pages' figures of one extractor. */
export interface TrafilaturaFigures extends TrafilaturaEval.Figures {
  readonly counts: TrafilaturaEval.Counts
  readonly msPerPage: number
  readonly perPage: ReadonlyArray<TrafilaturaEval.Counts>
}

/** The WCXB pages' figures of one extractor. */
export interface WcxbFigures {
  readonly summary: Record<"all" | Wcxb.WcxbType, Wcxb.Row>
  readonly msPerPage: number
  /** The pages taken for walls (ours only): id, type and the wall. */
  readonly walls: ReadonlyArray<string>
}

/**
 * @since 0.1.0
 */
export interface Measured {
  readonly extractors: ReadonlyArray<Name>
  readonly readability: { readonly pages: number; readonly figures: Record<Name, ReadabilityFigures> } | undefined
  readonly trafilatura: { readonly pages: number; readonly figures: Record<Name, TrafilaturaFigures> } | undefined
  readonly wcxb:
    { readonly pages: number; readonly every: number; readonly figures: Record<Name, WcxbFigures> } | undefined
  /** Walls our extractor saw on the Readability and trafilatura pages (none is one). */
  readonly walls: ReadonlyArray<string>
  readonly peakRssMiB: number
}

const perName = <A>(names: ReadonlyArray<Name>, make: (name: Name) => A): Record<Name, A> =>
  Object.fromEntries(names.map((name) => [name, make(name)])) as Record<Name, A>

const wallOf = (label: string, output: Extractors.Output): ReadonlyArray<string> =>
  output.wall === undefined ? [] : [`${label}: ${output.wall}`]

const readabilityPages = async (names: ReadonlyArray<Name>, rounds: number, walls: Array<string>) => {
  const pages = loadCorpus()
  if (pages === undefined) return undefined
  const scores = perName(names, () => [] as Array<{ f1: number; precision: number; recall: number; raw: number }>)
  const first = await pass(
    pages.length,
    (i) => pages[i],
    names,
    (i, name, output) => {
      const s = score(pages[i].expected, readable(output.markdown))
      scores[name][i] = { ...s, raw: score(pages[i].expected, output.markdown).f1 }
      if (name === "ours") walls.push(...wallOf(`readability-pages ${pages[i].name}`, output))
    }
  )
  const ms = await timed(first, rounds, pages.length, (i) => pages[i], names)
  const mean = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
  const figures = perName(names, (name) => ({
    f1: mean(scores[name].map((s) => s.f1)),
    precision: mean(scores[name].map((s) => s.precision)),
    recall: mean(scores[name].map((s) => s.recall)),
    rawF1: mean(scores[name].map((s) => s.raw)),
    msPerPage: ms[name],
    perPage: scores[name].map((s) => s.f1)
  }))
  return { pages: pages.length, figures }
}

const trafilaturaPages = async (names: ReadonlyArray<Name>, rounds: number, walls: Array<string>) => {
  const pages = TrafilaturaEval.load()
  if (pages === undefined) return undefined
  const perPage = perName(names, () => [] as Array<TrafilaturaEval.Counts>)
  const first = await pass(
    pages.length,
    (i) => pages[i],
    names,
    (i, name, output) => {
      perPage[name][i] = TrafilaturaEval.countPage(pages[i], TrafilaturaEval.plainText(output.markdown))
      if (name === "ours") walls.push(...wallOf(`trafilatura-eval ${pages[i].name}`, output))
    }
  )
  const ms = await timed(first, rounds, pages.length, (i) => pages[i], names)
  const figures = perName(names, (name) => {
    const counts = perPage[name].reduce(TrafilaturaEval.add, TrafilaturaEval.zero)
    return { ...TrafilaturaEval.figures(counts), counts, msPerPage: ms[name], perPage: perPage[name] }
  })
  return { pages: pages.length, figures }
}

const wcxbPages = async (names: ReadonlyArray<Name>, rounds: number, every: number) => {
  const pages = Wcxb.load({ every })
  if (pages === undefined) return undefined
  const scored = perName(names, () => [] as Array<Parameters<typeof Wcxb.summarize>[0][number]>)
  const walls: Array<string> = []
  const load = (i: number) => ({ bytes: pages[i].bytes(), url: pages[i].url })
  const first = await pass(pages.length, load, names, (i, name, output) => {
    const page = pages[i]
    const s = Wcxb.scoreMarkdown(page, output.markdown)
    scored[name].push({
      type: page.type,
      expected: page.expected,
      bag: s.bag,
      set: s.set,
      empty: output.markdown.trim() === ""
    })
    if (name === "ours") walls.push(...wallOf(`wcxb-dev ${page.id} (${page.type})`, output))
  })
  const ms = await timed(first, rounds, pages.length, load, names)
  const figures = perName(names, (name) => ({
    summary: Wcxb.summarize(scored[name]),
    msPerPage: ms[name],
    walls: name === "ours" ? walls : []
  }))
  return { pages: pages.length, every, figures }
}

/** Measures the extractors over the corpora asked for (each `undefined` when absent or not asked for). */
export const measure = async (
  options: {
    readonly only?: ReadonlyArray<"readability" | "trafilatura" | "wcxb"> | undefined
    readonly extractors?: ReadonlyArray<Name> | undefined
    readonly rounds?: number | undefined
    readonly every?: number | undefined
  } = {}
): Promise<Measured> => {
  const wanted = (corpus: "readability" | "trafilatura" | "wcxb") =>
    options.only === undefined || options.only.length === 0 || options.only.includes(corpus)
  // The baseline is always measured: every speed ratio is against it.
  const names: ReadonlyArray<Name> = ["ours", "readability", "defuddle"].filter(
    (name) => name === "readability" || options.extractors === undefined || options.extractors.includes(name as Name)
  ) as ReadonlyArray<Name>
  const walls: Array<string> = []
  const readability = wanted("readability") ? await readabilityPages(names, options.rounds ?? 3, walls) : undefined
  const trafilatura = wanted("trafilatura") ? await trafilaturaPages(names, options.rounds ?? 1, walls) : undefined
  const wcxb = wanted("wcxb") ? await wcxbPages(names, options.rounds ?? 1, options.every ?? 1) : undefined
  return {
    extractors: names,
    readability,
    trafilatura,
    wcxb,
    walls,
    peakRssMiB: process.resourceUsage().maxRSS / 1024
  }
}

const values = (flag: string): Array<string> =>
  process.argv.flatMap((a, i) => (a === flag && i + 1 < process.argv.length ? [process.argv[i + 1]] : []))
const value = (flag: string): string | undefined => values(flag)[0]
const numeric = (flag: string): number | undefined => {
  const raw = value(flag)
  return raw === undefined ? undefined : Number(raw)
}

const main = async () => {
  const only = values("--only") as Array<"readability" | "trafilatura" | "wcxb">
  const extractors = value("--extractors")?.split(",") as Array<Name> | undefined
  const measured = await measure({ only, extractors, rounds: numeric("--rounds"), every: numeric("--every") })
  console.log(Tables.render(measured, { corpusDir, pages: process.argv.includes("--pages") ? loadCorpus : undefined }))
  const out = value("--json")
  if (out !== undefined)
    writeFileSync(
      out,
      JSON.stringify(measured, (key, v) => (key === "perPage" ? undefined : v), 2)
    )
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
