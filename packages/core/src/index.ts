/**
 * @websearch/core: contracts, errors, settings, the provider registry and the capability pipeline.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Blacklist from "./Blacklist.js"
/** @since 0.1.0 */
export * as Capability from "./Capability.js"
/** @since 0.2.0 */
export * as Cidr from "./Cidr.js"
/** @since 0.1.0 */
export * as Compression from "./Compression.js"
/** @since 0.1.0 */
export * as ContentBudget from "./ContentBudget.js"
/** @since 0.1.0 */
export * as FetchUrls from "./FetchUrls.js"
/** @since 0.2.0 */
export * as NetworkFailure from "./NetworkFailure.js"
/** @since 0.1.0 */
export * as PostProcessing from "./PostProcessing.js"
/** @since 0.1.0 */
export * as Preset from "./Preset.js"
/** @since 0.1.0 */
export * as Progress from "./Progress.js"
/** @since 0.1.0 */
export * as ProviderChecks from "./ProviderChecks.js"
/** @since 0.2.0 */
export * as ProviderDescription from "./ProviderDescription.js"
/** @since 0.1.0 */
export * as ProviderDriver from "./ProviderDriver.js"
/** @since 0.1.0 */
export * as ProviderId from "./ProviderId.js"
/** @since 0.1.0 */
export * as ProviderQuota from "./ProviderQuota.js"
/** @since 0.1.0 */
export * as ProviderRegistry from "./ProviderRegistry.js"
/** @since 0.2.0 */
export * as Redaction from "./Redaction.js"
/** @since 0.1.0 */
export * as Research from "./Research.js"
/** @since 0.1.0 */
export * as ResultCache from "./ResultCache.js"
/** @since 0.2.0 */
export * as RetryAfter from "./RetryAfter.js"
/** @since 0.1.0 */
export * as SearchKeywords from "./SearchKeywords.js"
/** @since 0.1.0 */
export * as Settings from "./Settings.js"
/** @since 0.2.0 */
export * as SettingsInput from "./SettingsInput.js"
/** @since 0.1.0 */
export * as TurnAggregation from "./TurnAggregation.js"
/** @since 0.1.0 */
export * as UrlPolicy from "./UrlPolicy.js"
/** @since 0.1.0 */
export * as UsageSink from "./UsageSink.js"
/** @since 0.1.0 */
export * as WebSearch from "./WebSearch.js"
/** @since 0.1.0 */
export * as WebSearchClient from "./WebSearchClient.js"
/** @since 0.1.0 */
export * as WebSearchError from "./WebSearchError.js"
/** @since 0.1.0 */
export * as WebSearchRequest from "./WebSearchRequest.js"
/** @since 0.1.0 */
export * as WebSearchResponse from "./WebSearchResponse.js"
