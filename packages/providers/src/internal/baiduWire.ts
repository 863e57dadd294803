// The wire format of the `Baidu` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Baidu's most web results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 50

/**
 * The most query units Baidu searches (a Chinese character is two units).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxQueryUnits = 72

export const unitsOf = (char: string): number => ((char.codePointAt(0) ?? 0) <= 0x7f ? 1 : 2)

/**
 * A query's length in Baidu's units: one per ASCII character, two per other character.
 *
 * @since 0.1.0
 * @category encoding
 */
export const queryUnits = (query: string): number => {
  let units = 0
  for (const char of query) units += unitsOf(char)
  return units
}

export const wordChar = /^[A-Za-z0-9]$/

/**
 * The query Baidu is sent: trimmed, and when longer than `maxQueryUnits` shortened to a prefix that fits, cut at a
 * character boundary, backing off to the last space when the cut would split an ASCII word.
 *
 * @since 0.1.0
 * @category encoding
 */
export const fitQuery = (query: string, max: number = maxQueryUnits): string => {
  const text = query.trim()
  if (queryUnits(text) <= max) return text
  const chars = Array.from(text)
  let used = 0
  let end = 0
  while (end < chars.length && used + unitsOf(chars[end]) <= max) {
    used += unitsOf(chars[end])
    end += 1
  }
  const splitsWord = end > 0 && wordChar.test(chars[end - 1]) && wordChar.test(chars[end] ?? "")
  if (splitsWord) {
    let space = end - 1
    while (space > 0 && !/\s/u.test(chars[space])) space -= 1
    if (space > 0) end = space
  }
  return chars.slice(0, end).join("").trimEnd()
}

/**
 * The body of `POST /v2/ai_search/web_search` for one keyword (the query already fitted), with the caller's
 * search options in Baidu's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (query: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => {
  const sites = Options.nonEmpty(options.includeDomains)
  return {
    messages: [{ role: "user", content: query }],
    search_source: "baidu_search_v2",
    resource_type_filter: [{ type: "web", top_k: Http.clamp(Math.trunc(maxResults), 1, maxResultsLimit) }],
    ...(sites === undefined ? {} : { search_filter: { match: { site: sites } } })
  }
}

/**
 * One reference of Baidu's answer (`date` formats vary: "2025-4-24", "2025-04-27 18:02:00").
 *
 * @since 0.1.0
 * @category schemas
 */
export const Reference = Schema.Struct({
  url: AnswerFields.OptionalText,
  title: AnswerFields.OptionalText,
  content: AnswerFields.OptionalText,
  snippet: AnswerFields.OptionalText,
  date: AnswerFields.OptionalText,
  type: AnswerFields.OptionalText,
  website: AnswerFields.OptionalText
}).annotations({ identifier: "BaiduReference" })

/**
 * The answer of `POST /v2/ai_search/web_search`: the references, or `code`/`message` when Baidu refused. The
 * references are decoded one by one with `Reference`, so a bad one is named by its position.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  request_id: AnswerFields.OptionalText,
  code: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String))),
  message: AnswerFields.OptionalText,
  references: Schema.optionalWith(Schema.Array(Schema.Unknown), { nullable: true, default: () => [] })
}).annotations({ identifier: "BaiduSearchAnswer" })

/**
 * The references of an answer.
 *
 * @since 0.1.0
 * @category schemas
 */
export const References = Schema.Array(Reference)
