/**
 * The `firecrawl` provider: `searchKeywords` on `POST {apiHost}/v1/search` and `fetchUrls` on
 * `POST {apiHost}/v1/scrape` (apiHost `https://api.firecrawl.dev`), with the key as a Bearer token.
 *
 * Search asks for `limit` clamped to Firecrawl's 1–100 and no scraping (the result's `content` is Firecrawl's
 * description, or the page's markdown when only that came back); the answer's `data` is a list (v1) or, from a
 * v2-compatible host, an object whose `web` holds the list. Scrape asks for the main content of one URL as
 * markdown; the result's URL is the final one Firecrawl reports (`metadata.url`, else `metadata.sourceURL`).
 *
 * Errors: 401/403 → `Unavailable/credentials_rejected`; 402 (payment required, credits exhausted) →
 * `RequestFailed/rate_limited`, not retryable; 429 → `RequestFailed/http_429` (Retry-After honoured); 5xx →
 * `http_5xx`; `success: false` in a 2xx answer → `RequestFailed` with Firecrawl's `error` (and `code`); a page
 * that answered Firecrawl with 4xx/5xx (`metadata.statusCode`) → `RequestFailed` for the page's status
 * (`http_404`, `http_403`, `http_status`) naming it. Firecrawl's `error` message is kept.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Preset from "@websearch/core/Preset"
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Effect from "effect/Effect"
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
export const providerId = "firecrawl"

/**
 * The `firecrawl` preset: its capabilities, default endpoints, credentials and published budget.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: "firecrawl",
  name: "Firecrawl",
  type: "api",
  credentials: "required",
  capabilities: [
    { feature: "searchKeywords", apiHost: "https://api.firecrawl.dev" },
    { feature: "fetchUrls", apiHost: "https://api.firecrawl.dev" }
  ]
})

/**
 * Firecrawl's most results per search.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxResultsLimit = 100

/**
 * The body of `POST /v1/search` for one keyword, with the caller's search options in Firecrawl's parameters.
 *
 * @since 0.1.0
 * @category encoding
 */
export const searchBody = (keyword: string, maxResults: number, options: SearchOptions.SearchOptions = {}) => ({
  query: keyword,
  limit: Http.clamp(Math.trunc(maxResults), 1, maxResultsLimit),
  ...Options.defined({
    tbs: Options.googleTbs(options.timeRange),
    lang: options.language,
    country: options.country?.toLowerCase()
  })
})

/**
 * The search options Firecrawl's `/v1/search` honours natively: `tbs` (`qdr:d`, `qdr:w`, `qdr:m`, `qdr:y`),
 * `lang` and `country`.
 *
 * @since 0.2.0
 * @category constants
 */
export const searchOptions: ReadonlyArray<SearchOptions.SearchOption> = ["timeRange", "language", "country"]

/**
 * The body of `POST /v1/scrape` for one URL.
 *
 * @since 0.1.0
 * @category encoding
 */
export const scrapeBody = (url: string) => ({ url, formats: ["markdown"], onlyMainContent: true })

const Text = Schema.optional(Schema.NullOr(Schema.String))

// Firecrawl copies page metadata as found: a tag present twice comes back as a list of its values.
const MetaText = Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Array(Schema.String))))

const firstText = (value: string | ReadonlyArray<string> | null | undefined): string | undefined =>
  typeof value === "string" ? value : value?.find((v) => v.trim() !== "")

/**
 * One search result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchItem = Schema.Struct({
  title: Text,
  description: Text,
  url: Schema.String,
  markdown: Text
})

/**
 * The answer of a search: `data` is the list (v1) or `{ web: [...] }` (v2); `success: false` carries `error`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchAnswer = Schema.Struct({
  success: Schema.optional(Schema.NullOr(Schema.Boolean)),
  code: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  error: Text,
  warning: Text,
  data: Schema.optional(
    Schema.NullOr(
      Schema.Union(
        Schema.Array(SearchItem),
        Schema.Struct({ web: Schema.optionalWith(Schema.NullOr(Schema.Array(SearchItem)), { default: () => [] }) })
      )
    )
  )
})

/**
 * The metadata of a scraped page, as far as websearch reads it (`statusCode` is the page's own status).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ScrapeMetadata = Schema.Struct({
  title: MetaText,
  sourceURL: Text,
  url: Text,
  statusCode: Schema.optional(Schema.NullOr(Http.NumberLike)),
  error: Text
})

/**
 * The answer of a scrape.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ScrapeAnswer = Schema.Struct({
  success: Schema.optional(Schema.NullOr(Schema.Boolean)),
  code: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  error: Text,
  data: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        markdown: Text,
        metadata: Schema.optional(Schema.NullOr(ScrapeMetadata))
      })
    )
  )
})

/**
 * The refusal of a 2xx answer with `success: false`, shown with Firecrawl's `code` when it gave one.
 *
 * @since 0.1.0
 * @category errors
 */
export const unsuccessful = (
  answer: { readonly code?: string | number | null | undefined; readonly error?: string | null | undefined },
  httpStatus: number
): Http.Refusal => ({
  kind: "status",
  status: answer.code ?? httpStatus,
  message: answer.error ?? "the answer said success: false"
})

/**
 * The refusal for a page that answered Firecrawl with an error status.
 *
 * @since 0.1.0
 * @category errors
 */
export const pageRefusal = (statusCode: number, error: string | null | undefined): Http.Refusal => ({
  kind: "status",
  status: statusCode,
  message: `the page answered HTTP ${statusCode}${error === null || error === undefined || error.trim() === "" ? "" : ` (${error})`}`
})

const searchKeywords = (client: HttpClient.HttpClient) =>
  ProviderHttp.searchKeywords(preset, (c, ctx) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/v1/search",
        body: searchBody(c.input, ctx.maxResults, ctx.searchOptions),
        schema: SearchAnswer
      })
      if (body.success === false) return yield* Effect.fail(Http.failure(c, unsuccessful(body, answer.status)))
      const items =
        body.data === null || body.data === undefined ? [] : "web" in body.data ? (body.data.web ?? []) : body.data
      return Fields.results(items, (item) => {
        const description = Fields.plainText(item.description ?? "")
        return {
          title: item.title,
          content: description === "" ? Fields.tidy(item.markdown ?? "") : description,
          url: item.url
        }
      })
    })
  )

const fetchUrls = (client: HttpClient.HttpClient) =>
  ProviderHttp.fetchUrls(preset, (c) =>
    Effect.gen(function* () {
      const { answer, body } = yield* ProviderHttp.postJson(client, c, {
        path: "/v1/scrape",
        body: scrapeBody(c.input),
        schema: ScrapeAnswer
      })
      if (body.success === false) return yield* Effect.fail(Http.failure(c, unsuccessful(body, answer.status)))
      const page = body.data
      if (page === null || page === undefined) return yield* Effect.fail(Http.invalid(c, "answered without data"))
      const metadata = page.metadata ?? undefined
      const statusCode = metadata?.statusCode
      if (typeof statusCode === "number" && statusCode >= 400) {
        return yield* Effect.fail(Http.failure(c, pageRefusal(statusCode, metadata?.error)))
      }
      const content = Fields.tidy(page.markdown ?? "")
      if (content === "") return yield* Effect.fail(Http.empty(c))
      const final = Fields.httpUrl(metadata?.url) ?? Fields.httpUrl(metadata?.sourceURL) ?? c.input
      return Fields.page(c.input, { title: firstText(metadata?.title), content, url: final })
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
 * Registers the `firecrawl` driver.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = ProviderHttp.layer(make)
