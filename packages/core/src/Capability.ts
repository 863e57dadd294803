/**
 * The actions a provider can perform. A capability names the caller's input, not the provider's internal
 * steps: SearXNG fetches result pages itself, but its capability is still `searchKeywords`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * The capabilities: keyword search, URL fetching, hosted research, and the two whole-site ones: mapping a site's
 * URLs (`mapSite`) and crawling its pages (`crawlSite`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Capability = Schema.Literal("searchKeywords", "fetchUrls", "research", "mapSite", "crawlSite")

/**
 * @since 0.1.0
 * @category models
 */
export type Capability = typeof Capability.Type

/**
 * The capabilities whose answer is a `WebSearchResponse` (one driver call per input).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ListCapability = Schema.Literal("searchKeywords", "fetchUrls")

/**
 * @since 0.1.0
 * @category models
 */
export type ListCapability = typeof ListCapability.Type

/**
 * Every capability, in a stable order (used by checks and listings).
 *
 * @since 0.1.0
 * @category constants
 */
export const all: ReadonlyArray<Capability> = Capability.literals

/**
 * The snake-case form used in environment variable names (`searchKeywords` -> `SEARCH_KEYWORDS`).
 *
 * @since 0.1.0
 * @category utils
 */
export const toEnvName = (capability: Capability): string => capability.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()
