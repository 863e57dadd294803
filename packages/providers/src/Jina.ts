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
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import {
  ReaderAnswer,
  SearchAnswer,
  readerBody,
  readerHeaders,
  refusal,
  searchBody,
  searchHeaders,
  targetRefusal
} from "./internal/jinaWire.js"

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
 * The search options Jina's search honours natively: `site` (the domains to search, each as a `site:` operator
 * joined with OR), `hl` (the language) and `gl` (the country).
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["includeDomains", "language", "country"]

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
