// The wire format of the `Zhipu` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Code from "./businessCode.js"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

/**
 * Zhipu's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 50

/**
 * The longest `search_query` Zhipu accepts, in characters.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxQueryLength = 70

/**
 * The search engines Zhipu's Web Search API offers: its own basic and advanced engines, Sogou and Quark.
 *
 * @since 0.1.0
 * @category constants
 */
export const engines = ["search_std", "search_pro", "search_pro_sogou", "search_pro_quark"] as const

/**
 * A Zhipu search engine.
 *
 * @since 0.1.0
 * @category models
 */
export type Engine = (typeof engines)[number]

/**
 * The engine used when `providers.zhipu.engines` is not set.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultEngine: Engine = "search_std"

export const isEngine = (name: string): name is Engine => (engines as ReadonlyArray<string>).includes(name)

/**
 * The engine of the configured `engines` (the first one), or the reason it is not one Zhipu offers.
 *
 * @since 0.1.0
 * @category utils
 */
export const engineOf = (configured: ReadonlyArray<string>): Either.Either<Engine, string> => {
  const first = configured[0]?.trim()
  if (first === undefined || first === "") return Either.right(defaultEngine)
  return isEngine(first)
    ? Either.right(first)
    : Either.left(
        `providers.zhipu.engines: "${first}" is not a Zhipu search engine (one of ${engines.join(", ")}; set it with providers.zhipu.engines or ZHIPU_ENGINES)`
      )
}

/**
 * The length of a query as Zhipu's limit counts it: code points, so an emoji or a CJK character is one.
 *
 * @since 0.1.0
 * @category encoding
 */
export const queryLength = (query: string): number => Array.from(query).length

/**
 * The `count` sent for a wanted number of results: clamped to 1–50, and for Sogou (which takes only multiples of
 * ten) rounded up to the next ten.
 *
 * @since 0.1.0
 * @category encoding
 */
export const countFor = (maxResults: number, engine: Engine): number => {
  const count = Http.clamp(Math.trunc(maxResults), 1, maxResultsLimit)
  return engine === "search_pro_sogou" ? Math.min(maxResultsLimit, Math.ceil(count / 10) * 10) : count
}

export const recency = { day: "oneDay", week: "oneWeek", month: "oneMonth", year: "oneYear" } as const

/**
 * The body of `POST /web_search` for one keyword, with the caller's search options in Zhipu's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (
  keyword: string,
  maxResults: number,
  engine: Engine = defaultEngine,
  options: SearchOptions.SearchOptions = {}
) => ({
  search_query: keyword,
  search_engine: engine,
  search_intent: false,
  count: countFor(maxResults, engine),
  ...Options.defined({
    search_recency_filter: options.timeRange === undefined ? undefined : recency[options.timeRange]
  })
})

/**
 * The answer of `POST /web_search`, as far as websearch reads it (an absent or null `search_result` is no result).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  id: AnswerFields.OptionalText,
  request_id: AnswerFields.OptionalText,
  search_result: Schema.optionalWith(
    Schema.Array(
      Schema.Struct({
        title: AnswerFields.OptionalText,
        content: AnswerFields.OptionalText,
        link: AnswerFields.OptionalText,
        media: AnswerFields.OptionalText,
        publish_date: AnswerFields.OptionalText
      }).annotations({ identifier: "ZhipuSearchResult" })
    ),
    { nullable: true, default: () => [] }
  )
}).annotations({ identifier: "ZhipuSearchAnswer" })

/**
 * Zhipu's error envelope: `{"error":{"code":"1302","message":"…"}}`, the code usually a string.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorAnswer = Schema.Struct({
  error: Schema.Struct({
    code: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
    message: AnswerFields.OptionalText
  })
}).annotations({ identifier: "ZhipuError" })

/**
 * How Zhipu's own error code reads, when websearch knows it (see the module documentation for the list).
 *
 * @since 0.1.0
 * @category errors
 */
export const kindOfCode = (code: number): Http.Refusal["kind"] | undefined => {
  if (code >= 1000 && code <= 1004) return "credentials"
  if (code === 1110 || code === 1111 || code === 1112 || code === 1121 || code === 1220) return "credentials"
  if (code === 1113 || code === 1304 || code === 1308 || code === 1309 || code === 1310) return "quota"
  if (code === 1302 || code === 1303 || code === 1305 || code === 1312) return "rate_limited"
  if (code === 500 || code === 1120 || code === 1230 || code === 1234) return "server"
  if (code === 1301) return "status"
  return undefined
}

/**
 * The refusal an error envelope describes. `status` is the HTTP status of a non-2xx answer, undefined for an error
 * inside an HTTP 200 body (then Zhipu's code is the status shown).
 *
 * @since 0.1.0
 * @category errors
 */
export const refusalOf = (
  envelope: typeof ErrorAnswer.Type,
  status: number | undefined,
  headers: Readonly<Record<string, string>>
): Http.Refusal => {
  const raw = envelope.error.code
  const code = Code.codeOf(raw)
  const said = envelope.error.message ?? undefined
  const codeText = raw === undefined || raw === null ? undefined : String(raw).trim()
  const known = code === undefined ? undefined : kindOfCode(code)
  const retryAfter = Http.retryAfterSeconds(headers)
  if (status !== undefined) {
    const message = codeText === undefined ? said : `${said ?? "error"} (Zhipu code ${codeText})`
    if (known === undefined) return Http.refusalOf(status, headers, message)
    return { kind: known, status, message, retryAfter }
  }
  return { kind: known ?? "status", status: codeText ?? "unknown", message: said, retryAfter }
}
