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
import * as ProviderHttp from "./ProviderHttp.js"
import {
  ErrorAnswer,
  SearchAnswer,
  engineOf,
  maxQueryLength,
  queryLength,
  refusalOf,
  searchBody
} from "./internal/zhipuWire.js"

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
 * The search options Zhipu honours natively: `search_recency_filter` (`oneDay`, `oneWeek`, `oneMonth`,
 * `oneYear`). Its `search_domain_filter` takes one domain only, so the domain options are applied on the results.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange"]

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
