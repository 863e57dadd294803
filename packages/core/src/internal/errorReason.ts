/**
 * The reasons of the four websearch errors, one literal schema per error, and which of them are worth retrying.
 * `WebSearchError` re-exports all of it; the reasons are the stable part of the error contract (callers branch on
 * them, the HTTP API maps them to statuses).
 *
 * @internal Public through `WebSearchError`, their one home: import the reasons from there, not from this path.
 *
 * @since 0.2.0
 */
import * as Schema from "effect/Schema"

/**
 * Why a capability cannot be used as configured. Retrying does not help.
 *
 * @since 0.1.0
 * @category errors
 */
export const UnavailableReason = Schema.Literal(
  "no_default_provider",
  "unknown_provider",
  "unsupported_capability",
  "missing_credentials",
  "credentials_rejected",
  "invalid_config",
  "unpriced_model",
  // A store the application depends on (the provider store's database) did not answer.
  "store_unavailable"
)

/**
 * @since 0.1.0
 * @category errors
 */
export type UnavailableReason = typeof UnavailableReason.Type

/**
 * Why a request did not complete.
 *
 * @since 0.1.0
 * @category errors
 */
export const RequestFailedReason = Schema.Literal(
  "invalid_input",
  "timeout",
  "network",
  "dns_failed",
  "tls_failed",
  "http_403",
  "http_404",
  "http_429",
  "http_5xx",
  "http_status",
  "ssrf_rejected",
  "redirect_rejected",
  "too_large",
  "stream_incomplete",
  "rate_limited",
  "blacklisted",
  // The site's robots.txt disallows the URL for our user agent (only when robots.txt respect is enabled).
  "robots_disallowed",
  // The page answered with a wall instead of its content: a bot check (browser challenge, CAPTCHA), a login or
  // paywall, a full-page consent wall, or an "enable JavaScript" interstitial. Not retryable: the same request gets
  // the same wall (rendering may pass a browser check or a JavaScript interstitial; the message says when).
  "blocked",
  // A managed entity (a provider instance of a workspace) that does not exist, or is not the caller's to see; or
  // a route the HTTP API does not have.
  "not_found",
  // A managed entity that already exists, or changed since the revision the caller named.
  "conflict",
  // A route of the HTTP API asked with a method it does not answer (405, with Allow).
  "method_not_allowed"
)

/**
 * @since 0.1.0
 * @category errors
 */
export type RequestFailedReason = typeof RequestFailedReason.Type

/**
 * Why a provider's answer was not usable.
 *
 * @since 0.1.0
 * @category errors
 */
export const ResponseInvalidReason = Schema.Literal(
  "decode_failed",
  "empty_content",
  "no_evidence",
  "unsupported_content_type",
  "parse_failed"
)

/**
 * @since 0.1.0
 * @category errors
 */
export type ResponseInvalidReason = typeof ResponseInvalidReason.Type

/**
 * Why a request was aborted: the caller cancelled it.
 *
 * @since 0.1.0
 * @category errors
 */
export const AbortedReason = Schema.Literal("interrupted")

/**
 * @since 0.1.0
 * @category errors
 */
export type AbortedReason = typeof AbortedReason.Type

/**
 * The request-failure reasons where trying again later is likely to help.
 *
 * @since 0.1.0
 * @category errors
 */
export const retryableReasons: ReadonlySet<RequestFailedReason> = new Set<RequestFailedReason>([
  "timeout",
  "network",
  "dns_failed",
  "tls_failed",
  "http_429",
  "http_5xx",
  "stream_incomplete",
  "rate_limited"
])

/**
 * The tags of the four errors.
 *
 * @since 0.2.0
 * @category errors
 */
export const ErrorTag = Schema.Literal("Unavailable", "RequestFailed", "ResponseInvalid", "Aborted")

/**
 * @since 0.2.0
 * @category errors
 */
export type ErrorTag = typeof ErrorTag.Type

/**
 * Any of the four errors' reasons.
 *
 * @since 0.2.0
 * @category errors
 */
export const InputFailureReason = Schema.Literal(
  ...UnavailableReason.literals,
  ...RequestFailedReason.literals,
  ...ResponseInvalidReason.literals,
  ...AbortedReason.literals
)

/**
 * @since 0.2.0
 * @category errors
 */
export type InputFailureReason = typeof InputFailureReason.Type
