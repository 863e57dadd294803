/**
 * The errors of an OpenAI research call: an HTTP refusal (401/403 the key, 429 a rate limit or an exhausted
 * quota, 5xx), a transport failure, a run the stream reported failed, and an answer without evidence. OpenAI's
 * own messages are kept, scrubbed of the key and of anything shaped like an OpenAI key.
 */
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Redaction from "@websearch/core/internal/redaction"
import * as Variables from "@websearch/core/internal/resolution/variables"
import * as RetryAfter from "@websearch/core/internal/retryAfter"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { ResearchRequest } from "@websearch/core/WebSearchRequest"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Excerpt from "./excerpt.js"
import * as TransportFailure from "./transportFailure.js"

/** The provider id. */
export const providerId = "openai"

/** The context every error of a research call carries. */
export const ctxOf = (request: ResearchRequest) => ({
  providerId,
  capability: "research" as const,
  input: request.query
})

/**
 * Makes a provider-written message safe to show (see `excerpt`): the key and anything shaped like an OpenAI key
 * (OpenAI quotes a masked key back on 401) removed, control and format characters and white space folded, cut to
 * 160 characters.
 */
export const providerText = (text: string, secret: string): string =>
  Excerpt.excerpt(
    Redaction.scrub(text, Redaction.forms(secret)).replace(/\bsk-[A-Za-z0-9_*.-]{3,}/g, `sk-${Redaction.placeholder}`),
    []
  )

// OpenAI's error envelope, as far as it is read: `{ error: { message, code, type } }`.
const ErrorBody = Schema.parseJson(
  Schema.Struct({
    error: Schema.optional(
      Schema.NullOr(
        Schema.Struct({
          message: Schema.optional(Schema.Unknown),
          code: Schema.optional(Schema.Unknown),
          type: Schema.optional(Schema.Unknown)
        })
      )
    )
  })
)

const decodeErrorBody = Schema.decodeUnknownEither(ErrorBody)

const errorDetails = (body: string): { readonly message: string | undefined; readonly code: string | undefined } => {
  const error = Either.getOrUndefined(decodeErrorBody(body))?.error
  return {
    message: typeof error?.message === "string" ? error.message : undefined,
    code: typeof error?.code === "string" ? error.code : typeof error?.type === "string" ? error.type : undefined
  }
}

/** The error of a non-200 answer: the key refused, a rate limit or an exhausted quota, a server failure. */
export const statusError = (
  request: ResearchRequest,
  response: HttpClientResponse.HttpClientResponse,
  body: string,
  secret: string
): WebSearchError.WebSearchError => {
  const status = response.status
  const details = errorDetails(body)
  const said =
    details.message !== undefined
      ? `: ${providerText(details.message, secret)}`
      : body.trim() !== "" && !body.trimStart().startsWith("<")
        ? `: ${providerText(body, secret)}`
        : ""
  const ctx = ctxOf(request)
  if (status === 401 || status === 403) {
    return WebSearchError.unavailable(
      "credentials_rejected",
      `OpenAI rejected the API key (HTTP ${status})${said}; check ${Variables.apiKey(providerId)} or providers.${providerId}.apiKeys`,
      ctx
    )
  }
  if (status === 429) {
    // Out of quota is a billing state, not congestion: waiting a few seconds will not help.
    const quota = details.code === "insufficient_quota"
    const retryAfter = RetryAfter.fromHeaders(response.headers, Date.now())
    return WebSearchError.requestFailed(
      "http_429",
      `OpenAI refused the research: ${quota ? "quota exhausted" : "rate limited"} (HTTP 429)${said}`,
      { ...ctx, retryable: !quota, ...(retryAfter === undefined ? {} : { retryAfter }) }
    )
  }
  if (status >= 500) return WebSearchError.requestFailed("http_5xx", `OpenAI failed with HTTP ${status}${said}`, ctx)
  if (status === 404) return WebSearchError.requestFailed("http_404", `OpenAI answered HTTP 404${said}`, ctx)
  return WebSearchError.requestFailed("http_status", `OpenAI answered HTTP ${status}${said}`, ctx)
}

/** A request that got no answer, classified as every provider's is (`transportFailure`). */
export const transportError = (
  request: ResearchRequest,
  error: HttpClientError.RequestError
): WebSearchError.RequestFailed => {
  const classified = TransportFailure.classify(error)
  return WebSearchError.requestFailed(classified.reason, `could not reach OpenAI (${classified.what})`, {
    ...ctxOf(request),
    ...(classified.retryable ? {} : { retryable: false })
  })
}

/** A run the stream reported failed, by OpenAI's error code. */
export const failedRun = (
  request: ResearchRequest,
  code: string | undefined,
  message: string | undefined,
  secret: string
): WebSearchError.WebSearchError => {
  const said = `${code ?? "error"}${message === undefined ? "" : `: ${providerText(message, secret)}`}`
  const ctx = ctxOf(request)
  switch (code) {
    case "rate_limit_exceeded":
      return WebSearchError.requestFailed("rate_limited", `OpenAI stopped the research: ${said}`, ctx)
    case "server_error":
    case "server_is_overloaded":
    case "slow_down":
      return WebSearchError.requestFailed("http_5xx", `OpenAI failed during the research: ${said}`, ctx)
    case "invalid_api_key":
      return WebSearchError.unavailable("credentials_rejected", `OpenAI rejected the API key: ${said}`, ctx)
    default:
      return WebSearchError.requestFailed("http_status", `OpenAI failed the research: ${said}`, ctx)
  }
}

/** `ResponseInvalid/no_evidence`: an answer that cannot be told apart from one from memory. */
export const noEvidence = (request: ResearchRequest, why: string) =>
  WebSearchError.responseInvalid(
    "no_evidence",
    `OpenAI answered without evidence (${why}); an answer without cited search results cannot be told apart from one from memory`,
    ctxOf(request)
  )
