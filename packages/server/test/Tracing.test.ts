import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Tracer from "effect/Tracer"
import * as Support from "./support/server.js"
import { recordingTracer } from "../../../test-support/recordingTracer.js"

const live = () => {
  const { driver } = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
  return Support.live([driver], { defaults: { searchKeywords: "tavily" }, providers: { tavily: { apiKeys: ["k"] } } })
}

const parentOf = (spans: ReadonlyArray<Tracer.Span>, name: string): string | undefined => {
  const span = spans.find((s) => s.name === name)
  const parentId = Option.getOrUndefined(Option.map(span!.parent, (p) => p.spanId))
  return spans.find((s) => s.spanId === parentId)?.name
}

describe("request spans", () => {
  it.scoped("with a tracer installed, a search is an HTTP server span around authorize, handler and pipeline", () =>
    Effect.gen(function* () {
      const { spans, tracer } = yield* recordingTracer
      const base = yield* Support.start({ tokens: [Support.token] }, live()).pipe(Effect.withTracer(tracer))
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: ["traced"] }))
      expect(response.status).toBe(200)
      const http = spans.find((s) => s.kind === "server")
      expect(http?.attributes.get("http.request.method")).toBe("POST")
      expect(http?.attributes.get("http.response.status_code")).toBe(200)
      expect(parentOf(spans, "websearch.server.authorize")).toBe(http?.name)
      expect(spans.find((s) => s.name === "websearch.server.search")?.attributes.get("websearch.capability")).toBe(
        "searchKeywords"
      )
      expect(parentOf(spans, "websearch.searchKeywords")).toBe("websearch.server.search")
      expect(parentOf(spans, "websearch.provider.searchKeywords")).toBe("websearch.attempt")
    })
  )

  it.scoped("without one, the same search is answered the same way", () =>
    Effect.gen(function* () {
      const base = yield* Support.start({ tokens: [Support.token] }, live())
      const response = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: ["untraced"] }))
      expect(response.status).toBe(200)
      expect(yield* Effect.promise(() => response.json())).toMatchObject({ inputs: ["untraced"], providerId: "tavily" })
    })
  )
})
