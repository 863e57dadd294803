import { describe, expect, it } from "@effect/vitest"
import * as TurnCitations from "../src/TurnCitations.js"

// A web_search result as a transcript holds it: outside data, possibly from another version of websearch.
const searchPart = (failure: { readonly _tag: string; readonly reason: string }) => ({
  type: "tool-result",
  id: "call-1",
  name: "web_search",
  isFailure: false,
  result: {
    providerId: "duckduckgo",
    queries: ["a", "b"],
    sources: [{ id: "w1", title: "One", url: "https://one.example/", content: "text", query: "a" }],
    failures: [{ query: "b", ...failure, retryable: true, message: "failed", nextStep: "try again" }],
    nextSteps: ""
  }
})

describe("TurnCitations.fromParts over transcripts", () => {
  it("a failure whose reason is not its tag's is left out, not thrown; the turn's sources still count", () => {
    const citations = TurnCitations.fromParts([searchPart({ _tag: "Aborted", reason: "timeout" })])
    expect(citations.sources.map((s) => s.url)).toEqual(["https://one.example/"])
    expect(citations.ids).toEqual([{ id: "w1", number: 1 }])
  })

  it("a reason this version does not know keeps the sources", () => {
    const citations = TurnCitations.fromParts([searchPart({ _tag: "RequestFailed", reason: "some_future_reason" })])
    expect(citations.sources.map((s) => s.url)).toEqual(["https://one.example/"])
  })

  it("a known reason under its own tag is kept as a failure of the rebuilt response", () => {
    const citations = TurnCitations.fromParts([searchPart({ _tag: "RequestFailed", reason: "timeout" })])
    expect(citations.sources).toHaveLength(1)
  })
})
