/**
 * The tables bench/extract.ts prints: per corpus, each extractor's quality and time per page with its speed ratio
 * against the Readability baseline (baseline ms ÷ its ms: above 1 is faster), the published figures beside; WCXB-dev
 * per page type; the pages our extractor took for walls; the peak RSS.
 */
import type * as ExtractBench from "../extract.js"
import * as TrafilaturaEval from "../../test-support/trafilaturaEval.js"
import * as Wcxb from "../../test-support/wcxb.js"
import * as Extractors from "./extractors.js"

const fixed = (n: number, width: number, digits = 4) => n.toFixed(digits).padStart(width)
const label = (name: string) => name.padEnd(40)

const ratio = (baselineMs: number, ms: number): string => `${(baselineMs / ms).toFixed(2)}×`

const readabilityTable = (
  r: NonNullable<ExtractBench.Measured["readability"]>,
  names: ReadonlyArray<ExtractBench.Name>,
  dir: string
) => {
  const lines = [
    `readability-pages: ${r.pages} pages of ${dir} (mean shingle F1 per page)`,
    `${label("")} ${"F1".padStart(7)} ${"P".padStart(7)} ${"R".padStart(7)} ${"raw F1".padStart(7)} ${"ms/page".padStart(8)} ${"speed".padStart(7)}`
  ]
  const base = r.figures.readability.msPerPage
  for (const name of names) {
    const f = r.figures[name]
    lines.push(
      `${label(Extractors.all[name].name)} ${fixed(f.f1, 7)} ${fixed(f.precision, 7)} ${fixed(f.recall, 7)} ${fixed(f.rawF1, 7)} ${fixed(f.msPerPage, 8, 2)} ${ratio(base, f.msPerPage).padStart(7)}`
    )
  }
  return lines
}

const trafilaturaTable = (
  t: NonNullable<ExtractBench.Measured["trafilatura"]>,
  names: ReadonlyArray<ExtractBench.Name>
) => {
  const lines = [
    `trafilatura-eval: ${t.pages} pages of ${TrafilaturaEval.corpusDir} (segments, micro-averaged)`,
    `${label("")} ${"F1".padStart(7)} ${"P".padStart(7)} ${"R".padStart(7)} ${"acc.".padStart(7)} ${"ms/page".padStart(8)} ${"speed".padStart(7)}`
  ]
  const base = t.figures.readability.msPerPage
  for (const name of names) {
    const f = t.figures[name]
    lines.push(
      `${label(Extractors.all[name].name)} ${fixed(f.f1, 7)} ${fixed(f.precision, 7)} ${fixed(f.recall, 7)} ${fixed(f.accuracy, 7)} ${fixed(f.msPerPage, 8, 2)} ${ratio(base, f.msPerPage).padStart(7)}`
    )
  }
  for (const p of TrafilaturaEval.published) {
    lines.push(`${label(`${p.system} (published)`)} ${fixed(p.f1, 7)} ${fixed(p.precision, 7)} ${fixed(p.recall, 7)}`)
  }
  return lines
}

const wcxbTable = (w: NonNullable<ExtractBench.Measured["wcxb"]>, names: ReadonlyArray<ExtractBench.Name>) => {
  const of = w.every === 1 ? "" : ` (one page in ${w.every})`
  const lines = [
    `wcxb-dev: ${w.pages} pages${of} of ${Wcxb.corpusDir ?? ""} (bag-of-words F1, P, R and set F1, macro; empty: pages answered with nothing)`
  ]
  const columns = names.map((name) => (name === "ours" ? "ours F1 (P / R) set F1 empty" : `${name} F1 (empty)`))
  lines.push(
    `| type | pages | ${columns.join(" | ")} | rs-trafilatura (published) |`,
    `|---|---|${names.map(() => "---|").join("")}---|`
  )
  const rs = Wcxb.published[0]
  for (const key of ["all", ...Wcxb.pageTypes] as const) {
    const pages = w.figures.ours?.summary[key].pages ?? w.figures.readability.summary[key].pages
    if (pages === 0) continue
    const cells = names.map((name) => {
      const row = w.figures[name].summary[key]
      return name === "ours"
        ? `${row.f1.toFixed(3)} (${row.precision.toFixed(3)} / ${row.recall.toFixed(3)}) ${row.setF1.toFixed(3)} ${row.empty}`
        : `${row.f1.toFixed(3)} (${row.empty})`
    })
    lines.push(`| ${key} | ${pages} | ${cells.join(" | ")} | ${rs[key]?.toFixed(3) ?? ""} |`)
  }
  for (const p of Wcxb.published.slice(1))
    lines.push(`${label(`${p.system} (published, all)`)} ${fixed(p.all ?? 0, 7, 3)}`)
  const base = w.figures.readability.msPerPage
  lines.push(
    names
      .map(
        (name) =>
          `${Extractors.all[name].name} ${w.figures[name].msPerPage.toFixed(2)} ms/page (${ratio(base, w.figures[name].msPerPage)})`
      )
      .join("; ")
  )
  return lines
}

/** The whole report. `pages` (the Readability corpus loader) adds the per-page differences. */
export const render = (
  m: ExtractBench.Measured,
  options: {
    readonly corpusDir: string
    readonly pages?: (() => ReadonlyArray<{ readonly name: string }> | undefined) | undefined
  }
): string => {
  const names = m.extractors
  const lines: Array<string> = [
    `speed: Readability + linkedom + turndown's ms per page ÷ each extractor's (above 1 is faster)`,
    ""
  ]
  if (m.readability === undefined)
    lines.push(`readability-pages: not measured (absent at ${options.corpusDir}, or not asked for)`)
  else lines.push(...readabilityTable(m.readability, names, options.corpusDir))
  lines.push("")
  if (m.trafilatura === undefined)
    lines.push(`trafilatura-eval: not measured (absent at ${TrafilaturaEval.corpusDir}, or not asked for)`)
  else lines.push(...trafilaturaTable(m.trafilatura, names))
  lines.push("")
  if (m.wcxb === undefined) lines.push("wcxb-dev: not measured (absent, or not asked for)")
  else lines.push(...wcxbTable(m.wcxb, names))
  const walls = [...m.walls, ...(m.wcxb?.figures.ours?.walls ?? [])]
  if (names.includes("ours")) {
    lines.push(
      "",
      `pages @websearch/extract took for walls (a bot check, login or consent wall): ${walls.length}`,
      ...walls.map((w) => `  ${w}`)
    )
  }
  lines.push("", `peak RSS ${m.peakRssMiB.toFixed(0)} MiB (every extractor, one process)`)
  if (options.pages !== undefined && m.readability !== undefined && names.includes("ours")) {
    const r = m.readability
    options.pages()?.forEach((page, i) => {
      const o = r.figures.ours.perPage[i]
      const b = r.figures.readability.perPage[i]
      if (Math.abs(o - b) > 0.001) lines.push(`${page.name.padEnd(50)} ours ${o.toFixed(3)} baseline ${b.toFixed(3)}`)
    })
  }
  if (options.pages !== undefined && m.trafilatura !== undefined && names.includes("ours")) {
    const t = m.trafilatura
    TrafilaturaEval.load()?.forEach((page, i) => {
      const o = t.figures.ours.perPage[i]
      const b = t.figures.readability.perPage[i]
      if (o.tp !== b.tp || o.fp !== b.fp)
        lines.push(`${page.name.padEnd(50)} ours TP ${o.tp} FP ${o.fp} baseline TP ${b.tp} FP ${b.fp}`)
    })
  }
  return lines.join("\n")
}
