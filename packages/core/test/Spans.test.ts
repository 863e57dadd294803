import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as SearchKeywords from "../src/SearchKeywords.js"
import * as Spans from "../src/Spans.js"
import * as Drivers from "./support/drivers.js"
import { recording } from "../../../test-support/recordingTracer.js"

const currentSpanName = Effect.map(
  Effect.option(Effect.currentSpan),
  Option.map((span) => span.name)
)

describe("spans only when a tracer records them", () => {
  it.effect("under the default tracer, no span is made and the effect's value is unchanged", () =>
    Effect.gen(function* () {
      expect(yield* Effect.withFiberRuntime((fiber) => Effect.succeed(Spans.isRecording(fiber)))).toBe(false)
      expect(yield* Effect.sync(Spans.isRecordingNow)).toBe(false)
      const inner = yield* currentSpanName.pipe(Spans.withSpan("outer"))
      expect(inner).toEqual(Option.none())
      yield* Spans.annotateCurrentSpan({ ignored: true })
      expect(yield* Effect.fail("boom").pipe(Spans.withSpan("failing"), Effect.flip)).toBe("boom")
    })
  )

  it.effect("under a recording tracer, the span is made with its name, parent and attributes", () =>
    Effect.gen(function* () {
      const { spans, value } = yield* recording(
        Effect.gen(function* () {
          const recordingNow = yield* Effect.sync(Spans.isRecordingNow)
          yield* Spans.annotateCurrentSpan({ "test.later": 2 })
          const name = yield* currentSpanName.pipe(Spans.withSpan("inner"))
          return { recordingNow, name }
        }).pipe(Spans.withSpan("outer", { attributes: { "test.first": 1 } }))
      )
      expect(value).toEqual({ recordingNow: true, name: Option.some("inner") })
      const [outer, inner] = [spans.find((s) => s.name === "outer"), spans.find((s) => s.name === "inner")]
      expect(outer?.attributes.get("test.first")).toBe(1)
      expect(outer?.attributes.get("test.later")).toBe(2)
      expect(outer?.status._tag).toBe("Ended")
      expect(Option.map(inner!.parent, (p) => (p._tag === "Span" ? p.name : p.spanId))).toEqual(Option.some("outer"))
    })
  )

  it.effect("a single-keyword search still has its capability, attempt and provider-call spans", () => {
    const ddg = Drivers.makeDriver("duckduckgo", { searchKeywords: Drivers.succeed(2) })
    return Effect.gen(function* () {
      const { spans, value } = yield* recording(SearchKeywords.searchKeywords({ keywords: ["one"] }))
      expect(value.results).toHaveLength(2)
      const names = spans.map((s) => [s.name, Option.getOrUndefined(Option.map(s.parent, (p) => p.spanId))] as const)
      const idOf = (name: string) => spans.find((s) => s.name === name)?.spanId
      expect(names).toContainEqual(["websearch.attempt", idOf("websearch.searchKeywords")])
      expect(names).toContainEqual(["websearch.provider.searchKeywords", idOf("websearch.attempt")])
      const attempt = spans.find((s) => s.name === "websearch.attempt")
      expect(attempt?.attributes.get("websearch.provider")).toBe("duckduckgo")
      expect(attempt?.attributes.get("websearch.results")).toBe(2)
    }).pipe(Effect.provide(Drivers.layer([ddg])))
  })
})
