/**
 * The WCXB development set (`../shared/corpus/wcxb-dev`, or WEBSEARCH_WCXB_CORPUS) and its own metric, as its README
 * states it: per page, lower-case both texts, every `\w+` token (Unicode letters, digits, underscore), bags of words
 * (multiset intersection), precision = overlap / predicted tokens, recall = overlap / reference tokens; an empty
 * reference scores 1 when the prediction is empty too, else 0; an empty prediction scores 0. Macro averages over
 * pages, overall and per page type. The set metric (lower-cased, whitespace-split tokens as sets) is reported beside
 * it. Markdown is scored as the words a reader sees (`ShingleScore.readable`: link and image targets and code-fence
 * info strings removed).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { gunzipSync } from "node:zlib"
import { readable } from "./shingleScore.js"

/** The seven page types of the benchmark (its `category` is our `collection`). */
export const pageTypes = ["article", "documentation", "service", "forum", "collection", "listing", "product"] as const

export type WcxbType = (typeof pageTypes)[number]

export interface WcxbPage {
  readonly id: string
  readonly url: string
  readonly type: WcxbType
  /** The reference text (`ground_truth.main_content`). */
  readonly expected: string
  readonly title: string | undefined
  /** Snippets that must / must not appear. */
  readonly with: ReadonlyArray<string>
  readonly without: ReadonlyArray<string>
  /** Reads the page's HTML bytes (gunzipped) when asked: 1,497 pages held at once would take ~300 MB. */
  readonly bytes: () => Uint8Array
}

/** The corpus directory, or `undefined` when it is not beside the checkout (nor in the workspace's shared folder). */
export const corpusDir: string | undefined =
  process.env.WEBSEARCH_WCXB_CORPUS ??
  [fileURLToPath(new URL("../../shared/corpus/wcxb-dev/", import.meta.url)), "/work/shared/corpus/wcxb-dev/"].find(
    (candidate) => existsSync(`${candidate}/ground-truth`)
  )

const typeOf = (raw: unknown): WcxbType => {
  const name = raw === "category" ? "collection" : raw
  return (pageTypes as ReadonlyArray<unknown>).includes(name) ? (name as WcxbType) : "article"
}

const strings = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.filter((s): s is string => typeof s === "string") : []

/**
 * The pages, in id order; `every` keeps one page in N (ids 1, 1 + N, …: the same pages on every run), `types` keeps
 * only those page types. `undefined` when the corpus is absent.
 */
export const load = (
  options: {
    readonly dir?: string | undefined
    readonly every?: number | undefined
    readonly types?: ReadonlyArray<WcxbType> | undefined
  } = {}
): ReadonlyArray<WcxbPage> | undefined => {
  const dir = options.dir ?? corpusDir
  if (dir === undefined || !existsSync(`${dir}/ground-truth`)) return undefined
  const every = Math.max(1, Math.floor(options.every ?? 1))
  const ids = readdirSync(`${dir}/ground-truth`)
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .sort()
  const pages: Array<WcxbPage> = []
  for (const [i, id] of ids.entries()) {
    if (i % every !== 0) continue
    const truth = JSON.parse(readFileSync(`${dir}/ground-truth/${id}.json`, "utf8")) as {
      readonly url: string
      readonly ground_truth: {
        readonly title?: string | null
        readonly main_content?: string | null
        readonly with?: unknown
        readonly without?: unknown
      }
      readonly _internal?: { readonly page_type?: { readonly primary?: string } }
    }
    const type = typeOf(truth._internal?.page_type?.primary)
    if (options.types !== undefined && !options.types.includes(type)) continue
    const file = `${dir}/html/${id}.html.gz`
    pages.push({
      id,
      url: truth.url,
      type,
      expected: truth.ground_truth.main_content ?? "",
      title: truth.ground_truth.title ?? undefined,
      with: strings(truth.ground_truth.with),
      without: strings(truth.ground_truth.without),
      bytes: () => new Uint8Array(gunzipSync(readFileSync(file)))
    })
  }
  return pages
}

export interface Score {
  readonly precision: number
  readonly recall: number
  readonly f1: number
}

const wordTokens = (text: string): Array<string> => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []

const counts = (tokens: ReadonlyArray<string>): Map<string, number> => {
  const out = new Map<string, number>()
  for (const t of tokens) out.set(t, (out.get(t) ?? 0) + 1)
  return out
}

