/**
 * The `jina` provider: one provider, two endpoints. `searchKeywords` posts `{ q, count }` to the search endpoint
 * (apiHost `https://s.jina.ai`) and `fetchUrls` posts `{ url }` to the Reader (apiHost `https://r.jina.ai`); each
 * endpoint is configured on its own capability (`providers.jina.capabilities.<capability>.apiHost`).
 *
 * Both ask for JSON (`Accept: application/json`) without images (`X-Retain-Images: none`). Search needs the key
 * as a Bearer token and asks for `count` clamped to Jina's 1–20; it keeps Jina's page content (each result's
 * `content` is the page's markdown, the snippet when Jina had none) and tells Jina, with `X-Timeout`, to answer
 * with what it has read before websearch's own timeout. The Reader works without a key (lower limits) and asks
 * for markdown (`X-Return-Format: markdown`).
 *
 * Errors come in Jina's envelope `{ data: null, code, name, status, message, readableMessage }`, whose 5-digit
 * `status` says more than the HTTP status: 401xx or `Authentication*Error` → `Unavailable/credentials_rejected`;
 * 402xx (`InsufficientBalanceError` 40203, `InsufficientCreditsError` 40201, `TierFeatureConstraintError` 40202)
 * → `RequestFailed/rate_limited`, not retryable; `RateLimitTriggeredError` 42903 → `RequestFailed/http_429` (or
 * `rate_limited` when not sent as HTTP 429) with `retryAfter` from `Retry-After` or the body's `retryAfter`; 5xx →
 * `http_5xx`. A page the Reader could not read ("Target URL returned error 404", as a 422 or as a `warning` in a
 * 200 answer) fails as `RequestFailed` for the page's status (`http_404`, `http_403`, `http_status`). Jina's
 * `readableMessage` is kept.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as RetryAfter from "@websearch/core/RetryAfter"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
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
export const providerId = "jina"

/**
 * The `jina` preset (core's built-in one): search at `https://s.jina.ai`, the Reader at `https://r.jina.ai`.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "jina",
  name: "Jina",
  type: "api",
  // The Reader (r.jina.ai) answers keyless at a lower rate; search (s.jina.ai) needs a key, which its driver checks.
  credentials: "optional",
  capabilities: [
    { feature: "searchKeywords", apiHost: "https://s.jina.ai" },
    { feature: "fetchUrls", apiHost: "https://r.jina.ai" }
  ]
})

/**
 * Jina's most results per search (`count` is validated to 0–20 by Jina; 0 means "no page content", so websearch
 * never sends it).
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 20

/**
 * The search options Jina's search honours natively: `site` (the domains to search, each as a `site:` operator
 * joined with OR), `hl` (the language) and `gl` (the country).
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["includeDomains", "language", "country"]

/**
 * The body of a search for one keyword, with the caller's search options in Jina's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => ({
  q: keyword,
  count: Http.clamp(Math.trunc(maxResults), 1, maxResultsLimit),
  ...Options.defined({
    site: Options.nonEmpty(options.includeDomains),
    hl: options.language,
    gl: options.country?.toLowerCase()
  })
})

/**
 * The body of a Reader call for one URL.
 *
 * @since 0.1.0
 * @category encoding
 */
export const readerBody = (url: string) => ({ url })

/**
 * The seconds Jina may spend before answering (`X-Timeout`, at most 180): three quarters of websearch's timeout
 * for the call, so Jina returns the pages it has read instead of websearch timing out on it.
 *
 * @since 0.1.0
 * @category encoding
 */
export const timeoutSeconds = (timeout: Duration.Duration): number =>
  Http.clamp(Math.floor((Duration.toMillis(timeout) * 0.75) / 1000), 1, 180)

/**
 * The headers of a search (the key is added as a Bearer token).
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchHeaders = (timeout: Duration.Duration): Readonly<Record<string, string>> => ({
  "x-retain-images": "none",
  "x-timeout": String(timeoutSeconds(timeout))
})

/**
 * The headers of a Reader call (the key, when configured, is added as a Bearer token).
 *
 * @since 0.1.0
 * @category encoding
 */
export const readerHeaders: Readonly<Record<string, string>> = {
  "x-return-format": "markdown",
  "x-retain-images": "none"
}

const Text = Schema.optional(Schema.NullOr(Schema.String))

