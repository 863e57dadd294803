import { beforeAll, describe, expect, it } from "@effect/vitest"
import * as CorpusFigures from "../../../test-support/corpusFigures.js"
import * as Wcxb from "../../../test-support/wcxb.js"

// The WCXB development set (see its README), beside the checkout in `shared/`: one page in three (ids 1, 4, 7, …),
// scored with the benchmark's own bag-of-words F1, overall and per page type, against the figures recorded in
// corpus-figures.json (record them again with `npm run corpus-figures -- --record`). Without the corpus these tests
// do not run (vitest lists them as skipped).
const recorded = CorpusFigures.read()
const present = Wcxb.corpusDir !== undefined

describe.runIf(present)("Extract over the WCXB development set (one page in three)", () => {
  let measured: NonNullable<Awaited<ReturnType<typeof CorpusFigures.wcxbDev>>>
  beforeAll(async () => {
    measured = (await CorpusFigures.wcxbDev(recorded.wcxbDev.every))!
    console.log(
      `wcxb-dev subset (1 page in ${measured.every}, ${measured.pages} pages): F1 ${measured.f1.toFixed(4)} ` +
        `(recorded ${recorded.wcxbDev.f1}); ` +
        Wcxb.pageTypes.map((type) => `${type} ${measured.types[type].f1.toFixed(4)}`).join(", ")
    )
  }, 900_000)

  it("scores the recorded pages, and overall within the tolerance of the recorded figure", () => {
    expect(measured.pages).toBe(recorded.wcxbDev.pages)
    expect(measured.f1).toBeGreaterThanOrEqual(recorded.wcxbDev.f1 - recorded.tolerance)
  })

  for (const type of Wcxb.pageTypes) {
    it(`keeps ${type} pages within the tolerance of the recorded figure`, () => {
      expect(measured.types[type].pages).toBe(recorded.wcxbDev.types[type].pages)
      expect(measured.types[type].f1).toBeGreaterThanOrEqual(recorded.wcxbDev.types[type].f1 - recorded.tolerance)
    })
  }
})
