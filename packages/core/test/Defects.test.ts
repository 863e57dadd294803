import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import type { DriverResult } from "../src/ProviderDriver.js"
import * as ResultCache from "../src/ResultCache.js"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as Drivers from "./support/drivers.js"

const secret = "tvly-SECRET-defects-0001"
const settings = { providers: { tavily: { apiKeys: [secret] } } }
const search = (keywords: ReadonlyArray<string>) => SearchKeywords.searchKeywords({ keywords, providerId: "tavily" })

// A store that dies (a bug in the code around the driver, not in the driver), quoting the key it must never hold.
const dyingStore: ResultCache.Store = {
  get: () => Effect.die(new Error(`cache bug while holding ${secret}`)),
  set: () => Effect.void
}

describe("defects: the driver's become the input's failure, ours stay defects", () => {
  it.effect("a defect outside the driver (the cache) stays a defect: scrubbed, logged, not ResponseInvalid", () => {
    const capture = Drivers.captureLogs()
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: Drivers.succeed(1) })
    return Effect.gen(function* () {
      const exit = yield* Effect.exit(search(["q"]))
      expect(Exit.isFailure(exit) && Option.isSome(Cause.dieOption(exit.cause))).toBe(true)
      expect(Exit.isFailure(exit) && Option.isNone(Cause.failureOption(exit.cause))).toBe(true)
      const defect = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined
      expect(defect).toBeInstanceOf(Error)
      expect((defect as Error).message).toBe("cache bug while holding [redacted]")
      expect(String((defect as Error).stack)).not.toContain(secret)
      // The driver was never reached, and the defect was logged once, scrubbed.
      expect(tavily.recorder.calls).toEqual([])
      const errors = capture.entries.filter((e) => e.level === "ERROR")
      expect(errors).toHaveLength(1)
      expect(errors[0].message).toContain("cache bug while holding [redacted]")
      for (const entry of capture.entries) expect(entry.text).not.toContain(secret)
    }).pipe(
      Effect.provide(Drivers.layer([tavily], settings, undefined, [ResultCache.layer(dyingStore)])),
      Effect.provide(capture.layer)
    )
  })

  it.effect("an own defect on one input fails the whole request as a defect, interrupting its siblings", () => {
    const tavily = Drivers.makeDriver("tavily", { searchKeywords: Drivers.never })
    const store: ResultCache.Store = {
      get: (key) =>
        key.includes("boom")
          ? Effect.zipRight(Effect.sleep("10 millis"), Effect.die(new Error("cache bug")))
          : Effect.succeed(Option.none()),
      set: () => Effect.void
    }
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.exit(search(["slow", "boom"])))
      yield* Drivers.awaitStarted(tavily.recorder, 1)
      yield* TestClock.adjust("10 millis")
      const exit = yield* Drivers.joinPromptly(fiber)
      expect(Exit.isFailure(exit) && Option.isSome(Cause.dieOption(exit.cause))).toBe(true)
      expect(tavily.recorder.interrupted).toEqual(["slow"])
    }).pipe(Effect.provide(Drivers.layer([tavily], settings, undefined, [ResultCache.layer(store)])))
  })

  it.effect(
    "the driver's defects are foreign: a die, a throw, or a result that throws when read, each parse_failed",
    () => {
      const throwing = Object.defineProperty({ content: "c", url: "https://ok.example/" }, "title", {
        get: () => {
          throw new Error(`getter quoting ${secret}`)
        }
      }) as unknown as DriverResult
      const tavily = Drivers.makeDriver("tavily", {
        searchKeywords: Drivers.byInput({
          dies: Drivers.die(new TypeError(`cannot read properties of undefined (${secret})`)),
          unreadable: Drivers.results([throwing])
        })
      })
      const thrower = {
        ...tavily.driver,
        searchKeywords: (input: string, ctx: Parameters<NonNullable<typeof tavily.driver.searchKeywords>>[1]) => {
          if (input === "throws") throw new Error(`sync throw quoting ${secret}`)
          return tavily.driver.searchKeywords!(input, ctx)
        }
      }
      return Effect.gen(function* () {
        const response = yield* search(["ok", "dies", "throws", "unreadable"])
        expect(response.results.map((r) => r.sourceInput)).toEqual(["ok"])
        expect(response.failures.map((f) => [f.input, f._tag, f.reason])).toEqual([
          ["dies", "ResponseInvalid", "parse_failed"],
          ["throws", "ResponseInvalid", "parse_failed"],
          ["unreadable", "ResponseInvalid", "parse_failed"]
        ])
        for (const failure of response.failures) {
          expect(failure.message).toContain("[redacted]")
          expect(failure.message).not.toContain(secret)
        }
      }).pipe(Effect.provide(Drivers.layer([thrower], settings)))
    }
  )
})