const prf = (overlap: number, predicted: number, reference: number): Score => {
  if (reference === 0) return predicted === 0 ? { precision: 1, recall: 1, f1: 1 } : { precision: 0, recall: 0, f1: 0 }
  if (predicted === 0) return { precision: 0, recall: 0, f1: 0 }
  const precision = overlap / predicted
  const recall = overlap / reference
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { precision, recall, f1 }
}

/** The benchmark's bag-of-words score of a plain text against the reference. */
export const bagScore = (expected: string, actual: string): Score => {
  const want = counts(wordTokens(expected))
  const got = wordTokens(actual)
  let overlap = 0
  for (const [token, n] of counts(got)) overlap += Math.min(n, want.get(token) ?? 0)
  let reference = 0
  for (const n of want.values()) reference += n
  return prf(overlap, got.length, reference)
}

/** The set metric the benchmark's own results file follows: lower-cased, whitespace-split tokens as sets. */
export const setScore = (expected: string, actual: string): Score => {
  const split = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .split(/\s+/)
        .filter((t) => t !== "")
    )
  const want = split(expected)
  const got = split(actual)
  let overlap = 0
  for (const t of got) if (want.has(t)) overlap++
  return prf(overlap, got.size, want.size)
}

/** Both scores of an extractor's markdown (turned into the words a reader sees first). */
export const scoreMarkdown = (
  page: Pick<WcxbPage, "expected">,
  markdown: string
): { readonly bag: Score; readonly set: Score } => {
  const text = readable(markdown)
  return { bag: bagScore(page.expected, text), set: setScore(page.expected, text) }
}

export interface Row {
  readonly pages: number
  readonly f1: number
  readonly precision: number
  readonly recall: number
  readonly setF1: number
  /** Pages answered with nothing where the reference has text. */
  readonly empty: number
}

/** Macro averages overall (`all`) and per page type. */
export const summarize = (
  scored: ReadonlyArray<{
    readonly type: WcxbType
    readonly expected: string
    readonly bag: Score
    readonly set: Score
    readonly empty: boolean
  }>
): Record<"all" | WcxbType, Row> => {
  const row = (of: typeof scored): Row => {
    const n = of.length
    const mean = (f: (s: (typeof scored)[number]) => number) => (n === 0 ? 0 : of.reduce((a, s) => a + f(s), 0) / n)
    return {
      pages: n,
      f1: mean((s) => s.bag.f1),
      precision: mean((s) => s.bag.precision),
      recall: mean((s) => s.bag.recall),
      setF1: mean((s) => s.set.f1),
      empty: of.filter((s) => s.empty && s.expected.trim() !== "").length
    }
  }
  const out = { all: row(scored) } as Record<"all" | WcxbType, Row>
  for (const type of pageTypes) out[type] = row(scored.filter((s) => s.type === type))
  return out
}

/** The published figures (F1 on the dev split, from the benchmark's README), printed beside ours. */
export const published: ReadonlyArray<{ readonly system: string } & Partial<Record<"all" | WcxbType, number>>> = [
  {
    system: "rs-trafilatura",
    all: 0.859,
    article: 0.932,
    documentation: 0.932,
    service: 0.844,
    forum: 0.808,
    collection: 0.716,
    listing: 0.707,
    product: 0.641
  },
  { system: "MinerU-HTML", all: 0.827 },
  { system: "trafilatura", all: 0.791 },
  { system: "dom-smoothie", all: 0.762 },
  { system: "ReaderLM-v2", all: 0.741 },
  { system: "readability (Python)", all: 0.675 }
]

/** The per-type table of the bench scripts: F1, P, R, set F1 and empty pages, rs-trafilatura's published F1 beside. */
export const table = (summary: Record<"all" | WcxbType, Row>): Array<string> => {
  const rs = published[0]
  const lines = [`| type | pages | F1 | P | R | set F1 | empty | rs-trafilatura |`, `|---|---|---|---|---|---|---|---|`]
  for (const key of ["all", ...pageTypes] as const) {
    const r = summary[key]
    if (r.pages === 0) continue
    lines.push(
      `| ${key} | ${r.pages} | ${r.f1.toFixed(3)} | ${r.precision.toFixed(3)} | ${r.recall.toFixed(3)} | ` +
        `${r.setF1.toFixed(3)} | ${r.empty} | ${rs[key]?.toFixed(3) ?? ""} |`
    )
  }
  return lines
}
