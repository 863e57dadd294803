import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as UsageSink from "../src/UsageSink.js"

const fact: UsageSink.UsageFact = {
  callId: "call-1",
  providerId: "openai",
  capability: "research",
  model: "gpt-5-mini",
  inputTokens: 1200,
  cachedInputTokens: 200,
  outputTokens: 300,
  toolCalls: 2,
  outcome: "succeeded",
  cost: { currency: "USD", tokens: 0.00086, toolCalls: 0.02, total: 0.02086, catalogue: "test" }
}

const capture = (lines: Array<string>) =>
  Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ logLevel, message }) => {
      lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
    })
  )

describe("UsageSink", () => {
  it.effect("the default sink logs the fact at debug level", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      yield* UsageSink.report(fact).pipe(Effect.provide(capture(lines)), Logger.withMinimumLogLevel(LogLevel.Debug))
      expect(lines).toEqual(["DEBUG websearch usage"])
    })
  )

  it.effect("a provided sink receives the fact once", () =>
    Effect.gen(function* () {
      const seen: Array<UsageSink.UsageFact> = []
      yield* UsageSink.report(fact).pipe(UsageSink.withSink({ report: (f) => Effect.sync(() => seen.push(f)) }))
      expect(seen).toEqual([fact])
    })
  )

  it.effect("a sink that fails, dies or hangs never fails the caller; the miss is logged as an error", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const sinks: ReadonlyArray<UsageSink.UsageSink.Service> = [
        { report: () => Effect.fail(new Error("billing down")) },
        { report: () => Effect.die("boom") },
        {
          report: () => {
            throw new Error("thrown synchronously")
          }
        }
      ]
      for (const sink of sinks) {
        yield* UsageSink.report(fact).pipe(UsageSink.withSink(sink), Effect.provide(capture(lines)))
      }
      const hanging = yield* UsageSink.report(fact).pipe(
        UsageSink.withSink({ report: () => Effect.never }),
        Effect.provide(capture(lines)),
        Effect.fork
      )
      yield* TestClock.adjust(UsageSink.reportTimeout)
      yield* Fiber.join(hanging)
      expect(lines).toEqual([
        "ERROR websearch usage unrecorded: billing down",
        "ERROR websearch usage unrecorded: boom",
        "ERROR websearch usage unrecorded: thrown synchronously",
        "ERROR websearch usage unrecorded: the usage sink did not answer in time"
      ])
    })
  )

  it("a fact is a schema: it round-trips through JSON and refuses negative counts", () => {
    const decode = Schema.decodeUnknownSync(UsageSink.UsageFact)
    expect(decode(JSON.parse(JSON.stringify(fact)))).toEqual(fact)
    expect(() => decode({ ...fact, inputTokens: -1 })).toThrow()
  })
})
