/**
 * The request contracts of the three capabilities, and the normalisation every input goes through before a
 * provider sees it: trimmed, empty entries dropped, duplicates removed (first wins); URLs parsed, http(s) only.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Capability } from "./Capability.js"
import { decodeWith, invalid } from "./internal/requestDecoding.js"
import * as Paging from "./internal/paging.js"
import { ProviderId } from "./ProviderId.js"
import * as SearchOptions from "./SearchOptions.js"
import * as UrlPolicy from "./UrlPolicy.js"
import type * as WebSearchError from "./WebSearchError.js"

/**
 * Most inputs one request may carry.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxInputs = 20

/**
 * Longest keyword query accepted, in characters.
 */
const maxKeywordLength = 1000

/**
 * Longest URL accepted, in characters.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxUrlLength = 8192

const inputs = (item: Schema.Schema<string>, what: string) =>
  Schema.Array(item).pipe(
    Schema.minItems(1, { message: () => `at least one ${what} is required` }),
    Schema.maxItems(maxInputs, { message: () => `at most ${maxInputs} ${what}s per request` })
  )

/**
 * Results per input: 1–50.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MaxResults = Schema.Int.pipe(
  Schema.between(1, 50, { message: () => "maxResults must be an integer from 1 to 50" })
)

const hostname = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/

/**
 * A domain for the research allowlist: a bare, lower-case host name (no scheme, path or port).
 */
const Domain = Schema.transform(Schema.String, Schema.String, {
  strict: true,
  decode: (s) => s.trim().toLowerCase().replace(/\.$/, ""),
  encode: (s) => s
}).pipe(Schema.filter((s) => hostname.test(s) || `"${s}" is not a domain name (example.com)`))

/**
 * Most providers one fused search runs on, and fewest.
 */
const fusionProviders = { min: 2, max: 5 } as const

/**
 * The providers of a fused search: 2–5 distinct ids.
 *
 * @since 0.2.0
 * @category schemas
 */
export const FusionProviderIds = Schema.Array(ProviderId)
  .pipe(
    Schema.minItems(fusionProviders.min, {
      message: () => `give ${fusionProviders.min} to ${fusionProviders.max} providers to fuse`
    }),
    Schema.maxItems(fusionProviders.max, {
      message: () => `give ${fusionProviders.min} to ${fusionProviders.max} providers to fuse`
    }),
    Schema.filter(
      (ids) => {
        const repeated = ids.find((id, index) => ids.indexOf(id) !== index)
        return repeated === undefined ? undefined : `${repeated} is named twice`
      },
      { jsonSchema: { uniqueItems: true } }
    )
  )
  .annotations({ description: "2 to 5 distinct provider ids whose results are fused" })

/**
 * Search the web for 1–20 keyword queries, on one provider (`providerId`, or the default) or fused over 2–5
 * (`providerIds`), optionally steered by the search options (see `SearchOptions`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SearchKeywordsRequest = Schema.Struct({
  providerId: Schema.optional(ProviderId),
  providerIds: Schema.optional(FusionProviderIds),
  keywords: inputs(Schema.String.pipe(Schema.maxLength(maxKeywordLength)), "keyword"),
  maxResults: Schema.optional(MaxResults),
  timeRange: Schema.optional(SearchOptions.TimeRange),
  includeDomains: Schema.optional(SearchOptions.DomainList("includeDomains")),
  excludeDomains: Schema.optional(SearchOptions.DomainList("excludeDomains")),
  language: Schema.optional(SearchOptions.Language),
  country: Schema.optional(SearchOptions.Country),
  safeSearch: Schema.optional(SearchOptions.SafeSearch),
  topic: Schema.optional(SearchOptions.Topic)
}).annotations({ identifier: "SearchKeywordsRequest" })

/**
 * @since 0.1.0
 * @category models
 */
export type SearchKeywordsRequest = typeof SearchKeywordsRequest.Type

/**
 * Fetch the content of 1–20 http(s) URLs; optionally `maxLength` characters of each page from `startIndex` on
 * (see `Paging`: a result that continues carries `totalLength` and `nextStartIndex`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const FetchUrlsRequest = Schema.Struct({
  providerId: Schema.optional(ProviderId),
  urls: inputs(Schema.String.pipe(Schema.maxLength(maxUrlLength)), "URL"),
  maxLength: Schema.optional(Paging.MaxLength),
  startIndex: Schema.optional(Paging.StartIndex)
}).annotations({ identifier: "FetchUrlsRequest" })

/**
 * @since 0.1.0
 * @category models
 */
