/**
 * A provider call that got no answer at all (the name did not resolve, the TLS handshake failed, the connection
 * was refused or reset), as the `RequestFailed` a caller can act on. One classification for every provider
 * client, OpenAI's streamed research included; it reads the error's code, never its free text (which names the
 * request's URL, a key in its query included).
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as NetworkFailure from "@websearch/core/internal/networkFailure"
import * as WebSearchError from "@websearch/core/WebSearchError"
import { type Call, errorContext } from "./providerCall.js"

/** What a transport failure means: its reason, what to show of it, and whether trying again may help. */
export interface Classified {
  readonly reason: NetworkFailure.Reason
  /** The error code, else the HttpClient's reason. */
  readonly what: string
  readonly retryable: boolean
}

/**
 * Classifies a transport failure by the code on its cause, as every transport of websearch does
 * (`@websearch/core/NetworkFailure`).
 */
export const classify = (error: HttpClientError.HttpClientError): Classified => {
  const failure = NetworkFailure.classify(error.cause)
  const what =
    failure.code ?? (error._tag === "ResponseError" ? `the answer could not be read: ${error.reason}` : error.reason)
  return { reason: failure.reason, what, retryable: failure.retryable }
}

/**
 * A transport failure (no answer at all) as `RequestFailed`, worded around the provider.
 */
export const transportFailure = (c: Call, error: HttpClientError.HttpClientError): WebSearchError.RequestFailed => {
  // A client that refused the request itself (a proxy the URL policy refuses) says why in its own typed error.
  if (error._tag === "RequestError" && error.cause instanceof WebSearchError.RequestFailed) {
    return WebSearchError.annotate(error.cause, errorContext(c))
  }
  const classified = classify(error)
  return WebSearchError.requestFailed(
    classified.reason,
    `could not reach ${c.providerName} (${classified.what})`,
    errorContext(c, classified.retryable ? undefined : { retryable: false })
  )
}
