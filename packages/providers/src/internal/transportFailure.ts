/**
 * A provider call that got no answer at all (the name did not resolve, the TLS handshake failed, the connection
 * was refused or reset), as the `RequestFailed` a caller can act on. One classification for every provider
 * client, OpenAI's streamed research included; it reads the error's code, never its free text (which names the
 * request's URL, a key in its query included).
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as WebSearchError from "@websearch/core/WebSearchError"
import { type Call, errorContext } from "./providerCall.js"

/** What a transport failure means: its reason, what to show of it, and whether trying again may help. */
export interface Classified {
  readonly reason: "dns_failed" | "tls_failed" | "network"
  /** The error code, else the HttpClient's reason. */
  readonly what: string
  readonly retryable: boolean
}

/**
 * Classifies a transport failure by the code on its cause: `dns_failed`, `tls_failed` (not retryable when the
 * certificate was refused) or `network`.
 */
export const classify = (error: HttpClientError.HttpClientError): Classified => {
  const cause = error.cause as { code?: unknown; cause?: { code?: unknown } } | undefined
  const code = String(cause?.code ?? cause?.cause?.code ?? "")
  const reason =
    code === "ENOTFOUND" || code === "EAI_AGAIN"
      ? "dns_failed"
      : code.startsWith("ERR_TLS") || code.startsWith("CERT_") || code.includes("SSL") || code.includes("CERT")
        ? "tls_failed"
        : "network"
  const what =
    code !== "" ? code : error._tag === "ResponseError" ? `the answer could not be read: ${error.reason}` : error.reason
  // A certificate verdict does not change by retrying in a moment, unlike a handshake cut short (as the local
  // transport judges it).
  const verdict = reason === "tls_failed" && /CERT|HOSTNAME_MISMATCH|LEAF_SIGNATURE/.test(code)
  return { reason, what, retryable: !verdict }
}

/**
 * A transport failure (no answer at all) as `RequestFailed`, worded around the provider.
 */
export const transportFailure = (c: Call, error: HttpClientError.HttpClientError): WebSearchError.RequestFailed => {
  const classified = classify(error)
  return WebSearchError.requestFailed(
    classified.reason,
    `could not reach ${c.providerName} (${classified.what})`,
    errorContext(c, classified.retryable ? undefined : { retryable: false })
  )
}