export type FetchUrlsRequest = typeof FetchUrlsRequest.Type

/**
 * Longest research brief accepted, in characters after trimming.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxResearchQueryLength = 1000

/**
 * Most domains a research allowlist may name.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxAllowedDomains = 20

/**
 * Research one brief (1–1000 characters after trimming) on the open web or within up to 20 domains
 * (`allowedDomains`, optional: none means the open web).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ResearchRequest = Schema.Struct({
  providerId: Schema.optional(ProviderId),
  query: Schema.Trim.pipe(
    Schema.minLength(1, { message: () => "query must not be empty" }),
    Schema.maxLength(maxResearchQueryLength, {
      message: () => `query must be at most ${maxResearchQueryLength} characters`
    })
  ),
  // Optional everywhere with one default, the open web: the CLI's --allow-domain and MCP's argument are too.
  allowedDomains: Schema.optionalWith(
    Schema.Array(Domain).pipe(
      Schema.maxItems(maxAllowedDomains, { message: () => `at most ${maxAllowedDomains} allowedDomains` })
    ),
    { default: () => [] }
  )
}).annotations({ identifier: "ResearchRequest" })

/**
 * @since 0.1.0
 * @category models
 */
export type ResearchRequest = typeof ResearchRequest.Type

/**
 * Normalises one keyword: trimmed, inner runs of white space folded to one space.
 *
 * @since 0.1.0
 * @category utils
 */
export const normalizeKeyword = (keyword: string): string => keyword.replace(/\s+/gu, " ").trim()

/**
 * Normalises keywords: each normalised, empty ones dropped, duplicates removed with the first kept.
 * Idempotent: normalising twice gives the same list.
 *
 * @since 0.1.0
 * @category utils
 */
export const normalizeKeywords = (keywords: ReadonlyArray<string>): ReadonlyArray<string> =>
  dedupe(keywords.map(normalizeKeyword).filter((k) => k.length > 0))

/**
 * Removes duplicates, keeping each value's first occurrence and the original order.
 *
 * @since 0.1.0
 * @category utils
 */
export const dedupe = <A>(items: Iterable<A>, key: (a: A) => unknown = (a) => a): Array<A> => {
  const seen = new Set<unknown>()
  const out: Array<A> = []
  for (const item of items) {
    const k = key(item)
    if (seen.has(k)) continue
    seen.add(k)
    out.push(item)
  }
  return out
}

/**
 * Parses and normalises one URL: trimmed, WHATWG-parsed, http or https only, no user name or password.
 * Returns the serialised URL or a sentence saying what is wrong with it. Idempotent.
 *
 * @since 0.1.0
 * @category utils
 */
export const normalizeUrl = (raw: string): Either.Either<string, string> =>
  // The scheme and credential rules live in UrlPolicy; the host, port and address rules are applied per URL
  // by the pipeline, so one refused URL does not fail the others.
  Either.mapBoth(UrlPolicy.parseHttpUrl(raw), { onLeft: (error) => error.message, onRight: (url) => url.href })

/**
 * A request after validation and normalisation: what the pipeline fans out.
 *
 * @since 0.1.0
 * @category models
 */
export interface NormalizedRequest {
  readonly capability: Capability
  readonly providerId: ProviderId | undefined
  /** The providers of a fused search (`searchKeywords` only); absent when the request names none. */
  readonly providerIds?: ReadonlyArray<ProviderId> | undefined
  readonly inputs: ReadonlyArray<string>
  readonly maxResults: number | undefined
  /** The search options (`searchKeywords`; empty for other capabilities). */
  readonly searchOptions: SearchOptions.SearchOptions
  /** The part of each page a `fetchUrls` request asks for, when it names `maxLength` or `startIndex`. */
  readonly paging?: Paging.Window | undefined
}

// Only the options the caller set, so a request without any shares cache entries with one from before options.
const searchOptionsOf = (decoded: SearchKeywordsRequest): SearchOptions.SearchOptions => {
  const options: { -readonly [K in keyof SearchOptions.SearchOptions]: SearchOptions.SearchOptions[K] } = {}
  for (const name of SearchOptions.SearchOption.literals) {
    const value = decoded[name]
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) {
      ;(options as Record<string, unknown>)[name] = value
    }
  }
  return options
}

