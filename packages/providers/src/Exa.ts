/**
 * The `exa` provider: `searchKeywords` on `POST {apiHost}/search` and `fetchUrls` on `POST {apiHost}/contents`
 * (apiHost `https://api.exa.ai`), with the key in the `x-api-key` header.
 *
 * Search asks for `numResults` clamped to Exa's 1–100 with `type: "auto"` and each result's text (at most
 * `searchTextChars` characters), so a result carries content and not only a link; the content is the text, else
 * the highlights, else the summary. Contents asks for one URL's full text; since May 2025 Exa reports a URL it
 * could not read in `statuses` with HTTP 200 (`CRAWL_NOT_FOUND`, `CRAWL_TIMEOUT`, … in the docs, `not_found` in
 * Exa's own MCP fixtures), which becomes `RequestFailed`: `http_404` for a not-found tag, `timeout` for a timeout
 * tag, `http_status` otherwise, with the tag in the message. Errors: 401/403 → `Unavailable/credentials_rejected`;
 * 402 and the tags `NO_MORE_CREDITS` / `API_KEY_BUDGET_EXCEEDED` → `RequestFailed/rate_limited` (plan limit, not
 * retryable); 429 → `RequestFailed/http_429` (Retry-After honoured); 5xx → `http_5xx`. Exa's message is its
 * `error` and `message` fields together, as Exa's own client shows them.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
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
export const providerId = "exa"

/**
 * The `exa` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "exa",
  name: "Exa",
  type: "api",
  credentials: "required",
  capabilities: [
    { feature: "searchKeywords", apiHost: "https://api.exa.ai" },
    { feature: "fetchUrls", apiHost: "https://api.exa.ai" }
  ]
})

/**
 * Exa's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 100

/**
 * The most characters of page text asked for per search result: enough for a useful snippet without paying for
 * (and reading) whole pages the caller may never look at.
 *
 * @since 0.1.0
 * @category constants
 */
export const searchTextChars = 3000

/**
 * The search options Exa honours natively: `startPublishedDate` (the start of the time range, ISO 8601),
 * `includeDomains`, `excludeDomains`, `userLocation` (the country) and `category: "news"` (a general search is
 * Exa's default, without a category).
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = [
  "timeRange",
  "includeDomains",
  "excludeDomains",
  "country",
  "topic"
]

/**
 * The body of `POST /search` for one keyword, with the caller's search options in Exa's parameters (`now`, in
 * milliseconds, is where a time range counts back from).
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (
  keyword: string,
  maxResults: number,
  options: SearchOptions.SearchOptions = {},
  now: number = Date.now()
) => ({
  query: keyword,
  type: "auto",
  numResults: Http.clamp(maxResults, 1, maxResultsLimit),
  contents: { text: { maxCharacters: searchTextChars } },
  ...Options.defined({
    startPublishedDate:
      options.timeRange === undefined ? undefined : Options.since(options.timeRange, now).toISOString(),
    includeDomains: Options.nonEmpty(options.includeDomains),
    excludeDomains: Options.nonEmpty(options.excludeDomains),
    userLocation: options.country,
    category: options.topic === "news" ? "news" : undefined
  })
})

/**
 * The body of `POST /contents` for one URL: its full text.
 *
 * @since 0.1.0
 * @category encoding
 */
export const contentsBody = (url: string) => ({ urls: [url], text: true })

/**
 * One result of `/search` or `/contents`, as far as websearch reads it (`title` may be null; `url` is missing in
 * some legacy answers where `id` holds the URL).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Result = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.String)),
  url: Schema.optional(Schema.NullOr(Schema.String)),
  title: Schema.optional(Schema.NullOr(Schema.String)),
  text: Schema.optional(Schema.NullOr(Schema.String)),
  highlights: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  summary: Schema.optional(Schema.NullOr(Schema.String)),
  publishedDate: Schema.optional(Schema.NullOr(Schema.String)),
  author: Schema.optional(Schema.NullOr(Schema.String))
})

/**
 * The answer of `POST /search`. An `error` next to no results is read as a refusal in a 200 body.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  requestId: Schema.optional(Schema.NullOr(Schema.String)),
  results: Schema.optionalWith(Schema.NullOr(Schema.Array(Result)), { default: () => [] }),
  error: Schema.optional(Schema.NullOr(Schema.Unknown)),
  message: Schema.optional(Schema.NullOr(Schema.Unknown)),
  tag: Schema.optional(Schema.NullOr(Schema.Unknown))
})

/**
 * One entry of `/contents`' `statuses`: parsed loosely, since the documented shape (`error.tag`,
 * `error.httpStatusCode`) and Exa's own fixtures (`error.tag: "not_found"`, `source`) differ.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ContentsStatus = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.String)),
  status: Schema.optional(Schema.NullOr(Schema.String)),
  error: Schema.optional(
    Schema.NullOr(
      Schema.Union(
        Schema.String,
        Schema.Struct({
          tag: Schema.optional(Schema.NullOr(Schema.String)),
          httpStatusCode: Schema.optional(Schema.NullOr(Http.NumberLike))
        })
      )
    )
  )
})

/**
 * The answer of `POST /contents`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ContentsAnswer = Schema.Struct({
  requestId: Schema.optional(Schema.NullOr(Schema.String)),
  results: Schema.optionalWith(Schema.NullOr(Schema.Array(Result)), { default: () => [] }),
  statuses: Schema.optionalWith(Schema.NullOr(Schema.Array(ContentsStatus)), { default: () => [] })
})

const quotaTags = new Set(["NO_MORE_CREDITS", "API_KEY_BUDGET_EXCEEDED", "INSUFFICIENT_CREDITS"])

// A 403 with one of these tags is about the page or the content, not the key [U: the tag list is third-party].
const contentTags = new Set(["ROBOTS_FILTER_FAILED", "PROHIBITED_CONTENT"])

const stringField = (record: Record<string, unknown>, key: string): string | undefined => {
  const value = record[key]
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined
}

/**
 * Exa's error code and message out of an error body: the code from `tag` or an upper-case `error`, the message
 * from `error` and `message` together (exa-js shows both), else the usual places.
 */
