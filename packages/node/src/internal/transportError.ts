/**
 * Maps what Node, undici and the pinned connector throw to the stable `RequestFailed` reasons. Messages name the
 * method and the host only (see `describe`): paths and query strings can carry keys, tokens and signed parameters.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import { DialRefused, ProxyFailed } from "./connector.js"

/** The body went over the cap (streamed or announced by Content-Length). */
export class BodyTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly announced: number | undefined
  ) {
    super("body too large")
    this.name = "BodyTooLarge"
  }
}

/** The connection ended before the body reached its announced Content-Length. */
export class BodyIncomplete extends Error {
  constructor(
    readonly received: number,
    readonly announced: number
  ) {
    super("body incomplete")
    this.name = "BodyIncomplete"
  }
}

/**
 * How a URL appears in messages and spans: scheme, host and a non-default port. Never the userinfo, path, query
 * or fragment.
 */
export const describe = (url: string | URL): string => {
  try {
    const parsed = typeof url === "string" ? new URL(url) : url
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return "(unparseable URL)"
  }
}

/** The host alone (for span attributes), or a placeholder. */
export const hostOf = (url: string | URL): string => {
  try {
    return (typeof url === "string" ? new URL(url) : url).host
  } catch {
    return "(unparseable URL)"
  }
}

const dnsCodes = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_NODATA", "EAI_FAIL", "ENODATA", "ESERVFAIL"])
const networkCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EADDRNOTAVAIL",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_DESTROYED",
  "UND_ERR_INFO",
  "HPE_INVALID_CONSTANT",
  "EPROXY"
])
const timeoutCodes = new Set([
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT"
])
// Certificate verdicts do not change by retrying in a moment, unlike a handshake cut short.
const certificateCodes = new Set([
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

const codeOf = (error: unknown): string | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

const isTlsCode = (code: string) =>
  certificateCodes.has(code) ||
  code.startsWith("CERT_") ||
  code.startsWith("ERR_TLS_") ||
  code.startsWith("ERR_SSL_") ||
  code.startsWith("SSL_") ||
  code.startsWith("UNABLE_TO_") ||
  code.startsWith("DEPTH_ZERO_")

/** The context of a failed hop, for the message. */
export interface HopContext {
  readonly method: string
  readonly url: URL
  readonly hop: number
  readonly maxBodyBytes: number
}

const where = (ctx: HopContext) => `${ctx.method} ${describe(ctx.url)}${ctx.hop > 0 ? ` (redirect ${ctx.hop})` : ""}`

/** Maps anything a hop threw to a `RequestFailed` with a reason, `retryable` and a message without secrets. */
export const fromUnknown = (error: unknown, ctx: HopContext): WebSearchError.RequestFailed => {
  if (error instanceof BodyTooLarge) {
    return WebSearchError.requestFailed(
      "too_large",
      error.announced === undefined
        ? `${where(ctx)}: the body exceeded ${error.limit} bytes; the connection was closed`
        : `${where(ctx)}: the announced body of ${error.announced} bytes exceeds ${error.limit} bytes`
    )
  }
  if (error instanceof BodyIncomplete) {
    return WebSearchError.requestFailed(
      "stream_incomplete",
      `${where(ctx)}: the connection ended after ${error.received} of the announced ${error.announced} bytes`
    )
  }
  if (error instanceof DialRefused) {
    return WebSearchError.requestFailed("ssrf_rejected", `${where(ctx)}: ${error.message}`)
  }
  const code = codeOf(error)
  if (code === "UND_ERR_INVALID_ARG" || code === "ERR_INVALID_ARG_TYPE" || code === "ERR_INVALID_CHAR") {
    return WebSearchError.requestFailed(
      "invalid_input",
      `${where(ctx)}: the request is invalid (a header name or value, or the body) (${code})`
    )
  }
  const proxy = error instanceof ProxyFailed ? ` through the proxy: ${error.message}` : ""
  if (code !== undefined && dnsCodes.has(code)) {
    return WebSearchError.requestFailed("dns_failed", `${where(ctx)}: the host name did not resolve (${code})`)
  }
  if (code !== undefined && timeoutCodes.has(code)) {
    return WebSearchError.requestFailed("timeout", `${where(ctx)}: timed out (${code})${proxy}`)
  }
  if (code !== undefined && isTlsCode(code)) {
    return WebSearchError.requestFailed("tls_failed", `${where(ctx)}: TLS failed (${code})`, {
      retryable: !certificateCodes.has(code) && !code.startsWith("CERT_")
    })
  }
  if (code === "EPROTO" || code === "ERR_SSL_WRONG_VERSION_NUMBER") {
    return WebSearchError.requestFailed("tls_failed", `${where(ctx)}: TLS handshake failed (${code})`)
  }
  if (code !== undefined && networkCodes.has(code)) {
    return WebSearchError.requestFailed("network", `${where(ctx)}: connection failed (${code})${proxy}`)
  }
  const text = error instanceof Error ? error.message : ""
  if (/socket hang up|other side closed|terminated/i.test(text)) {
    return WebSearchError.requestFailed("network", `${where(ctx)}: the connection closed early`)
  }
  // Whatever else (a parser error, an unknown code) is a transport fault; name its code, never its free text,
  // which can quote the request line.
  return WebSearchError.requestFailed(
    "network",
    `${where(ctx)}: the request failed${code === undefined ? "" : ` (${code})`}${proxy}`
  )
}
