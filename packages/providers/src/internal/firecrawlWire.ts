// The wire format of the `Firecrawl` provider: what websearch sends and how it reads the answer. Internal: it moves
// with the provider's API, not with websearch's (issue 37 took it out of the public module).
import type * as SearchOptions from "@websearch/core/SearchOptions"
import * as Schema from "effect/Schema"
import * as Http from "./providerHttp.js"
import * as Options from "./searchOptions.js"
import * as AnswerFields from "./answerFields.js"

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
 * The body of `POST /v1/scrape` for one URL.
 *
 * @since 0.1.0
 * @category encoding
 */
export const scrapeBody = (url: string) => ({ url, formats: ["markdown"], onlyMainContent: true })

// Firecrawl copies page metadata as found: a tag present twice comes back as a list of its values.
export const MetaText = Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Array(Schema.String))))

/**
 * One search result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchItem = Schema.Struct({
  title: AnswerFields.OptionalText,
  description: AnswerFields.OptionalText,
  url: Schema.String,
  markdown: AnswerFields.OptionalText
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
  error: AnswerFields.OptionalText,
  warning: AnswerFields.OptionalText,
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
  sourceURL: AnswerFields.OptionalText,
  url: AnswerFields.OptionalText,
  statusCode: AnswerFields.OptionalNumber,
  error: AnswerFields.OptionalText
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
  error: AnswerFields.OptionalText,
  data: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        markdown: AnswerFields.OptionalText,
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
