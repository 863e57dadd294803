/**
 * The figures the extract project's corpus tests guard (packages/extract/test/corpus-figures.json): measured with
 * test-support/corpusFigures.ts, exactly as the tests measure them, and printed beside what is recorded. With
 * `--record` they are written to the file (the tolerance is kept): what the lead runs once the merged code is final.
 *
 *   npm run corpus-figures               measure and compare
 *   npm run corpus-figures -- --record   measure and record
 *
 * It takes a few minutes of one core: all 129 Readability pages, one trafilatura-eval page in 3 (330) and one
 * WCXB-dev page in 3 (499). A corpus that is absent is left as recorded.
 */
import { writeFileSync } from "node:fs"
import * as CorpusFigures from "../test-support/corpusFigures.js"
import * as Wcxb from "../test-support/wcxb.js"

const round = (n: number) => Math.round(n * 10_000) / 10_000

// A file from before WCXB-dev was recorded has no `wcxbDev`: it is measured one page in 3, and recorded with --record.
const recorded = CorpusFigures.read() as Omit<CorpusFigures.Recorded, "wcxbDev"> & Partial<CorpusFigures.Recorded>
const wcxbEvery = recorded.wcxbDev?.every ?? 3
const readability = await CorpusFigures.readabilityPages()
const trafilatura = await CorpusFigures.trafilaturaEval(recorded.trafilaturaEval.every)
const wcxb = await CorpusFigures.wcxbDev(wcxbEvery)

const line = (name: string, was: number | undefined, now: number | undefined) => {
  const delta = was === undefined || now === undefined ? "" : ` (${now - was >= 0 ? "+" : ""}${(now - was).toFixed(4)})`
  const flag = was !== undefined && now !== undefined && now < was - recorded.tolerance ? "  BELOW THE TOLERANCE" : ""
  console.log(
    `${name.padEnd(28)} recorded ${was?.toFixed(4) ?? "-"}  measured ${now?.toFixed(4) ?? "absent"}${delta}${flag}`
  )
}
line("readability-pages", recorded.readabilityPages.f1, readability?.f1)
line(`trafilatura-eval (1 in ${recorded.trafilaturaEval.every})`, recorded.trafilaturaEval.f1, trafilatura?.f1)
line(`wcxb-dev (1 in ${wcxbEvery})`, recorded.wcxbDev?.f1, wcxb?.f1)
for (const type of Wcxb.pageTypes) line(`  ${type}`, recorded.wcxbDev?.types[type].f1, wcxb?.types[type].f1)

const recordedWcxb = (): CorpusFigures.Recorded["wcxbDev"] | undefined =>
  wcxb === undefined
    ? recorded.wcxbDev
    : {
        ...wcxb,
        f1: round(wcxb.f1),
        types: Object.fromEntries(
          Wcxb.pageTypes.map((type) => [type, { pages: wcxb.types[type].pages, f1: round(wcxb.types[type].f1) }])
        ) as CorpusFigures.Recorded["wcxbDev"]["types"]
      }

if (process.argv.includes("--record")) {
  const wcxbDev = recordedWcxb()
  writeFileSync(
    CorpusFigures.file,
    `${JSON.stringify(
      {
        tolerance: recorded.tolerance,
        readabilityPages:
          readability === undefined ? recorded.readabilityPages : { ...readability, f1: round(readability.f1) },
        trafilaturaEval:
          trafilatura === undefined ? recorded.trafilaturaEval : { ...trafilatura, f1: round(trafilatura.f1) },
        ...(wcxbDev === undefined ? {} : { wcxbDev })
      },
      null,
      2
    )}\n`
  )
  console.log(`recorded in ${CorpusFigures.file}`)
}
