import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as WebSearchError from "../src/WebSearchError.js"
import * as Drivers from "./support/drivers.js"

const search = SearchKeywords.searchKeywords
const sorted = (items: ReadonlyArray<string>) => [...items].sort()

// The pipeline's timeouts, fan-out and interruption, end to end, under the live clock where real timers and
// fibers are involved (the TestClock cases are in Pipeline.test.ts).
describe("pipeline runtime: timeouts, fan-out, interruption", () => {
  it.live("a call past its timeout is interrupted and finalized before the response reports the timeout", () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.byInput({ slow: Drivers.never }, Drivers.succeed(1))
    })
    return Effect.gen(function* () {
      const response = yield* search({ keywords: ["fast", "slow"] })
      expect(response.results.map((r) => r.sourceInput)).toEqual(["fast"])
      expect(response.failures.map((f) => [f.input, f._tag, f.reason, f.retryable])).toEqual([
        ["slow", "RequestFailed", "timeout", true]
      ])
      expect(ddg.recorder.interrupted).toEqual(["slow"])
      expect(sorted(ddg.recorder.finalized)).toEqual(["fast", "slow"])
      expect(ddg.recorder.inFlight).toBe(0)
    }).pipe(Effect.provide(Drivers.layer([ddg], { timeouts: { searchKeywords: 20 } })))
  })

  it.live("a call that ends in time keeps its own outcome: its results, or its own error, never a timeout", () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.byInput(
        { broken: Drivers.fail(WebSearchError.requestFailed("http_5xx", "DuckDuckGo answered 503")) },
        Drivers.succeed(2, { delay: "2 millis" })
      )
    })
    return Effect.gen(function* () {
      const response = yield* search({ keywords: ["ok", "broken"] })
      expect(response.results.map((r) => r.sourceInput)).toEqual(["ok", "ok"])
      expect(response.failures.map((f) => [f.input, f.reason])).toEqual([["broken", "http_5xx"]])
    }).pipe(Effect.provide(Drivers.layer([ddg], { timeouts: { searchKeywords: 5_000 } })))
  })

  it.live(
    "a failing or dying call's raw cause is logged at no level, for one input or many (it may quote a key)",
    () => {
      const secret = "tvly-SECRET-runtime-0001"
      const capture = Drivers.captureLogs()
      const tavily = Drivers.makeDriver("tavily", {
        searchKeywords: Drivers.byInput(
          { dies: Drivers.die(new Error(`crashed holding ${secret}`)) },
          Drivers.fail(WebSearchError.requestFailed("http_403", `key ${secret} rejected`))
        )
      })
      return Effect.gen(function* () {
        yield* Effect.either(search({ keywords: ["dies"], providerId: "tavily" }))
        yield* Effect.either(search({ keywords: ["dies", "fails", "also fails"], providerId: "tavily" }))
        // Both runs logged their (scrubbed) failures, so the capture saw the defects.
        expect(capture.entries.filter((e) => e.level === "ERROR")).toHaveLength(2)
        for (const entry of capture.entries) expect(entry.text).not.toContain(secret)
      }).pipe(
        Effect.provide(Drivers.layer([tavily], { providers: { tavily: { apiKeys: [secret] } } })),
        Effect.provide(capture.layer)
      )
    }
  )

  it.effect("fail fast under bounded concurrency: an Aborted ends the request, queued inputs never start", () => {
    const ddg = Drivers.makeDriver("duckduckgo", {
      searchKeywords: Drivers.byInput(
        { stop: Drivers.fail(WebSearchError.aborted("the upstream call was cancelled"), { delay: "10 millis" }) },
        Drivers.never
      )
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.flip(search({ keywords: ["stop", "one", "two", "three"] })))
      yield* Drivers.awaitStarted(ddg.recorder, 2)
      yield* TestClock.adjust("10 millis")
      const error = yield* Drivers.joinPromptly(fiber)
      expect([error._tag, error.input]).toEqual(["Aborted", "stop"])
      expect(ddg.recorder.started).toEqual(["stop", "one"])
      expect(ddg.recorder.interrupted).toEqual(["one"])
      expect(sorted(ddg.recorder.finalized)).toEqual(["one", "stop"])
      expect(ddg.recorder.inFlight).toBe(0)
    }).pipe(Effect.provide(Drivers.layer([ddg], { concurrency: 2 })))
  })

  it.live("interrupting the caller reaches every in-flight call at once; no timeout is raised after it", () => {
    const capture = Drivers.captureLogs()
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.never })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(search({ keywords: ["a", "b", "c"] }))
      yield* Drivers.awaitStarted(ddg.recorder, 3)
      yield* Fiber.interrupt(fiber)
      // Finalizers have run by the time the interruption returns.
      expect(sorted(ddg.recorder.interrupted)).toEqual(["a", "b", "c"])
      expect(sorted(ddg.recorder.finalized)).toEqual(["a", "b", "c"])
      expect(ddg.recorder.inFlight).toBe(0)
      // Past the calls' deadline nothing of theirs is still armed: no timeout is reported.
      yield* Effect.sleep("60 millis")
      expect(capture.entries.filter((e) => e.text.includes("timeout") || e.text.includes("did not answer"))).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([ddg], { timeouts: { searchKeywords: 30 } })), Effect.provide(capture.layer))
  })

  it.live("a one-input request runs in the caller's fiber: interrupting the caller reaches its call too", () => {
    const capture = Drivers.captureLogs()
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.never })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(search({ keywords: ["a"] }))
      yield* Drivers.awaitStarted(ddg.recorder, 1)
      yield* Fiber.interrupt(fiber)
      expect(ddg.recorder.interrupted).toEqual(["a"])
      expect(ddg.recorder.finalized).toEqual(["a"])
      expect(ddg.recorder.inFlight).toBe(0)
      yield* Effect.sleep("60 millis")
      expect(capture.entries.filter((e) => e.text.includes("timeout") || e.text.includes("did not answer"))).toEqual([])
    }).pipe(Effect.provide(Drivers.layer([ddg], { timeouts: { searchKeywords: 30 } })), Effect.provide(capture.layer))
  })
})
