/**
 * The trafilatura evaluation corpus (`../shared/corpus/trafilatura-eval`, see its README): 990 real pages, each with
 * text segments that must appear in the extracted text (`with`) and boilerplate segments that must not
 * (`without`), scored exactly as the README describes: whitespace runs collapsed to one space and trimmed in the
 * text and in every segment, substring tests, counts summed over the corpus (micro-average), then precision,
 * recall, accuracy and F1. Markdown is turned into plain text first (link and image targets, emphasis, heading,
 * list, quote and table markup and backslash escapes dropped), the same projection for every extractor.
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** A page of the corpus. */
export interface EvalPage {
  readonly name: string
  readonly url: string
  readonly bytes: Uint8Array
  readonly with: ReadonlyArray<string>
  readonly without: ReadonlyArray<string>
}

/** The four counts of the README, summed over pages. */
export interface Counts {
  readonly tp: number
  readonly fn: number
  readonly fp: number
  readonly tn: number
}

/** The README's figures from counts. */
export interface Figures {
  readonly precision: number
  readonly recall: number
  readonly accuracy: number
  readonly f1: number
}

/** The published figures (trafilatura's own table, 2026-08-04), as the corpus README lists them. */
export const published: ReadonlyArray<{ readonly system: string } & Omit<Figures, "accuracy">> = [
  { system: "trafilatura 2.2.0 (standard)", precision: 0.906, recall: 0.943, f1: 0.924 },
  { system: "trafilatura 2.2.0 (precision)", precision: 0.925, recall: 0.915, f1: 0.92 },
  { system: "magic-html 0.1.8", precision: 0.887, recall: 0.891, f1: 0.889 },
  { system: "justext 3.0.2", precision: 0.864, recall: 0.859, f1: 0.862 },
  { system: "news-please 1.6.16", precision: 0.932, recall: 0.758, f1: 0.836 },
  { system: "readability-lxml 0.8.4.1", precision: 0.898, recall: 0.764, f1: 0.826 },
  { system: "goose3 3.1.22", precision: 0.936, recall: 0.714, f1: 0.81 },
  { system: "newspaper4k 0.9.6", precision: 0.878, recall: 0.736, f1: 0.801 },
  { system: "raw HTML as text", precision: 0.528, recall: 0.906, f1: 0.667 }
]

/** The corpus directory: WEBSEARCH_TRAFILATURA_CORPUS, else `shared/` beside the repository. */
export const corpusDir =
  process.env.WEBSEARCH_TRAFILATURA_CORPUS ??
  [
    fileURLToPath(new URL("../../shared/corpus/trafilatura-eval/", import.meta.url)),
    "/work/shared/corpus/trafilatura-eval/"
  ].find((candidate) => existsSync(`${candidate}/evaldata.json`)) ??
  fileURLToPath(new URL("../../shared/corpus/trafilatura-eval/", import.meta.url))

/** Loads the corpus in the order of `evaldata.json`; `undefined` when it is absent. */
export const load = (dir = corpusDir): ReadonlyArray<EvalPage> | undefined => {
  const file = `${dir}/evaldata.json`
  if (!existsSync(file)) return undefined
  const data = JSON.parse(readFileSync(file, "utf8")) as Record<
    string,
    { file: string; with?: Array<string>; without?: Array<string> }
  >
  const pages: Array<EvalPage> = []
  for (const [url, entry] of Object.entries(data)) {
    const path = [`${dir}/eval/${entry.file}`, `${dir}/cache/${entry.file}`].find((p) => existsSync(p))
    // A page whose file is missing still counts, as an empty output: its segments are not dropped from the sums.
    const bytes = path === undefined ? new Uint8Array() : new Uint8Array(readFileSync(path))
    pages.push({ name: entry.file, url, bytes, with: entry.with ?? [], without: entry.without ?? [] })
  }
  return pages
}

const normalize = (s: string): string => s.replace(/\s+/g, " ").trim()

/**
 * Markdown -> the plain text a reader sees. Both extractors' markdown goes through it: images become their alt
 * text, links their label, and markup and backslash escapes are dropped. Every pattern is linear (no nested
 * quantifiers over the same characters).
 */
export const plainText = (markdown: string): string =>
  markdown
    .replace(/^(\s*)(`{3,}|~{3,})[^\n]*$/gm, "$1")
    .replace(/!\[((?:[^\]\\]|\\.)*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, "$1")
    .replace(/\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, "]")
    .replace(/<(https?:\/\/[^>\s]+)>/g, "$1")
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, "")
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, "")
    .replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/gm, "")
    .replace(/^\|(?: -{3} \|)+$/gm, "")
    .replace(/^\|[^\n]*\|$/gm, (row) => row.slice(1, -1).replace(/(?<!\\)\|/g, " "))
    .replace(/(?<!\\)(?:\*\*|__|~~)/g, "")
    .replace(/(?<![\\\p{L}\p{N}])[_*](?=\S)|(?<=\S)(?<!\\)[_*](?![\p{L}\p{N}])/gu, "")
    .replace(/(?<!\\)\[|(?<!\\)\]/g, "")
    .replace(/\\([\\`*_{}[\]()#+\-.!<>~|=])/g, "$1")

/** The README's counts for one page's extracted plain text. */
export const countPage = (page: EvalPage, text: string): Counts => {
  const got = normalize(text)
  let tp = 0
  let fn = 0
  let fp = 0
  let tn = 0
  for (const segment of page.with) {
    if (got.includes(normalize(segment))) tp++
    else fn++
  }
  for (const segment of page.without) {
    if (got.includes(normalize(segment))) fp++
    else tn++
  }
  return { tp, fn, fp, tn }
}

/** Sums counts. */
export const add = (a: Counts, b: Counts): Counts => ({
  tp: a.tp + b.tp,
  fn: a.fn + b.fn,
  fp: a.fp + b.fp,
  tn: a.tn + b.tn
})

/** The zero of {@link add}. */
export const zero: Counts = { tp: 0, fn: 0, fp: 0, tn: 0 }

/** Precision, recall, accuracy and F1 from summed counts, as the README defines them. */
export const figures = ({ fn, fp, tn, tp }: Counts): Figures => ({
  precision: tp + fp === 0 ? 0 : tp / (tp + fp),
  recall: tp + fn === 0 ? 0 : tp / (tp + fn),
  accuracy: tp + tn + fp + fn === 0 ? 0 : (tp + tn) / (tp + tn + fp + fn),
  f1: 2 * tp + fp + fn === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn)
})
