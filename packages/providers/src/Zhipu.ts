/**
 * The `zhipu` provider (Zhipu BigModel Web Search API): `searchKeywords` on `POST {apiHost}/web_search` (apiHost
 * `https://open.bigmodel.cn/api/paas/v4`), with the key as a Bearer token.
 *
 * The request asks for `count` clamped to Zhipu's 1–50 (Sogou takes only 10, 20, …, 50, so the count is rounded up
 * to the next ten and websearch cuts the surplus), skips intent recognition (`search_intent: false`, so Zhipu always
 * searches) and uses the engine named first in `providers.zhipu.engines` (`search_std` when none is set; one of
 * `search_std`, `search_pro`, `search_pro_sogou`, `search_pro_quark`, anything else is
 * `Unavailable/invalid_config`). A result is `title`, `content` (Zhipu's summary of the page) and `link`.
 *
 * Zhipu's schema caps `search_query` at 70 characters. A longer query is refused before any request with
 * `RequestFailed/invalid_input` naming the limit, rather than cut: a cut query searches for something the caller
 * did not ask, with nothing in the response to say so, while the refusal costs no quota and tells the caller (often
 * an agent) exactly how to fix it. Characters are counted as code points, the lenient reading of an unverified
 * detail.
 *
 * Errors come as `{"error":{"code":"1302","message":"…"}}` (the code a string), with an HTTP error status or inside
 * an HTTP 200 body. The code decides: 1000–1004 (authentication), 1110–1112, 1121 (account inactive, missing or
 * locked) and 1220 (no access to the API) → `Unavailable/credentials_rejected`; 1113 (arrears), 1304 (daily limit),
 * 1308–1310 (plan limits) → `RequestFailed/rate_limited`, not retryable; 1302, 1303, 1305, 1312 (concurrency,
 * frequency, traffic) → rate limited, retryable; 500, 1120, 1230, 1234 → `http_5xx`; 1301 (unsafe content) and any
 * other code → a refusal with Zhipu's message. With no code the HTTP status decides as for every provider; a non-2xx
 * status is still the one shown (HTTP 429 stays `http_429`), with Zhipu's code appended to its message.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Code from "./internal/businessCode.js"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as Options from "./internal/searchOptions.js"
import * as ProviderHttp from "./ProviderHttp.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "zhipu"

/**
 * The `zhipu` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "zhipu",
  name: "Zhipu",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://open.bigmodel.cn/api/paas/v4" }]
})

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

const isEngine = (name: string): name is Engine => (engines as ReadonlyArray<string>).includes(name)

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

/**
 * The search options Zhipu honours natively: `search_recency_filter` (`oneDay`, `oneWeek`, `oneMonth`,
 * `oneYear`). Its `search_domain_filter` takes one domain only, so the domain options are applied on the results.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange"]

const recency = { day: "oneDay", week: "oneWeek", month: "oneMonth", year: "oneYear" } as const

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

const NullableString = Schema.optional(Schema.NullOr(Schema.String))

/**
 * The answer of `POST /web_search`, as far as websearch reads it (an absent or null `search_result` is no result).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  id: NullableString,
  request_id: NullableString,
  search_result: Schema.optionalWith(
    Schema.Array(
      Schema.Struct({
        title: NullableString,
        content: NullableString,
        link: NullableString,
        media: NullableString,
        publish_date: NullableString
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
    message: NullableString
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

const decodeError = Schema.decodeUnknownOption(ErrorAnswer)

// The envelope, also when `error` is a bare message rather than an object.
const envelopeOf = (json: unknown): Option.Option<typeof ErrorAnswer.Type> =>
  Option.orElse(decodeError(json), () =>
    Option.map(Option.fromNullable(Code.textField(json, "error")), (message) => ({ error: { message } }))
  )

// A non-2xx answer with Zhipu's envelope is read by its code; without one the default reading applies.
const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined =>
  Option.match(envelopeOf(json), {
    onNone: () => undefined,
    onSome: (envelope) => refusalOf(envelope, answer.status, answer.headers)
  })

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      yield* Http.endpoint(c)
      const engine = yield* Either.match(engineOf(ctx.provider.engines), {
        onLeft: (problem) => Effect.fail(Http.missing(c, "invalid_config", problem)),
        onRight: (engine) => Effect.succeed(engine)
      })
      yield* Http.requireKey(c)
      const length = queryLength(c.input)
      if (length > maxQueryLength) {
        return yield* Effect.fail(
          Http.requestFailed(
            c,
            "invalid_input",
            `${c.providerName} accepts search queries of at most ${maxQueryLength} characters; this one has ${length}: shorten it`
          )
        )
      }
      const { body } = yield* ProviderHttp.postJson(client, c, {
        path: "/web_search",
        body: searchBody(c.input, ctx.maxResults, engine, ctx.searchOptions),
        schema: SearchAnswer,
        refuse,
        // Zhipu also reports errors inside HTTP 200 bodies.
        inBody: (json, answer) =>
          Option.match(envelopeOf(json), {
            onNone: () => undefined,
            onSome: (envelope) => refusalOf(envelope, undefined, answer.headers)
          })
      })
      return Fields.results(body.search_result, (r) => ({
        title: r.title,
        content: r.content,
        url: r.link,
        publishedAt: r.publish_date,
        siteName: r.media
      }))
    })
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({ searchOptions, searchKeywords: searchKeywords(client) }))

/**
 * Registers the `zhipu` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
