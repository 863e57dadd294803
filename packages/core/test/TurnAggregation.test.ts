import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import type { ListCapability } from "../src/Capability.js"
import { normalizeUrlForDedupe } from "../src/internal/postProcessing.js"
import * as TurnAggregation from "../src/internal/turnAggregation.js"
import * as WebSearchError from "../src/WebSearchError.js"
import type { WebSearchResponse, WebSearchResult } from "../src/WebSearchResponse.js"

const result = (url: string, sourceInput: string, title = url): WebSearchResult => ({
  title,
  content: `content of ${title}`,
  url,
  sourceInput
})

const response = (
  capability: ListCapability,
  providerId: string,
  results: ReadonlyArray<WebSearchResult>,
  failedInputs: ReadonlyArray<string> = []
): WebSearchResponse => {
  const inputs = [...new Set([...results.map((r) => r.sourceInput), ...failedInputs])]
  return {
    query: inputs.join(" | "),
    providerId,
    capability,
    inputs,
    results,
    failures: failedInputs.map((input) =>
      WebSearchError.toInputFailure(input, WebSearchError.requestFailed("http_404", "not found"))
    )
  }
}

describe("TurnAggregation (Cherry §9.3.10)", () => {
  it("sources are numbered from 1 in order of first appearance across the turn's calls", () => {
    const turn = TurnAggregation.aggregate([
      { callId: "a", response: response("searchKeywords", "tavily", [result("https://one.example/", "q1")]) },
      {
        callId: "b",
        response: response("searchKeywords", "brave", [
          result("https://two.example/", "q2"),
          result("https://three.example/", "q2")
        ])
      }
    ])
    expect(turn.sources.map((s) => [s.number, s.url, s.callId, s.providerId])).toEqual([
      [1, "https://one.example/", "a", "tavily"],
      [2, "https://two.example/", "b", "brave"],
      [3, "https://three.example/", "b", "brave"]
    ])
  })

  it("a research call's cited pages join the list, labelled research, deduped against earlier calls", () => {
    const turn = TurnAggregation.aggregate([
      { callId: "s", response: response("searchKeywords", "tavily", [result("https://one.example/", "q")]) },
      {
        callId: "r",
        response: {
          providerId: "openai",
          query: "a brief",
          report: "The report [1].",
          queries: ["q"],
          sources: [
            { title: "One again", url: "https://one.example/#cited" },
            { title: "Two", url: "https://two.example/" }
          ],
          images: []
        }
      }
    ])
    expect(turn.sources.map((s) => [s.number, s.url, s.capability, s.sourceInput])).toEqual([
      [1, "https://one.example/", "searchKeywords", "q"],
      [2, "https://two.example/", "research", "a brief"]
    ])
    expect(turn.groups.map((g) => [g.callId, g.label, g.query, g.sources, g.failedInputs])).toEqual([
      ["s", "search", "q", [1], []],
      ["r", "research", "a brief", [1, 2], []]
    ])
  })

  it("a URL seen in an earlier call keeps its first number and content; later calls reference it", () => {
    const turn = TurnAggregation.aggregate([
      {
        callId: "search-1",
        response: response("searchKeywords", "tavily", [
          result("https://Docs.Example/guide#intro", "effect", "Guide (search snippet)"),
          result("https://docs.example/", "effect", "Home")
        ])
      },
      {
        callId: "fetch-1",
        response: response("fetchUrls", "jina", [
          result("https://docs.example/guide", "https://docs.example/guide", "Guide (full page)"),
          result("https://docs.example", "https://docs.example", "Home again"),
          result("https://new.example/", "https://new.example/", "New")
        ])
      }
    ])
    expect(turn.sources.map((s) => [s.number, s.title, s.capability, s.callId])).toEqual([
      [1, "Guide (search snippet)", "searchKeywords", "search-1"],
      [2, "Home", "searchKeywords", "search-1"],
      [3, "New", "fetchUrls", "fetch-1"]
    ])
    expect(turn.sources[0].content).toBe("content of Guide (search snippet)")
    expect(turn.groups.map((g) => [g.callId, g.sources])).toEqual([
      ["search-1", [1, 2]],
      ["fetch-1", [1, 2, 3]]
    ])
  })

  it("groups follow the calls, are labelled search or fetch, and carry the query, provider and failed inputs", () => {
    const turn = TurnAggregation.aggregate([
      {
        callId: "call-1",
        response: response("searchKeywords", "exa", [result("https://a.example/", "alpha")], ["beta"])
      },
      {
        callId: "call-2",
        response: response("fetchUrls", "fetch", [result("https://b.example/", "https://b.example/")])
      }
    ])
    expect(turn.groups).toEqual([
      {
        callId: "call-1",
        capability: "searchKeywords",
        label: "search",
        query: "alpha | beta",
        providerId: "exa",
        sources: [1],
        failedInputs: ["beta"]
      },
      {
        callId: "call-2",
        capability: "fetchUrls",
        label: "fetch",
        query: "https://b.example/",
        providerId: "fetch",
        sources: [2],
        failedInputs: []
      }
    ])
  })

  it("a URL repeated within one call is listed once in its group", () => {
    const turn = TurnAggregation.aggregate([
      {
        callId: "c",
        response: response("searchKeywords", "tavily", [
          result("https://a.example/x", "q1"),
          result("https://a.example/x#again", "q2"),
          result("https://b.example/", "q2")
        ])
      }
    ])
    expect(turn.sources.map((s) => [s.number, s.sourceInput])).toEqual([
      [1, "q1"],
      [2, "q2"]
    ])
    expect(turn.groups[0].sources).toEqual([1, 2])
  })

  it("an empty turn and calls without results aggregate to empty sources", () => {
    expect(TurnAggregation.aggregate([])).toEqual({ sources: [], groups: [] })
    const turn = TurnAggregation.aggregate([
      { callId: "x", response: response("fetchUrls", "fetch", [], ["https://down.example/"]) }
    ])
    expect(turn.sources).toEqual([])
    expect(turn.groups[0].failedInputs).toEqual(["https://down.example/"])
  })

  const urlArb = FastCheck.tuple(
    FastCheck.constantFrom("a", "b", "c", "d"),
    FastCheck.constantFrom("", "/", "/x", "/x#f", "/y?q=1")
  ).map(([host, rest]) => `https://${host}.example${rest}`)

  it.prop(
    "numbers are 1..n, URLs are distinct after normalisation, and every group points at its results' sources",
    [
      FastCheck.array(
        FastCheck.tuple(
          FastCheck.constantFrom<ListCapability>("searchKeywords", "fetchUrls"),
          FastCheck.array(urlArb, { maxLength: 6 })
        ),
        { maxLength: 5 }
      )
    ],
    ([calls]) => {
      const turnCalls = calls.map(([capability, urls], index) => ({
        callId: `call-${index}`,
        response: response(
          capability,
          "tavily",
          urls.map((url) => result(url, "q"))
        )
      }))
      const turn = TurnAggregation.aggregate(turnCalls)
      expect(Schema.is(TurnAggregation.TurnSources)(turn)).toBe(true)
      expect(turn.sources.map((s) => s.number)).toEqual(turn.sources.map((_, i) => i + 1))
      const keys = turn.sources.map((s) => normalizeUrlForDedupe(s.url))
      expect(new Set(keys).size).toBe(keys.length)
      turn.groups.forEach((group, index) => {
        const expectedKeys = [...new Set(calls[index][1].map(normalizeUrlForDedupe))]
        expect(group.sources.map((n) => keys[n - 1])).toEqual(expectedKeys)
        expect(group.label).toBe(calls[index][0] === "searchKeywords" ? "search" : "fetch")
      })
    }
  )
})
