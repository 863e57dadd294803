/**
 * Turn aggregation wired to the toolkit: every `web_search`, `web_fetch` and `web_research` result of one assistant
 * turn becomes one numbered citation list (core `TurnAggregation`: deduped by URL, the first occurrence keeping its
 * number, grouped by tool call, labelled search, fetch or research), plus the map from the session ids the model cited (`w3`) to
 * those numbers.
 *
 * It reads tool-result parts wherever they come from: `GenerateTextResponse.content`, streamed parts, a
 * `Prompt`'s tool messages, or MCP structured content wrapped as `{ type: "tool-result", id, name, result }`.
 *
 * @since 0.1.0
 */
import { normalizeUrlForDedupe } from "@websearch/core/internal/postProcessing"
import * as TurnAggregation from "@websearch/core/internal/turnAggregation"
import { InputFailure } from "@websearch/core/WebSearchError"
import type { ResearchResponse, WebSearchResponse } from "@websearch/core/WebSearchResponse"
import { joinQuery } from "@websearch/core/WebSearchResponse"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as ToolOutput from "./ToolOutput.js"

/**
 * The citations of a turn: core's numbered sources and groups, and which number each session id got.
 *
 * @since 0.1.0
 * @category models
 */
export interface Citations extends TurnAggregation.TurnSources {
  readonly ids: ReadonlyArray<{ readonly id: string; readonly number: number }>
}

const decodeSearch = Schema.decodeUnknownOption(ToolOutput.SearchOutput)
const decodeFetch = Schema.decodeUnknownOption(ToolOutput.FetchOutput)
const decodeResearch = Schema.decodeUnknownOption(ToolOutput.ResearchOutput)

const decodeFailure = Schema.decodeUnknownOption(InputFailure)

// A transcript is outside data: a failure whose reason is not its tag's (or unknown to this version) is left out
// of the response rebuilt from it rather than thrown; the turn's sources still count.
const toFailure = (input: string, f: ToolOutput.Failure): Array<InputFailure> =>
  Option.toArray(
    decodeFailure({
      input,
      _tag: f._tag,
      reason: f.reason,
      retryable: f.retryable,
      message: f.message,
      ...(f.retryAfter === undefined ? {} : { retryAfter: f.retryAfter })
    })
  )

const fromSearch = (output: ToolOutput.SearchOutput): WebSearchResponse => ({
  query: joinQuery(output.queries),
  providerId: output.providerId,
  capability: "searchKeywords",
  inputs: output.queries,
  results: output.sources.map((s) => ({
    title: s.title,
    url: s.url,
    content: ToolOutput.unfenced(s.content),
    sourceInput: s.query
  })),
  failures: output.failures.flatMap((f) => toFailure(f.query, f))
})

const fromFetch = (providerId: string, output: ToolOutput.FetchOutput): WebSearchResponse => {
  const inputs = output.items.map((i) => i.url ?? i.input)
  return {
    query: joinQuery(inputs),
    providerId,
    capability: "fetchUrls",
    inputs,
    results: output.items.flatMap((i) =>
      i.status === "success" && i.url !== undefined
        ? [{ title: i.title ?? i.url, url: i.url, content: ToolOutput.unfenced(i.content ?? ""), sourceInput: i.input }]
        : []
    ),
    failures: output.items.flatMap((i) =>
      i.status === "failed" && i.failure !== undefined ? toFailure(i.url ?? i.input, i.failure) : []
    )
  }
}

const fromResearch = (output: ToolOutput.ResearchOutput): ResearchResponse => ({
  providerId: output.providerId,
  query: output.query,
  report: ToolOutput.unfenced(output.report),
  queries: output.queries,
  sources: output.sources.map((s) => ({ title: s.title, url: s.url })),
  images: []
})

interface Call {
  readonly call: TurnAggregation.TurnCall
  readonly ids: ReadonlyArray<readonly [string, string]>
}

const toCall = (part: unknown, index: number): Option.Option<Call> => {
  if (!Predicate.isRecord(part) || part.type !== "tool-result" || part.isFailure === true) return Option.none()
  const callId = typeof part.id === "string" ? part.id : `call-${index + 1}`
  if (part.name === "web_search") {
    return Option.map(decodeSearch(part.result), (output) => ({
      call: { callId, response: fromSearch(output) },
      ids: output.sources.map((s) => [s.id, s.url] as const)
    }))
  }
  if (part.name === "web_fetch") {
    return Option.flatMap(decodeFetch(part.result), (output) =>
      output.providerId === undefined
        ? Option.none()
        : Option.some({
            call: { callId, response: fromFetch(output.providerId, output) },
            ids: output.items.flatMap((i) =>
              i.id !== undefined && i.url !== undefined ? [[i.id, i.url] as const] : []
            )
          })
    )
  }
  if (part.name === "web_research") {
    return Option.map(decodeResearch(part.result), (output) => ({
      call: { callId, response: fromResearch(output) },
      ids: output.sources.map((s) => [s.id, s.url] as const)
    }))
  }
  return Option.none()
}

/**
 * Aggregates the `web_search` / `web_fetch` / `web_research` tool results among `parts`, in order. Other parts, other tools and
 * failed calls (they carry no sources) are ignored.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromParts = (parts: Iterable<unknown>): Citations => {
  const calls = Array.from(parts).flatMap((part, index) => Option.toArray(toCall(part, index)))
  const turn = TurnAggregation.aggregate(calls.map((c) => c.call))
  const numbers = new Map(turn.sources.map((s) => [normalizeUrlForDedupe(s.url), s.number]))
  const ids = new Map<string, number>()
  for (const [id, url] of calls.flatMap((c) => c.ids)) {
    const number = numbers.get(normalizeUrlForDedupe(url))
    if (number !== undefined && !ids.has(id)) ids.set(id, number)
  }
  return { ...turn, ids: Array.from(ids, ([id, number]) => ({ id, number })) }
}

/**
 * Aggregates the tool results of one model response (`GenerateTextResponse` or anything with `content` parts).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromResponse = (response: { readonly content: Iterable<unknown> }): Citations =>
  fromParts(response.content)

/**
 * Rewrites the session ids a model cited (`[w3]`) into the turn's citation numbers (`[2]`); ids the turn does
 * not know are left as they are.
 *
 * @since 0.1.0
 * @category encoding
 */
export const renumber = (text: string, citations: Citations): string => {
  const byId = new Map(citations.ids.map((e) => [e.id, e.number]))
  return text.replace(/\[(w[1-9][0-9]*)\]/g, (whole, id: string) => {
    const number = byId.get(id)
    return number === undefined ? whole : `[${number}]`
  })
}