const exaError = (json: unknown): { readonly tag: string | undefined; readonly message: string | undefined } => {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { tag: undefined, message: Http.messageOf(json) }
  }
  const record = json as Record<string, unknown>
  const error = stringField(record, "error")
  const message = stringField(record, "message")
  const tag = stringField(record, "tag") ?? (error !== undefined && /^[A-Z][A-Z0-9_]+$/.test(error) ? error : undefined)
  const said =
    error !== undefined && message !== undefined && error !== message
      ? `${error}: ${message}`
      : (message ?? error ?? Http.messageOf(json))
  return { tag, message: said }
}

const refuse = (answer: Http.Answer, json: unknown): Http.Refusal => {
  const { message, tag } = exaError(json)
  const said = tag !== undefined && message !== undefined && !message.includes(tag) ? `${tag}: ${message}` : message
  if (tag !== undefined && quotaTags.has(tag)) {
    return { kind: "quota", status: answer.status, message: said, retryAfter: Http.retryAfterSeconds(answer.headers) }
  }
  if (answer.status === 403 && tag !== undefined && contentTags.has(tag)) {
    return { kind: "status", status: answer.status, message: said }
  }
  return Http.refusalOf(answer.status, answer.headers, said ?? Http.answerMessage(answer, json))
}

// What every Exa request shares.
const exa = { refuse, key: ProviderHttp.header("x-api-key") }

/**
 * The content of one result: its text, else its highlights, else its summary.
 *
 * @since 0.1.0
 * @category encoding
 */
export const contentOf = (result: typeof Result.Type): string => {
  const text = Fields.tidy(result.text ?? "")
  if (text !== "") return text
  const highlights = (result.highlights ?? []).map(Fields.tidy).filter((h) => h !== "")
  if (highlights.length > 0) return highlights.join("\n")
  return Fields.tidy(result.summary ?? "")
}

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        ...exa,
        path: "/search",
        body: searchBody(c.input, ctx.maxResults, ctx.searchOptions, now),
        schema: SearchAnswer
      })
      const results = body.results ?? []
      if (results.length === 0 && body.error !== undefined && body.error !== null) {
        return yield* Effect.fail(Http.failure(c, refuse(answer, Either.getOrUndefined(Http.parseJson(answer.text)))))
      }
      return Fields.results(results, (r) => ({
        title: r.title,
        content: contentOf(r),
        url: r.url ?? r.id,
        publishedAt: r.publishedDate,
        author: r.author
      }))
    })
  )

/**
 * The error for a URL Exa reported in `statuses`: not-found tags (or `httpStatusCode` 404) → `http_404`,
 * timeout tags → `timeout`, anything else → `http_status` (`http_403` for a 403), the tag in the message.
 *
 * @since 0.1.0
 * @category encoding
 */
export const statusFailure = (
  c: Http.Call,
  entry: typeof ContentsStatus.Type | undefined
): WebSearchError.WebSearchError => {
  const error = entry?.error
  const tag = typeof error === "string" ? error : (error?.tag ?? undefined)
  const code = typeof error === "object" && error !== null ? (error.httpStatusCode ?? undefined) : undefined
  const lower = (tag ?? "").toLowerCase()
  const what = `could not read the page${tag === undefined || tag.trim() === "" ? "" : ` (${tag})`}`
  if (lower.includes("not_found") || lower.includes("notfound") || code === 404) {
    return Http.failure(c, { kind: "status", status: 404, message: what })
  }
  if (lower.includes("timeout") || code === 408 || code === 504) {
    return Http.requestFailed(
      c,
      "timeout",
      `${c.providerName} timed out reading the page${tag === undefined ? "" : ` (${Http.providerText(c, tag)})`}`
    )
  }
  return Http.failure(c, {
    kind: "status",
    status: code ?? (tag !== undefined && tag.trim() !== "" ? tag : "error"),
    message: what
  })
}

const sameUrl = (a: string | null | undefined, b: string): boolean => {
  const left = Fields.httpUrl(a)
  return left !== undefined && left === Fields.httpUrl(b)
}

const fetchUrls = (client: HttpClient.HttpClient) =>
  ProviderHttp.fetchUrls(preset, (c) =>
    Effect.gen(function* () {
      const url = c.input
      const { body } = yield* ProviderHttp.postJson(client, c, {
        ...exa,
        path: "/contents",
        body: contentsBody(url),
        schema: ContentsAnswer
      })
      const results = body.results ?? []
      const statuses = body.statuses ?? []
      const page =
        results.find((r) => sameUrl(r.url, url) || sameUrl(r.id, url)) ??
        (results.length === 1 ? results[0] : undefined)
      const failed =
        statuses.find((s) => s.status !== "success" && sameUrl(s.id, url)) ??
        statuses.find((s) => s.status !== "success" && s.error !== undefined && s.error !== null)
      const content = page === undefined ? "" : contentOf(page)
      if (content === "") {
        if (failed !== undefined) return yield* Effect.fail(statusFailure(c, failed))
        return yield* Effect.fail(Http.empty(c))
      }
      return Fields.page(url, { title: page?.title, content, url: page?.url ?? page?.id })
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
 * Registers the `exa` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
