/**
 * Turn aggregation: the many `searchKeywords` / `fetchUrls` / `research` responses of one assistant turn become
 * one numbered source list for citations and a sources panel. Sources are deduped by URL (the first occurrence keeps its
 * number and content), grouped by tool call and labelled by capability.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Capability } from "../Capability.js"
import { normalizeUrlForDedupe } from "./postProcessing.js"
import { ProviderId } from "../ProviderId.js"
import type { ResearchResponse, WebSearchResponse } from "../WebSearchResponse.js"

/**
 * One numbered source of the turn.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TurnSource = Schema.Struct({
  number: Schema.Int,
  title: Schema.String,
  url: Schema.String,
  content: Schema.String,
  sourceInput: Schema.String,
  capability: Capability,
  providerId: ProviderId,
  callId: Schema.String
})

/**
 * @since 0.1.0
 * @category models
 */
export type TurnSource = typeof TurnSource.Type

/**
 * One tool call of the turn: its label (`search`, `fetch` or `research`), its query, and the numbers of its sources in the
 * order the provider returned them (a URL already seen earlier in the turn keeps its earlier number).
 *
 * @since 0.1.0
 * @category schemas
 */
export const TurnGroup = Schema.Struct({
  callId: Schema.String,
  capability: Capability,
  label: Schema.Literal("search", "fetch", "research"),
  query: Schema.String,
  providerId: ProviderId,
  sources: Schema.Array(Schema.Int),
  failedInputs: Schema.Array(Schema.String)
})

/**
 * @since 0.1.0
 * @category models
 */
export type TurnGroup = typeof TurnGroup.Type

/**
 * The aggregated sources of a turn.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TurnSources = Schema.Struct({
  sources: Schema.Array(TurnSource),
  groups: Schema.Array(TurnGroup)
})

/**
 * @since 0.1.0
 * @category models
 */
export type TurnSources = typeof TurnSources.Type

/**
 * One tool call's output: the caller's tool-call id (or any label) and the response it returned. A research
 * call's sources are its cited pages (title and URL; their content is the report, which is not repeated per source).
 *
 * @since 0.1.0
 * @category models
 */
export interface TurnCall {
  readonly callId: string
  readonly response: WebSearchResponse | ResearchResponse
}

const isResearch = (response: WebSearchResponse | ResearchResponse): response is ResearchResponse =>
  !("capability" in response)

const resultsOf = (
  response: WebSearchResponse | ResearchResponse
): ReadonlyArray<{
  readonly title: string
  readonly url: string
  readonly content: string
  readonly sourceInput: string
}> =>
  isResearch(response)
    ? response.sources.map((source) => ({ ...source, content: "", sourceInput: response.query }))
    : response.results

/**
 * Aggregates the calls of one turn, in call order. Numbers start at 1 and follow first appearance.
 *
 * @since 0.1.0
 * @category constructors
 */
export const aggregate = (calls: ReadonlyArray<TurnCall>): TurnSources => {
  const numbers = new Map<string, number>()
  const sources: Array<TurnSource> = []
  const groups = calls.map(({ callId, response }): TurnGroup => {
    const numbered: Array<number> = []
    const capability = isResearch(response) ? "research" : response.capability
    for (const result of resultsOf(response)) {
      const key = normalizeUrlForDedupe(result.url)
      let number = numbers.get(key)
      if (number === undefined) {
        number = sources.length + 1
        numbers.set(key, number)
        sources.push({
          number,
          title: result.title,
          url: result.url,
          content: result.content,
          sourceInput: result.sourceInput,
          capability,
          providerId: response.providerId,
          callId
        })
      }
      if (!numbered.includes(number)) numbered.push(number)
    }
    return {
      callId,
      capability,
      label: capability === "searchKeywords" ? "search" : capability === "fetchUrls" ? "fetch" : "research",
      query: response.query,
      providerId: response.providerId,
      sources: numbered,
      failedInputs: isResearch(response) ? [] : response.failures.map((f) => f.input)
    }
  })
  return { sources, groups }
}
