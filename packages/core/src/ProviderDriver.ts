/**
 * The driver contract: what a provider module implements. A driver implements only the capabilities its preset
 * declares, as methods named after them, and is registered by the provider's Layer. Drivers capture what they
 * need (an `HttpClient`, a transport) when their Layer is built, so each provider can be given its own client.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import type { Preset } from "./Preset.js"
import type { ProviderConfig } from "./Settings.js"
import type { WebSearchError } from "./WebSearchError.js"
import type { ResearchRequest } from "./WebSearchRequest.js"
import type { ResearchResponse, WebSearchResult } from "./WebSearchResponse.js"

/**
 * One result as a driver returns it; the pipeline adds `sourceInput`.
 *
 * @since 0.1.0
 * @category models
 */
export type DriverResult = Omit<WebSearchResult, "sourceInput">

/**
 * What a driver call receives besides its input: the resolved configuration of this capability (endpoint,
 * the API key chosen by rotation, engines, basic auth, maxResults, timeout).
 *
 * @since 0.1.0
 * @category models
 */
export type DriverContext = ProviderConfig

/**
 * A provider driver. Errors must be one of the four websearch errors and must never contain a secret; the
 * pipeline also scrubs the call's API key and password from any message as a second line of defence.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProviderDriver {
  readonly preset: Preset
  /** Searches one keyword query. */
  readonly searchKeywords?: (
    keyword: string,
    ctx: DriverContext
  ) => Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError>
  /** Fetches one URL; `url` on the result is the final URL after redirects. */
  readonly fetchUrls?: (url: string, ctx: DriverContext) => Effect.Effect<DriverResult, WebSearchError>
  /** Researches one brief. */
  readonly research?: (
    request: ResearchRequest,
    ctx: DriverContext
  ) => Effect.Effect<Omit<ResearchResponse, "providerId" | "query">, WebSearchError>
}
