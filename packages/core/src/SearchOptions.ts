/**
 * The options a `searchKeywords` request may steer a search with: freshness, domains, locale, safe search and
 * topic. A provider declares which options it honours natively (`ProviderDriver.searchOptions`) and maps them to
 * its own parameters; `includeDomains`/`excludeDomains` are also enforced on the results after every call, and
 * any other option a provider cannot honour is refused before a call.
 *
 * @since 0.2.0
 */
import * as Schema from "effect/Schema"

/**
 * How recent results must be.
 *
 * @since 0.2.0
 * @category schemas
 */
export const TimeRange = Schema.Literal("day", "week", "month", "year")

/**
 * @since 0.2.0
 * @category models
 */
export type TimeRange = typeof TimeRange.Type

/**
 * How strictly adult content is filtered.
 *
 * @since 0.2.0
 * @category schemas
 */
export const SafeSearch = Schema.Literal("off", "moderate", "strict")

/**
 * @since 0.2.0
 * @category models
 */
export type SafeSearch = typeof SafeSearch.Type

/**
 * What kind of results are wanted.
 *
 * @since 0.2.0
 * @category schemas
 */
export const Topic = Schema.Literal("general", "news")

/**
 * @since 0.2.0
 * @category models
 */
export type Topic = typeof Topic.Type

/**
 * The name of one search option.
 *
 * @since 0.2.0
 * @category schemas
 */
export const SearchOption = Schema.Literal(
  "timeRange",
  "includeDomains",
  "excludeDomains",
  "language",
  "country",
  "safeSearch",
  "topic"
)

/**
 * @since 0.2.0
 * @category models
 */
export type SearchOption = typeof SearchOption.Type

/**
 * The options of one search after validation: `language` is a lower-case ISO 639-1 code (`de`), `country` an
 * upper-case ISO 3166-1 alpha-2 code (`DE`), domains bare lower-case host names.
 *
 * @since 0.2.0
 * @category models
 */
export interface SearchOptions {
  readonly timeRange?: TimeRange | undefined
  readonly includeDomains?: ReadonlyArray<string> | undefined
  readonly excludeDomains?: ReadonlyArray<string> | undefined
  readonly language?: string | undefined
  readonly country?: string | undefined
  readonly safeSearch?: SafeSearch | undefined
  readonly topic?: Topic | undefined
}

/**
 * No options: what a request without any gets, and what every other capability's calls see.
 *
 * @since 0.2.0
 * @category constants
 */
export const none: SearchOptions = {}
