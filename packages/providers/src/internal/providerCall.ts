/**
 * Who a provider call is for, and the errors that carry its context: every websearch error a driver raises names
 * the provider, the capability and the caller's input, and every provider-written text it shows is cleaned of the
 * call's secrets first.
 */
import type * as Capability from "@websearch/core/Capability"
import * as DriverContext from "@websearch/core/internal/resolution/context"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as Redaction from "@websearch/core/internal/redaction"
import * as Missing from "@websearch/core/internal/resolution/missing"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Excerpt from "./excerpt.js"

/**
 * Who is being called, for what: the context every error of the call carries.
 */
export interface Call {
  readonly providerId: string
  readonly providerName: string
  readonly capability: Capability.Capability
  /** The caller's keyword or URL. */
  readonly input: string
  readonly ctx: ProviderDriver.DriverContext
}

/**
 * A call's context from the driver's arguments.
 */
export const call = (
  preset: { readonly id: string; readonly name: string },
  capability: Capability.Capability,
  input: string,
  ctx: ProviderDriver.DriverContext
): Call => ({ providerId: preset.id, providerName: preset.name, capability, input, ctx })

/**
 * The most bytes read from a successful answer, and from an error answer; the most characters an error quotes of
 * what the provider wrote.
 */
export const limits = {
  maxBodyBytes: 16 * 1024 * 1024,
  maxErrorBodyBytes: 64 * 1024,
  maxMessageChars: Excerpt.maxChars
}

/** The context of an error of the call. */
export const errorContext = (
  c: Call,
  extra?: { readonly retryAfter?: number | undefined; readonly retryable?: boolean }
) => ({
  providerId: c.providerId,
  capability: c.capability,
  input: c.input,
  ...extra
})

/** The secrets of a call (its key, its basic-auth password) in every form a provider may echo them. */
const secretsOf = (c: Call): ReadonlyArray<string> => [
  ...Option.match(c.ctx.apiKey, { onNone: () => [], onSome: (key) => Redaction.forms(Redacted.value(key)) }),
  ...Option.match(c.ctx.provider.basicAuth, {
    onNone: () => [],
    onSome: (auth) => Redaction.forms(Redacted.value(auth.password), auth.username)
  })
]

/**
 * Makes provider-written text safe to show (see `excerpt`): secrets removed (as sent, URL-encoded, in any case,
 * base64), control and format characters and white space folded, cut to 160 characters.
 */
export const providerText = (c: Call, text: string): string => Excerpt.excerpt(text, secretsOf(c))

/** "key #2 of 3" — never the key itself. */
export const keyName = (c: Call): string =>
  Option.match(c.ctx.apiKeyIndex, {
    onNone: () => "the API key",
    onSome: (index) =>
      c.ctx.provider.apiKeys.length > 1 ? `API key #${index + 1} of ${c.ctx.provider.apiKeys.length}` : "the API key"
  })

/** Where the user sets the provider's keys. */
export const keySettings = (c: Call): string => Missing.keySettings(c.providerId)

/**
 * A `RequestFailed` with the call's context (`retryAfter`, and `retryable` when the reason's default is wrong).
 */
export const requestFailed = (
  c: Call,
  reason: WebSearchError.RequestFailedReason,
  message: string,
  extra?: { readonly retryAfter?: number | undefined; readonly retryable?: boolean }
): WebSearchError.RequestFailed => WebSearchError.requestFailed(reason, message, errorContext(c, extra))

/**
 * A `ResponseInvalid/decode_failed` for an answer the driver could not use.
 */
export const invalid = (c: Call, message: string): WebSearchError.ResponseInvalid =>
  WebSearchError.responseInvalid("decode_failed", `${c.providerName} ${message}`, errorContext(c))

/**
 * `Unavailable/missing_credentials` or `invalid_config` for a setting the driver needs.
 */
export const missing = (
  c: Call,
  reason: "missing_credentials" | "invalid_config",
  message: string
): WebSearchError.Unavailable => WebSearchError.unavailable(reason, message, errorContext(c))

/**
 * `ResponseInvalid/empty_content`: the provider answered, with no text for the page.
 */
export const empty = (c: Call): WebSearchError.ResponseInvalid =>
  WebSearchError.responseInvalid(
    "empty_content",
    `${c.providerName} returned no content for "${c.input}"`,
    errorContext(c)
  )

/**
 * The endpoint of the capability without trailing slashes (`DriverContext.apiHost`: checked by the request's
 * resolution), with the call's context on the error a direct call without one gets, naming the driver's preset.
 */
export const endpoint = (c: Call): Effect.Effect<string, WebSearchError.Unavailable> =>
  Effect.mapError(DriverContext.apiHost(c.ctx, c.providerName), (error) =>
    WebSearchError.annotate(error, errorContext(c))
  )

/**
 * The call's API key (`DriverContext.apiKey`: checked by the request's resolution where the preset requires
 * one), with the call's context on the error of a call without one.
 */
export const requireKey = (c: Call): Effect.Effect<Redacted.Redacted<string>, WebSearchError.Unavailable> =>
  Effect.mapError(DriverContext.apiKey(c.ctx, c.providerName), (error) =>
    WebSearchError.annotate(error, errorContext(c))
  )

/**
 * Results mapped from a provider's items, and how many items had no usable URL (see `resultFields`).
 */
export interface Mapped {
  readonly results: ReadonlyArray<ProviderDriver.DriverResult>
  readonly dropped: number
}

/**
 * The results a driver keeps, logging (not hiding) how many items had no usable URL.
 */
export const keep = (c: Call, mapped: Mapped): Effect.Effect<ReadonlyArray<ProviderDriver.DriverResult>> =>
  mapped.dropped === 0
    ? Effect.succeed(mapped.results)
    : Effect.as(
        Effect.logDebug(`websearch ${c.providerId} dropped ${mapped.dropped} result(s) without an http(s) URL`).pipe(
          Effect.annotateLogs({ providerId: c.providerId, input: c.input })
        ),
        mapped.results
      )

/**
 * Clamps a requested result count to the provider's range.
 */
export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value))

/**
 * A lenient number: providers send some numbers as strings ("1.67").
 */
export const NumberLike = Schema.Union(Schema.Number, Schema.NumberFromString)