/**
 * One search result as Jina sends it (`content` is absent with `X-Respond-With: no-content`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchItem = Schema.Struct({
  title: Text,
  url: Schema.String,
  description: Text,
  content: Text,
  date: Text
})

/**
 * The answer of a search: `{ code, status, data: [...], meta }`. `data` is null in Jina's error envelope.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  code: Schema.optional(Schema.NullOr(Http.NumberLike)),
  status: Schema.optional(Schema.NullOr(Http.NumberLike)),
  data: Schema.optional(Schema.NullOr(Schema.Array(SearchItem)))
})

/**
 * The page of a Reader answer. `warning` carries the target's own failure ("Target URL returned error 404: Not
 * Found") when Jina answers 200 anyway.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReaderPage = Schema.Struct({
  title: Text,
  description: Text,
  url: Text,
  content: Text,
  publishedTime: Text,
  warning: Text
})

/**
 * The answer of a Reader call: `{ code, status, data: { title, description, url, content, ... } }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReaderAnswer = Schema.Struct({
  code: Schema.optional(Schema.NullOr(Http.NumberLike)),
  status: Schema.optional(Schema.NullOr(Http.NumberLike)),
  data: Schema.optional(Schema.NullOr(ReaderPage))
})

/**
 * Jina's error envelope, as far as websearch reads it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ErrorEnvelope = Schema.Struct({
  code: Schema.optional(Schema.NullOr(Http.NumberLike)),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  status: Schema.optional(Schema.NullOr(Http.NumberLike)),
  message: Text,
  readableMessage: Text,
  retryAfter: Schema.optional(Schema.NullOr(Http.NumberLike)),
  retryAfterDate: Text
})

const decodeEnvelope = Schema.decodeUnknownOption(ErrorEnvelope)

const targetError = /Target URL returned error (\d{3})/i

/**
 * The refusal for a page the Reader could not read ("Target URL returned error 404"), named by the page's status.
 *
 * @since 0.1.0
 * @category errors
 */
export const targetRefusal = (message: string): Http.Refusal | undefined => {
  const found = targetError.exec(message)
  return found === null ? undefined : { kind: "status", status: Number(found[1]), message }
}

const bodyRetryAfter = (envelope: typeof ErrorEnvelope.Type): number | undefined => {
  if (typeof envelope.retryAfter === "number" && Number.isFinite(envelope.retryAfter) && envelope.retryAfter >= 0) {
    return Math.min(RetryAfter.maxSeconds, Math.ceil(envelope.retryAfter))
  }
  return RetryAfter.parse(envelope.retryAfterDate ?? undefined, Date.now())
}

/**
 * Reads Jina's error envelope (from a non-2xx answer, or from a 200 answer whose `data` is null): the 5-digit
 * `status` and the error class name decide, the HTTP status is the fallback. Undefined when the body is not
 * Jina's envelope and the status says nothing more than the default reading.
 *
 * @since 0.1.0
 * @category errors
 */
export const refusal = (
  httpStatus: number,
  headers: Readonly<Record<string, string>>,
  json: unknown
): Http.Refusal | undefined => {
  const envelope = Option.getOrUndefined(decodeEnvelope(json))
  const name = envelope?.name ?? ""
  // An envelope without a message still names its error class, which says more than the raw body.
  const message = Http.messageOf(json) ?? (name === "" ? undefined : name)
  const detail = typeof envelope?.status === "number" ? envelope.status : undefined
  const code = typeof envelope?.code === "number" ? envelope.code : undefined
  // Jina's 5-digit status starts with the HTTP status it stands for (42903 → 429); it is the most precise signal.
  const family =
    detail !== undefined && detail >= 10_000 && detail < 100_000
      ? Math.floor(detail / 100)
      : httpStatus >= 400
        ? httpStatus
        : (code ?? httpStatus)
  const status = httpStatus >= 400 ? httpStatus : family
  const shown = detail === undefined ? status : `${detail}`
  if (name === "RateLimitTriggeredError" || family === 429) {
    const retryAfter =
      Http.retryAfterSeconds(headers) ?? (envelope === undefined ? undefined : bodyRetryAfter(envelope))
    return { kind: "rate_limited", status: httpStatus === 429 ? 429 : shown, message, retryAfter }
  }
  if (/^Insufficient(Balance|Credits)Error$/.test(name) || family === 402) {
    return { kind: "quota", status: shown, message, hint: "top up the Jina account or use another key" }
  }
  if (name.startsWith("Authentication") || family === 401) {
    return { kind: "credentials", status: shown, message }
  }
  const target = message === undefined ? undefined : targetRefusal(message)
  if (target !== undefined) return target
  if (httpStatus >= 400) return name === "" ? undefined : Http.refusalOf(httpStatus, headers, message)
  // A 2xx answer: only an envelope that says something is an error; the caller treats the rest as unusable.
  if (name === "" && message === undefined && family < 400) return undefined
  if (family >= 500) return { kind: "server", status: shown, message }
  return { kind: "status", status: shown, message }
}

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal | undefined =>
  refusal(answer.status, answer.headers, json)

