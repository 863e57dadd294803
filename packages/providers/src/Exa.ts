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
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Http from "./internal/providerHttp.js"
import * as Fields from "./internal/resultFields.js"
import * as ProviderHttp from "./ProviderHttp.js"
import { ContentsAnswer, SearchAnswer, contentOf, contentsBody, searchBody, statusFailure } from "./internal/exaWire.js"

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
