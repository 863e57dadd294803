/**
 * Maps what Node, undici and the pinned connector throw to the stable `RequestFailed` reasons (error codes through
 * `@websearch/core/NetworkFailure`, the classification the provider clients share). Messages name the
 * method and the host only (see `describe`): paths and query strings can carry keys, tokens and signed parameters.
 */
import * as NetworkFailure from "@websearch/core/internal/networkFailure"
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
  const failure = NetworkFailure.classify(error)
  const code = failure.code
  const proxy = error instanceof ProxyFailed ? ` through the proxy: ${error.message}` : ""
  switch (failure.reason) {
    case "invalid_input":
      return WebSearchError.requestFailed(
        "invalid_input",
        `${where(ctx)}: the request is invalid (a header name or value, or the body) (${code})`
      )
    case "dns_failed":
      return WebSearchError.requestFailed("dns_failed", `${where(ctx)}: the host name did not resolve (${code})`)
    case "timeout":
      return WebSearchError.requestFailed("timeout", `${where(ctx)}: timed out (${code})${proxy}`)
    case "tls_failed":
      return WebSearchError.requestFailed("tls_failed", `${where(ctx)}: TLS failed (${code})`, {
        retryable: failure.retryable
      })
    case "network":
      break
  }
  if (code !== undefined) {
    return WebSearchError.requestFailed("network", `${where(ctx)}: connection failed (${code})${proxy}`)
  }
  const text = error instanceof Error ? error.message : ""
  if (/socket hang up|other side closed|terminated/i.test(text)) {
    return WebSearchError.requestFailed("network", `${where(ctx)}: the connection closed early`)
  }
  // Whatever else is a transport fault; never name its free text, which can quote the request line.
  return WebSearchError.requestFailed("network", `${where(ctx)}: the request failed${proxy}`)
}