/**
 * Decodes a `searchKeywords` request with `SearchKeywordsRequest`; fails with `RequestFailed/invalid_input` naming
 * the field at fault, in the words `normalizeSearchKeywords` uses (a surface that declares the schema, such as the
 * HTTP API, decodes its input with this before the capability normalises it).
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeSearchKeywords: (
  request: unknown
) => Effect.Effect<SearchKeywordsRequest, WebSearchError.RequestFailed> = decodeWith(
  SearchKeywordsRequest,
  "searchKeywords",
  [
    ["keywords", "keywords"],
    ["includeDomains", "domains", SearchOptions.maxDomains],
    ["excludeDomains", "domains", SearchOptions.maxDomains],
    ["providerIds", "providers", fusionProviders.max]
  ]
)

/**
 * Decodes a `fetchUrls` request with `FetchUrlsRequest`, like `decodeSearchKeywords`.
 *
 * @since 0.2.0
 * @category encoding
 */
export const decodeFetchUrls: (request: unknown) => Effect.Effect<FetchUrlsRequest, WebSearchError.RequestFailed> =
  decodeWith(FetchUrlsRequest, "fetchUrls", [["urls", "URLs"]])

/**
 * Validates and normalises a `searchKeywords` request; fails with `RequestFailed/invalid_input` naming the
 * field at fault.
 *
 * @since 0.1.0
 * @category encoding
 */
export const normalizeSearchKeywords = (
  request: unknown
): Effect.Effect<NormalizedRequest, WebSearchError.RequestFailed> =>
  Effect.flatMap(decodeSearchKeywords(request), (decoded) => {
    const keywords = normalizeKeywords(decoded.keywords)
    if (decoded.providerId !== undefined && decoded.providerIds !== undefined) {
      return Effect.fail(
        invalid(
          "searchKeywords",
          "invalid searchKeywords request: providerIds: give providerId (one provider) or providerIds (a fused search over several), not both"
        )
      )
    }
    return keywords.length === 0
      ? Effect.fail(invalid("searchKeywords", "invalid searchKeywords request: keywords: every keyword is empty"))
      : Effect.succeed({
          capability: "searchKeywords" as const,
          providerId: decoded.providerId,
          ...(decoded.providerIds === undefined ? {} : { providerIds: decoded.providerIds }),
          inputs: keywords,
          maxResults: decoded.maxResults,
          searchOptions: searchOptionsOf(decoded)
        })
  })

/**
 * Validates and normalises a `fetchUrls` request. Any invalid URL (unparseable, another scheme, credentials)
 * fails the whole request before a single network call, with `RequestFailed/invalid_input` naming the URL and
 * why. The host, port and address rules of `UrlPolicy` are applied per URL by the pipeline afterwards, so a
 * refused URL fails alone (`RequestFailed/ssrf_rejected`).
 *
 * @since 0.1.0
 * @category encoding
 */
export const normalizeFetchUrls = (request: unknown): Effect.Effect<NormalizedRequest, WebSearchError.RequestFailed> =>
  Effect.flatMap(decodeFetchUrls(request), (decoded) => {
    const urls: Array<string> = []
    for (const [index, raw] of decoded.urls.entries()) {
      if (raw.trim() === "") continue
      const parsed = normalizeUrl(raw)
      if (Either.isLeft(parsed)) {
        return Effect.fail(
          invalid("fetchUrls", `invalid fetchUrls request: urls[${index}]: not an http(s) URL: ${parsed.left}`, raw)
        )
      }
      urls.push(parsed.right)
    }
    return urls.length === 0
      ? Effect.fail(invalid("fetchUrls", "invalid fetchUrls request: urls: every URL is empty"))
      : Effect.succeed({
          capability: "fetchUrls" as const,
          providerId: decoded.providerId,
          inputs: dedupe(urls),
          maxResults: undefined,
          searchOptions: SearchOptions.none,
          ...(decoded.maxLength === undefined && decoded.startIndex === undefined
            ? {}
            : {
                paging: {
                  startIndex: decoded.startIndex ?? Paging.defaultWindow.startIndex,
                  maxLength: decoded.maxLength ?? Paging.defaultWindow.maxLength
                }
              })
        })
  })

/**
 * Validates a `research` request (brief trimmed, domains lower-cased); fails with `RequestFailed/invalid_input`.
 *
 * @since 0.1.0
 * @category encoding
 */
export const decodeResearch: (request: unknown) => Effect.Effect<ResearchRequest, WebSearchError.RequestFailed> =
  decodeWith(ResearchRequest, "research", [["allowedDomains", "allowedDomains"]])
