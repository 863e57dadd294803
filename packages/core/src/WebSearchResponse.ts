/**
 * The response contracts: what every `searchKeywords` and `fetchUrls` call returns, and what `research`
 * returns. Results are always model-readable content, never a provider's raw payload.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { ListCapability } from "./Capability.js"
import { PageType } from "./PageType.js"
import { ProviderId } from "./ProviderId.js"
import { SearchOption } from "./SearchOptions.js"
import { InputFailure } from "./WebSearchError.js"

/**
 * One result: its title, model-readable content, the final URL (after redirects) and the input it came from; a
 * fetched page adds what its own metadata says (published time as ISO 8601, author, site name, language), when it
 * says it. A result of a fused search lists the providers that found it (`providers`, best-ranked first).
 * A fetched page served in part (see `Paging`) carries `totalLength`, the whole page's length, and, unless
 * it is the last page, `nextStartIndex`, the `startIndex` that reads on. A result the content budget or the hard
 * cap cut where no continuation exists (a search snippet, a ranked page) carries `lengthBeforeCut`, the content's
 * length before the cut, so the cut is never silent. A page the local fetch provider read says what kind of page it
 * was read as (`pageType`: article, forum, product, ...; see `PageType`); remote fetch providers and search results
 * do not say.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebSearchResult = Schema.Struct({
  title: Schema.String,
  content: Schema.String,
  url: Schema.String,
  sourceInput: Schema.String,
  publishedAt: Schema.optional(Schema.String),
  author: Schema.optional(Schema.String),
  siteName: Schema.optional(Schema.String),
  language: Schema.optional(Schema.String),
  providers: Schema.optional(Schema.Array(ProviderId)),
  totalLength: Schema.optional(Schema.NonNegativeInt),
  nextStartIndex: Schema.optional(Schema.NonNegativeInt),
  lengthBeforeCut: Schema.optional(Schema.NonNegativeInt),
  pageType: Schema.optional(PageType)
}).annotations({ identifier: "WebSearchResult" })

/**
 * @since 0.1.0
 * @category models
 */
export type WebSearchResult = typeof WebSearchResult.Type

/**
 * How one provider's search applied the request's search options: `native` lists those the provider applied
 * itself (mapped to its own parameters), `local` those websearch applied to the results after the call
 * (`includeDomains` and `excludeDomains`, always, also when the provider took them natively too, since providers
 * match domains loosely). An option the provider cannot apply natively, other than the domains, is refused
 * before any call, so every option the request set is in one list or both.
 *
 * @since 0.2.0
 * @category schemas
 */
export const AppliedOptions = Schema.Struct({
  providerId: ProviderId,
  native: Schema.Array(SearchOption),
  local: Schema.Array(SearchOption)
}).annotations({ identifier: "AppliedOptions" })

/**
 * @since 0.2.0
 * @category models
 */
export type AppliedOptions = typeof AppliedOptions.Type

/**
 * The `providerId` of a fused search's response; its `providerIds` lists the providers fused.
 *
 * @since 0.2.0
 * @category constants
 */
export const fusedProviderId = "fusion"

/**
 * The answer of one `searchKeywords` or `fetchUrls` call. `query` keeps the caller's meaning (the normalised
 * inputs joined for display), `inputs` lists them, and `failures` names each input that failed when others
 * succeeded (with the provider, in a fused search).
 *
 * A fused search (`providerIds`, or the `fusion` setting) answers with `providerId` `"fusion"` and the fused
 * providers in `providerIds`, in the order requested. `appliedOptions` is there when the request set search
 * options: one entry per provider that ran, saying which it applied natively and which websearch applied.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebSearchResponse = Schema.Struct({
  query: Schema.String,
  providerId: ProviderId,
  providerIds: Schema.optional(Schema.Array(ProviderId)),
  capability: ListCapability,
  inputs: Schema.Array(Schema.String),
  results: Schema.Array(WebSearchResult),
  failures: Schema.Array(InputFailure),
  appliedOptions: Schema.optional(Schema.Array(AppliedOptions))
}).annotations({ identifier: "WebSearchResponse" })

/**
 * @since 0.1.0
 * @category models
 */
export type WebSearchResponse = typeof WebSearchResponse.Type

/**
 * How the inputs of a request are joined into `query` for display.
 *
 * @since 0.1.0
 * @category constructors
 */
export const joinQuery = (inputs: ReadonlyArray<string>): string => inputs.join(" | ")

/**
 * A source the research report cites.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ResearchSource = Schema.Struct({ title: Schema.String, url: Schema.String }).annotations({
  identifier: "ResearchSource"
})

/**
 * An image found during research.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ResearchImage = Schema.Struct({
  url: Schema.String,
  title: Schema.optional(Schema.String),
  sourceUrl: Schema.optional(Schema.String)
}).annotations({ identifier: "ResearchImage" })

/**
 * The answer of a `research` call: a report, the queries the provider actually ran, the sources it cited
 * (never empty: a report without citations is indistinguishable from an answer from memory) and images.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ResearchResponse = Schema.Struct({
  providerId: ProviderId,
  query: Schema.String,
  report: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(30_000)),
  queries: Schema.Array(Schema.String).pipe(Schema.maxItems(32)),
  sources: Schema.Array(ResearchSource).pipe(Schema.minItems(1), Schema.maxItems(32)),
  images: Schema.Array(ResearchImage).pipe(Schema.maxItems(16))
}).annotations({ identifier: "ResearchResponse" })

/**
 * @since 0.1.0
 * @category models
 */
export type ResearchResponse = typeof ResearchResponse.Type
