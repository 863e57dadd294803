// The wire format of the `SearXng` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Schema from "effect/Schema"
import * as SearchParams from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

export const safesearch = { off: "0", moderate: "1", strict: "2" } as const

/**
 * The query parameters of `GET /search` for one keyword: the first page, as JSON, from the given engines (all
 * the instance's enabled engines when none are given), with the caller's search options in SearXNG's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchParams = (
  keyword: string,
  engines: ReadonlyArray<string>,
  options: SearchOptions.SearchOptions = {}
): Record<string, string> => ({
  q: keyword,
  format: "json",
  pageno: "1",
  ...(engines.length > 0 ? { engines: engines.join(",") } : {}),
  ...SearchParams.defined({
    time_range: options.timeRange,
    language: options.language,
    safesearch: options.safeSearch === undefined ? undefined : safesearch[options.safeSearch],
    categories: options.topic
  })
})

/**
 * The answer of `GET /search?format=json`, as far as websearch reads it. Scores may come as strings; an item
 * without a URL is dropped (and counted) rather than failing the answer; `unresponsive_engines` is a list of
 * `[engine, reason]` pairs, read leniently.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  query: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  number_of_results: AnswerFields.OptionalNumber,
  results: Schema.optionalWith(
    Schema.Array(
      Schema.Struct({
        url: AnswerFields.OptionalText,
        title: AnswerFields.OptionalText,
        content: AnswerFields.OptionalText,
        engine: AnswerFields.OptionalText,
        score: AnswerFields.OptionalNumber,
        publishedDate: AnswerFields.OptionalText
      })
    ),
    { default: () => [] }
  ),
  unresponsive_engines: Schema.optionalWith(Schema.NullOr(Schema.Array(Schema.Unknown)), { default: () => [] })
})

/**
 * @since 0.1.0
 * @category models
 */
export type SearchAnswer = typeof SearchAnswer.Type

/**
 * Results by score, highest first; results without a finite score come after, and equal scores keep SearXNG's
 * order.
 *
 * @since 0.1.0
 * @category encoding
 */
export const byScore = <A extends { readonly score?: number | null | undefined }>(
  results: ReadonlyArray<A>
): Array<A> => {
  const scoreOf = (a: A) =>
    typeof a.score === "number" && Number.isFinite(a.score) ? a.score : Number.NEGATIVE_INFINITY
  return results
    .map((result, index) => ({ result, index }))
    .sort((a, b) => scoreOf(b.result) - scoreOf(a.result) || a.index - b.index)
    .map(({ result }) => result)
}

/**
 * The engines SearXNG reports as unresponsive, each as `engine (reason)`.
 *
 * @since 0.1.0
 * @category encoding
 */
export const unresponsiveEngines = (entries: ReadonlyArray<unknown> | null): Array<string> =>
  (entries ?? []).flatMap((entry) => {
    if (typeof entry === "string") return entry.trim() === "" ? [] : [entry.trim()]
    if (Array.isArray(entry)) {
      const [engine, reason] = entry as ReadonlyArray<unknown>
      if (typeof engine !== "string" || engine.trim() === "") return []
      return [typeof reason === "string" && reason.trim() !== "" ? `${engine} (${reason.trim()})` : engine]
    }
    if (typeof entry === "object" && entry !== null) {
      const { engine, reason } = entry as { engine?: unknown; reason?: unknown }
      if (typeof engine !== "string") return []
      return [typeof reason === "string" && reason.trim() !== "" ? `${engine} (${reason.trim()})` : engine]
    }
    return []
  })
