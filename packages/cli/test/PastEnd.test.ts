/**
 * A page read from a `--start-index` at or past its end (issue 36): exactly those pages become their input's
 * failure, saying the page's length and the last start that reads any; every other result is kept as it was.
 */
import { describe, expect, it } from "@effect/vitest"
import type { WebSearchResponse } from "@websearch/core/WebSearchResponse"
import * as FastCheck from "effect/FastCheck"
import * as PastEnd from "../src/internal/pastEnd.js"

// A page of `total` characters served from `start`, as core's paging serves it (an empty part past the end).
const served = (i: number, total: number, start: number) => {
  const content = "x".repeat(Math.max(0, Math.min(total, start + 50) - start))
  return {
    title: `page ${i}`,
    url: `https://p${i}.example/`,
    sourceInput: `https://p${i}.example/`,
    content,
    ...(start === 0 && content.length === total ? {} : { totalLength: total }),
    ...(start + content.length < total ? { nextStartIndex: start + content.length } : {})
  }
}

const response = (results: ReadonlyArray<ReturnType<typeof served>>): WebSearchResponse =>
  ({
    query: "q",
    providerId: "fetch",
    capability: "fetchUrls",
    inputs: results.map((r) => r.sourceInput),
    results,
    failures: []
  }) as unknown as WebSearchResponse

describe("PastEnd.check", () => {
  it.prop(
    "a page is a failure exactly when the start is at or past its end; the others are kept in order",
    [FastCheck.array(FastCheck.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 6 }), FastCheck.nat(500)],
    ([totals, start]) => {
      const results = totals.map((total, i) => served(i, total, start))
      const checked = PastEnd.check(response(results), start)
      const past = results.filter((_, i) => start > 0 && start >= totals[i])
      expect(checked.response.results).toEqual(results.filter((r) => !past.includes(r)))
      expect(checked.response.failures.map((f) => f.input)).toEqual(past.map((r) => r.sourceInput))
      for (const failure of checked.response.failures) {
        const total = totals[results.findIndex((r) => r.sourceInput === failure.input)]
        expect(failure).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input", retryable: false })
        expect(failure.message).toBe(
          `--start-index ${start} is past the end: the page has ${total.toLocaleString("en-US")} characters ` +
            `(the last --start-index that reads any is ${total - 1})`
        )
      }
      if (checked.past.length > 0 && checked.response.results.length === 0) {
        const error = PastEnd.nothingLeft(checked)
        expect(error).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
        expect(error.failures).toEqual(checked.response.failures)
      }
    }
  )
})
