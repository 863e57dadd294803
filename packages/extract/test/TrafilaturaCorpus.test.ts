import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { readFileSync } from "node:fs"
import * as TrafilaturaEval from "../../../test-support/trafilaturaEval.js"
import * as Extract from "../src/Extract.js"

// The trafilatura evaluation corpus (see its README), beside the checkout in `shared/`. Scoring all 990 pages
// takes minutes on a loaded 2-core machine, so CI scores a fixed subset: every third page in the order of
// `evaldata.json` (index 0, 3, 6, ...), whose figure is recorded in corpus-figures.json beside this file.
const recorded = JSON.parse(readFileSync(new URL("corpus-figures.json", import.meta.url), "utf8")) as {
  readonly tolerance: number
  readonly trafilaturaEval: { readonly every: number; readonly pages: number; readonly f1: number }
}
const pages = TrafilaturaEval.load()

describe.runIf(pages !== undefined)("Extract over the trafilatura evaluation corpus", () => {
  it("keeps segment F1 on the recorded subset within the tolerance of the recorded figure", async () => {
    const { every, f1, pages: count } = recorded.trafilaturaEval
    const subset = pages!.filter((_, i) => i % every === 0)
    expect(subset.length).toBe(count)
    let counts = TrafilaturaEval.zero
    for (const [i, page] of subset.entries()) {
      // Yield now and then: a worker busy for minutes misses vitest's own messages and fails the run.
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve))
      const result = Extract.extractSync({ body: page.bytes, contentType: "text/html", url: page.url })
      const markdown = Either.isRight(result) ? result.right.markdown : ""
      counts = TrafilaturaEval.add(counts, TrafilaturaEval.countPage(page, TrafilaturaEval.plainText(markdown)))
    }
    const measured = TrafilaturaEval.figures(counts)
    console.log(
      `trafilatura-eval subset (1 page in ${every} of ${pages!.length}): F1 ${measured.f1.toFixed(4)} ` +
        `P ${measured.precision.toFixed(4)} R ${measured.recall.toFixed(4)} (recorded ${f1})`
    )
    expect(measured.f1).toBeGreaterThanOrEqual(f1 - recorded.tolerance)
  }, 300_000)
})
