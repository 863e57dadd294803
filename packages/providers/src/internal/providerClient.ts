/**
 * The HttpClient every provider driver sends through. Credentials are kept out of its `http.client` span for every
 * provider at once (see `redaction`).
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Redaction from "@websearch/core/internal/redaction"

/**
 * The HttpClient a provider Layer captures. Every header whose name carries a credential is redacted in its span
 * (request and response), and a request with a credential in its URL (a key query parameter) gets a span of ours
 * instead, whose URL shows the parameter redacted: the platform's would show it whole (see `@websearch/core/Redaction`).
 */
// A credential-named query parameter (given apart or in the URL), or a password in the URL.
const hasCredentialInUrl = (request: HttpClientRequest.HttpClientRequest): boolean =>
  request.urlParams.some(([name]) => Redaction.isCredentialName(name)) ||
  (URL.canParse(request.url) && Redaction.hasCredential(new URL(request.url)))

export const client = Effect.map(HttpClient.HttpClient, (http) =>
  http.pipe(
    // No trace context (`traceparent`, `b3`) goes to a third party: our trace ids are no provider's business.
    HttpClient.withTracerPropagation(false),
    HttpClient.withTracerDisabledWhen(hasCredentialInUrl),
    HttpClient.transform((effect, request) => {
      const redacted = Effect.locallyWith(effect, Headers.currentRedactedNames, (names) => [
        ...names,
        Redaction.credentialName
      ])
      return hasCredentialInUrl(request) ? urlSpan(redacted, request) : redacted
    })
  )
)

// The platform's client span, for a request whose URL carries a credential: the same attributes, the URL scrubbed.
const urlSpan = <E, R>(
  effect: Effect.Effect<HttpClientResponse.HttpClientResponse, E, R>,
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<HttpClientResponse.HttpClientResponse, E, R> => {
  const made = UrlParams.makeUrl(request.url, request.urlParams, request.hash)
  if (Either.isLeft(made)) return effect
  const url = Redaction.scrubUrl(made.right)
  return Effect.flatMap(FiberRef.get(Headers.currentRedactedNames), (names) =>
    spanned(effect, request, url, Headers.redact(request.headers, [...names, Redaction.credentialName]))
  )
}

// The span ends with no value, or the failure's reason only: a success would hold the response, and a failure
// (an HttpClientError) the request, and with them the URL, key included; the error's message names the URL too.
const failureReason = (cause: Cause.Cause<unknown>): string =>
  Option.match(Cause.failureOption(cause), {
    onNone: () => (Cause.isInterruptedOnly(cause) ? "interrupted" : "defect"),
    onSome: (error) =>
      typeof error === "object" && error !== null && "reason" in error ? `transport: ${String(error.reason)}` : "failed"
  })

const spanned = <E, R>(
  effect: Effect.Effect<HttpClientResponse.HttpClientResponse, E, R>,
  request: HttpClientRequest.HttpClientRequest,
  url: URL,
  headers: Record<string, string | Redacted.Redacted>
): Effect.Effect<HttpClientResponse.HttpClientResponse, E, R> =>
  Effect.flatMap(
    Effect.makeSpan(`http.client ${request.method}`, {
      kind: "client",
      captureStackTrace: false,
      attributes: {
        "http.request.method": request.method,
        "server.address": url.origin,
        "url.full": url.toString(),
        "url.path": url.pathname,
        "url.scheme": url.protocol.slice(0, -1),
        ...(url.search === "" ? {} : { "url.query": url.search.slice(1) }),
        ...Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [`http.request.header.${name}`, String(value)])
        )
      }
    }),
    (span) =>
      effect.pipe(
        Effect.withParentSpan(span),
        Effect.onExit((exit) =>
          Effect.flatMap(Clock.currentTimeNanos, (now) =>
            Effect.sync(() => {
              if (Exit.isSuccess(exit)) span.attribute("http.response.status_code", exit.value.status)
              span.end(now, Exit.isSuccess(exit) ? Exit.void : Exit.fail(new Error(failureReason(exit.cause))))
            })
          )
        )
      )
  )
