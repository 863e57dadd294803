/**
 * What a failed connection's error code means: the one classification of transport failures (Node's socket and
 * DNS codes, undici's, OpenSSL's) shared by the local transport and the provider clients, so one failure gets the
 * same `RequestFailed` reason and `retryable` wherever it happens.
 *
 * Pure: it reads the `code` of an error (or of its causes) and never its free text, which can quote the request.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import type * as WebSearchError from "../WebSearchError.js"

/**
 * The reasons a transport failure is given: a subset of `WebSearchError.RequestFailedReason`.
 *
 * @since 0.2.0
 * @category models
 */
export type Reason = Extract<
  WebSearchError.RequestFailedReason,
  "dns_failed" | "timeout" | "tls_failed" | "network" | "invalid_input"
>

/**
 * A classified failure: its reason, whether trying again later may help, and the code it was read from.
 *
 * @since 0.2.0
 * @category models
 */
export interface NetworkFailure {
  readonly reason: Reason
  readonly retryable: boolean
  /** The error code found on the error or its causes, if any. */
  readonly code: string | undefined
}

// Every name-resolution outcome is `dns_failed`, EAI_NONAME included: getaddrinfo answers it for a name that does
// not exist just as c-ares answers ENOTFOUND, and which one appears depends on the resolver, not on the failure.
const dnsCodes: ReadonlySet<string> = new Set([
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_NONAME",
  "EAI_NODATA",
  "EAI_FAIL",
  "ENODATA",
  "ESERVFAIL"
])

const timeoutCodes: ReadonlySet<string> = new Set([
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT"
])

// A request we could not even send (a header name or value, or the body, refused before it left).
const invalidInputCodes: ReadonlySet<string> = new Set([
  "UND_ERR_INVALID_ARG",
  "ERR_INVALID_ARG_TYPE",
  "ERR_INVALID_CHAR"
])

// Certificate verdicts do not change by retrying in a moment, unlike a handshake cut short.
const certificateCodes: ReadonlySet<string> = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "CERT_SIGNATURE_FAILURE",
  "HOSTNAME_MISMATCH"
])

const isTlsCode = (code: string): boolean =>
  certificateCodes.has(code) ||
  code === "EPROTO" ||
  code.startsWith("ERR_TLS_") ||
  code.startsWith("ERR_SSL_") ||
  code.startsWith("SSL_") ||
  code.startsWith("UNABLE_TO_") ||
  code.startsWith("DEPTH_ZERO_") ||
  code.includes("CERT") ||
  code.includes("SSL")

const isCertificateVerdict = (code: string): boolean => certificateCodes.has(code) || code.includes("CERT")

/**
 * The first string `code` on an error or its `cause` chain (at most four deep), e.g. `ECONNREFUSED` on the
 * `TypeError("fetch failed")` that undici's fetch rejects with.
 *
 * @since 0.2.0
 * @category utils
 */
export const codeOf = (error: unknown): string | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string" && code !== "") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/**
 * Classifies an error code: `dns_failed` (every resolver outcome, `EAI_NONAME` included), `timeout`, `tls_failed`
 * (not retryable when it is a certificate verdict), `invalid_input` (the request itself was refused, not
 * retryable) and `network` for everything else (refused, reset, unreachable, unknown or no code).
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromCode = (code: string | undefined): NetworkFailure => {
  if (code === undefined || code === "") return { reason: "network", retryable: true, code: undefined }
  if (dnsCodes.has(code)) return { reason: "dns_failed", retryable: true, code }
  if (timeoutCodes.has(code)) return { reason: "timeout", retryable: true, code }
  if (invalidInputCodes.has(code)) return { reason: "invalid_input", retryable: false, code }
  if (isTlsCode(code)) return { reason: "tls_failed", retryable: !isCertificateVerdict(code), code }
  return { reason: "network", retryable: true, code }
}

/**
 * Classifies whatever a connection attempt threw or rejected with, by the code on it or its causes.
 *
 * @since 0.2.0
 * @category constructors
 */
export const classify = (error: unknown): NetworkFailure => fromCode(codeOf(error))
