/**
 * The options a `searchKeywords` request may steer a search with: freshness, domains, locale, safe search and
 * topic. A provider declares which options it honours natively (`ProviderDriver.searchOptions`) and maps them to
 * its own parameters; `includeDomains`/`excludeDomains` are also enforced on the results after every call, and
 * any other option a provider cannot honour is refused before a call.
 *
 * @since 0.2.0
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as IsoCodes from "./internal/isoCodes.js"
import * as SearchDomains from "./internal/searchDomains.js"

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
 * A language as ISO 639-1 (`de`), in any case; decodes to lower case. Two letters that are no ISO 639-1 code
 * (`xx`) are refused, not passed on to a provider that would ignore them.
 *
 * @since 0.2.0
 * @category schemas
 */
export const Language = Schema.transform(
  Schema.String.pipe(
    Schema.filter(
      (code) =>
        IsoCodes.languages.has(code.toLowerCase()) ||
        `language must be an ISO 639-1 code such as de or en, not "${code}"`,
      { jsonSchema: { minLength: 2, maxLength: 2 } }
    )
  ),
  Schema.String,
  { strict: true, decode: (code) => code.toLowerCase(), encode: (code) => code }
).annotations({ description: "ISO 639-1 language code such as de or en" })

/**
 * A country as ISO 3166-1 alpha-2 (`DE`), in any case; decodes to upper case. Two letters that are not an
 * assigned code (`XX`, `UK`) are refused.
 *
 * @since 0.2.0
 * @category schemas
 */
export const Country = Schema.transform(
  Schema.String.pipe(
    Schema.filter(
      (code) =>
        IsoCodes.countries.has(code.toUpperCase()) ||
        `country must be an ISO 3166-1 alpha-2 code such as DE or US, not "${code}"`,
      { jsonSchema: { minLength: 2, maxLength: 2 } }
    )
  ),
  Schema.String,
  { strict: true, decode: (code) => code.toUpperCase(), encode: (code) => code }
).annotations({ description: "ISO 3166-1 alpha-2 country code such as DE or US" })

/**
 * One domain of `includeDomains` / `excludeDomains`: a bare host name (no scheme, path, port or IP address),
 * decoded trimmed, IDN to punycode (`bücher.de` → `xn--bcher-kva.de`), lower case, without a trailing dot. It
 * matches itself and its subdomains.
 */
const SearchDomain = Schema.transformOrFail(
  Schema.String.pipe(Schema.maxLength(SearchDomains.maxDomainText)),
  Schema.String,
  {
    strict: true,
    decode: (text, _, ast) => {
      const domain = SearchDomains.toAsciiDomain(text)
      return domain === undefined
        ? ParseResult.fail(
            new ParseResult.Type(
              ast,
              text,
              `"${text}" is not a bare domain name: give a host such as example.com or docs.example.com, without scheme, path or port`
            )
          )
        : ParseResult.succeed(domain)
    },
    encode: ParseResult.succeed
  }
).annotations({ description: "a bare domain name such as example.com" })

/**
 * At most this many domains in `includeDomains`, and as many in `excludeDomains`.
 *
 * @since 0.2.0
 * @category constants
 */
export const maxDomains = 20

/**
 * The domains of `includeDomains` or `excludeDomains` (`field` names it in messages): at most 20.
 *
 * @since 0.2.0
 * @category schemas
 */
export const DomainList = (field: string) =>
  Schema.Array(SearchDomain).pipe(
    Schema.maxItems(maxDomains, { message: () => `${field} takes at most ${maxDomains} domains` })
  )

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