/**
 * A 2xx answer whose `data` is null: Jina's error envelope sent with a success status, or (saying nothing) an
 * unusable answer.
 */
const bodyFailure = (c: Http.Call, answer: Http.Answer): WebSearchError.WebSearchError => {
  const json = Either.getOrUndefined(Http.parseJson(answer.text))
  const found = refusal(answer.status, answer.headers, json)
  return found === undefined ? Http.invalid(c, "answered without data") : Http.failure(c, found)
}

const post = <A, I>(
  client: HttpClient.HttpClient,
  c: Http.Call,
  key: ProviderHttp.KeyPlacement,
  headers: Readonly<Record<string, string>>,
  body: unknown,
  schema: Schema.Schema<A, I>
) => ProviderHttp.postJson(client, c, { path: "/", body, schema, key, headers, refuse })

// Jina answers a query nothing matched with an error ("No search results available for query …"); for the caller
// that is an empty result list, not a failed search.
const isNoResults = (error: WebSearchError.WebSearchError): boolean =>
  error._tag === "RequestFailed" &&
  (error.reason === "http_status" || error.reason === "http_404") &&
  /No (search results|content) available for query/i.test(error.message)

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      // s.jina.ai refuses keyless calls (AuthenticationRequiredError): the key is required, so a call without one
      // fails before sending anything.
      const decoded = yield* post(
        client,
        c,
        ProviderHttp.bearer,
        searchHeaders(ctx.timeout),
        searchBody(c.input, ctx.maxResults, ctx.searchOptions),
        SearchAnswer
      ).pipe(
        Effect.map(Option.some),
        Effect.catchIf(isNoResults, () => Effect.succeed(Option.none<ProviderHttp.Decoded<typeof SearchAnswer.Type>>()))
      )
      if (Option.isNone(decoded)) return { results: [], dropped: 0 }
      const { answer, body } = decoded.value
      if (body.data === null || body.data === undefined) return yield* Effect.fail(bodyFailure(c, answer))
      return Fields.results(body.data, (item) => {
        const content = Fields.tidy(item.content ?? "")
        return {
          title: item.title,
          content: content === "" ? Fields.plainText(item.description ?? "") : content,
          url: item.url,
          publishedAt: item.date
        }
      })
    })
  )

const fetchUrls = (client: HttpClient.HttpClient) =>
  ProviderHttp.fetchUrls(preset, (c) =>
    Effect.gen(function* () {
      // The Reader answers keyless calls too (with lower limits), so a missing key is not an error here.
      const { answer, body } = yield* post(
        client,
        c,
        ProviderHttp.optional(ProviderHttp.bearer),
        readerHeaders,
        readerBody(c.input),
        ReaderAnswer
      )
      const page = body.data
      if (page === null || page === undefined) return yield* Effect.fail(bodyFailure(c, answer))
      const target = page.warning === null || page.warning === undefined ? undefined : targetRefusal(page.warning)
      if (target !== undefined) return yield* Effect.fail(Http.failure(c, target))
      const content = Fields.tidy(page.content ?? "")
      if (content === "") return yield* Effect.fail(Http.empty(c))
      return Fields.page(c.input, {
        title: page.title,
        content,
        url: page.url ?? c.input,
        publishedAt: page.publishedTime
      })
    })
  )

/**
 * Builds the driver with the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = ProviderHttp.make(preset, (client) => ({
  searchOptions,
  searchKeywords: searchKeywords(client),
  fetchUrls: fetchUrls(client)
}))

/**
 * Registers the `jina` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
