/**
 * The `google` provider (Google Custom Search JSON API): `searchKeywords` on
 * `GET {apiHost}/customsearch/v1?key=&cx=&q=&num=` (apiHost `https://www.googleapis.com`).
 *
 * The search engine id `cx` is the provider's `engineId` setting (`providers.google.engineId`, or
 * `GOOGLE_ENGINE_ID`); without it the call fails with `Unavailable/invalid_config` naming both, before any
 * request. `num` is the caller's `maxResults` clamped to Google's 1–10. `items` is absent (not empty) when the
 * engine found nothing, which is zero results. Google's plain `title`/`snippet` are used, not the `html*` ones.
 *
 * The key travels in the query string, so the request URL is a secret: the HttpClient's own span is disabled for
 * these requests (`internal/keyInQuery`), transport errors are reported by reason and code only, and Google's
 * messages pass through the same secret scrubbing as every provider's.
 *
 * Errors carry `{"error":{"code","message","errors":[{"reason"}],"status","details"?}}`:
 * - 429 `rateLimitExceeded` → `RequestFailed/http_429` (Retry-After honoured), unless the message names the daily
 *   quota ("Queries per day", which is how the exhausted free tier answers);
 * - that daily 429, and 403 `dailyLimitExceeded`/`quotaExceeded`/`limitExceeded` → `RequestFailed/rate_limited`,
 *   not retryable;
 * - any other 401/403, and a 400 whose reason is `API_KEY_INVALID` ("API key not valid") →
 *   `Unavailable/credentials_rejected`;
 * - 5xx → `http_5xx`; any other status → `http_status`. The same envelope in a 200 body is read the same way.
 *
 * Google's `message` is kept.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { ErrorBody, SearchAnswer, refusal, searchParams } from "./internal/googleSearchWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = "google"

/**
 * The `google` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "google",
  name: "Google Custom Search",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "searchKeywords", apiHost: "https://www.googleapis.com" }]
})

/**
 * The search options Google Custom Search honours natively: `dateRestrict` (`d1`, `w1`, `m1`, `y1`), the domains
 * (`siteSearch` with `siteSearchFilter` `i` or `e` for one domain, which is all `siteSearch` takes; `site:`
 * operators in the query for several), `lr` (`lang_xx`) and `gl`. Its `safe` knows only `active` and `off`, so
 * `safeSearch` (whose `moderate` has no equal) is not declared.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = [
  "timeRange",
  "includeDomains",
  "excludeDomains",
  "language",
  "country"
]

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined =>
  refusal(answer.status, answer.headers, json)

const engineSettings = "providers.google.engineId or GOOGLE_ENGINE_ID"

/**
 * The provider's own options in the settings: `providers.google.engineId`, the Programmable Search Engine id
 * (`cx`) Google needs beside the key (environment `GOOGLE_ENGINE_ID`).
 *
 * @since 0.2.0
 * @category schemas
 */
export const Options = Schema.Struct({
  engineId: Schema.optional(Schema.Trim.pipe(Schema.minLength(1, { message: () => "must not be empty" })))
})

const optionsConfig = Config.all({
  engineId: Config.option(Config.string("GOOGLE_ENGINE_ID")).pipe(
    Config.map((value) => (Option.isSome(value) && value.value.trim() !== "" ? value.value : undefined))
  )
})

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords<typeof Options.Type | undefined>(preset, (c, ctx) =>
    Effect.gen(function* () {
      const engineId = ctx.options?.engineId
      if (engineId === undefined) {
        yield* Http.endpoint(c)
        yield* Http.requireKey(c)
        return yield* Effect.fail(
          Http.missing(c, "invalid_config", `${c.providerName} needs a search engine id (cx): set ${engineSettings}`)
        )
      }
      const { body } = yield* ProviderHttp.getJson(client, c, {
        path: "/customsearch/v1",
        urlParams: (key) =>
          searchParams(
            c.input,
            ctx.maxResults,
            engineId,
            Option.match(key, { onNone: () => "", onSome: Redacted.value }),
            ctx.searchOptions
          ),
        key: ProviderHttp.inRequest,
        schema: SearchAnswer,
        refuse,
        inBody: (json, answer) =>
          Option.isSome(Schema.decodeUnknownOption(ErrorBody)(json))
            ? (refusal(answer.status, answer.headers, json) ?? {
                kind: "status",
                status: answer.status,
                message: Http.messageOf(json)
              })
            : undefined
      })
      return Fields.results(body.items ?? [], (item) => ({
        title: item.title,
        content: (item.snippet ?? "").replace(/\s+/gu, " "),
        url: item.link
      }))
    })
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<
  ProviderDriver.ProviderDriver<typeof Options.Type, typeof Options.Encoded>,
  never,
  HttpClient.HttpClient
> = ProviderHttp.make(preset, (client) => ({
  options: Options,
  optionsConfig,
  searchOptions,
  searchKeywords: searchKeywords(client)
}))

/**
 * Registers the `google` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
