import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Progress from "../src/Progress.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"

describe("Progress", () => {
  it.effect("reports every input once as it finishes, with a running count and its outcome", () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: (input) =>
        input === "bad"
          ? Drivers.fail(WebSearchError.requestFailed("http_5xx", "boom"))
          : Drivers.succeed(input === "two" ? 2 : 1)
    })
    const events: Array<Progress.InputFinished> = []
    return Effect.gen(function* () {
      const response = yield* SearchKeywords.searchKeywords({ keywords: ["one", "two", "bad"] }).pipe(
        Progress.withReporter({ inputFinished: (event) => Effect.sync(() => events.push(event)) })
      )
      expect(response.failures.map((f) => f.input)).toEqual(["bad"])
      expect(events.map((e) => e.finished)).toEqual([1, 2, 3])
      expect(events.every((e) => e.total === 3 && e.providerId === "duckduckgo")).toBe(true)
      const byInput = Object.fromEntries(events.map((e) => [e.input, e.outcome]))
      expect(byInput.one).toEqual({ _tag: "Succeeded", results: 1 })
      expect(byInput.two).toEqual({ _tag: "Succeeded", results: 2 })
      expect(byInput.bad).toMatchObject({ _tag: "Failed", error: { _tag: "RequestFailed", reason: "http_5xx" } })
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })

  it.effect("without a reporter nothing is required and the request is unchanged", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(3) })
    return Effect.gen(function* () {
      const response = yield* SearchKeywords.searchKeywords({ keywords: ["a", "b"] })
      expect(response.results).toHaveLength(6)
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })
})
