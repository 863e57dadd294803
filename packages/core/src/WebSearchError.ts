/**
 * The error vocabulary of websearch: four tagged errors that every capability, provider and surface shares.
 * They are schemas, so they cross HTTP, MCP and RPC boundaries intact, and they never carry a secret.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { Capability } from "./Capability.js"
import {
  AbortedReason,
  ErrorTag,
  InputFailureReason,
  RequestFailedReason,
  ResponseInvalidReason,
  retryableReasons,
  UnavailableReason
} from "./internal/errorReason.js"
import * as Redaction from "./internal/redaction.js"

/**
 * Marks the four websearch errors, across copies of this package (the symbol is registered globally).
 *
 * @since 0.2.0
 * @category constants
 */
export const TypeId: unique symbol = Symbol.for("@websearch/core/WebSearchError")

/**
 * @since 0.2.0
 * @category constants
 */
export type TypeId = typeof TypeId

/**
 * The errors' reasons (`UnavailableReason`, `RequestFailedReason`, `ResponseInvalidReason`, `AbortedReason`), their
 * union for one input (`InputFailureReason`), the tags (`ErrorTag`) and the retryable reasons; this module is their
 * public home (defined in `internal/errorReason.ts`).
 *
 * @since 0.1.0
 * @category errors
 */
export * from "./internal/errorReason.js"

const reasonsByTag: Record<ErrorTag, ReadonlySet<string>> = {
  Unavailable: new Set(UnavailableReason.literals),
  RequestFailed: new Set(RequestFailedReason.literals),
  ResponseInvalid: new Set(ResponseInvalidReason.literals),
  Aborted: new Set(AbortedReason.literals)
}

/**
 * One input's failure inside a response (`failures`) or inside an all-failed error, so an agent knows which
 * inputs to give up on and which to retry. `_tag` and `reason` are those of the input's error (on the wire as
 * well), and the reason is one its tag has.
 *
 * @since 0.1.0
 * @category schemas
 */
export class InputFailure extends Schema.Class<InputFailure>("@websearch/core/InputFailure")(
  Schema.Struct({
    input: Schema.String,
    /** The provider the input failed on, in a fused search (where several providers ran each input). */
    providerId: Schema.optional(Schema.String),
    _tag: ErrorTag,
    reason: InputFailureReason,
    retryable: Schema.Boolean,
    retryAfter: Schema.optional(Schema.Number),
    message: Schema.String
  }).pipe(
    Schema.filter((failure) =>
      reasonsByTag[failure._tag].has(failure.reason) ? undefined : `${failure.reason} is not a ${failure._tag} reason`
    )
  ),
  // A named component in OpenAPI and JSON Schema documents, as the class had before the filter.
  { identifier: "InputFailure" }
) {}

const common = {
  // Any string, not the ProviderId pattern: an error must be constructible for whatever id a caller asked for.
  providerId: Schema.optional(Schema.String),
  capability: Schema.optional(Capability),
  input: Schema.optional(Schema.String),
  retryable: Schema.Boolean,
  /** Seconds to wait before trying again, when the provider said so (Retry-After). */
  retryAfter: Schema.optional(Schema.Number),
  message: Schema.String,
  /** Every input's failure, present when all inputs of a request failed. */
  failures: Schema.optional(Schema.Array(InputFailure))
}

/**
 * The capability is not usable as configured: no default provider, an unknown or unregistered provider,
 * a capability the provider lacks, missing or rejected credentials, invalid settings. Retrying does not help.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unavailable extends Schema.TaggedError<Unavailable>("@websearch/core/Unavailable")("Unavailable", {
  ...common,
  reason: UnavailableReason
}) {
  /** @since 0.2.0 */
  declare readonly [TypeId]: TypeId
}

/**
 * The request did not complete: invalid input, a timeout, a network or HTTP failure, a refused URL.
 * `retryable` says whether trying again may help.
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestFailed extends Schema.TaggedError<RequestFailed>("@websearch/core/RequestFailed")("RequestFailed", {
  ...common,
  reason: RequestFailedReason
}) {
  /** @since 0.2.0 */
  declare readonly [TypeId]: TypeId
}

/**
 * The provider answered, but nothing usable came back (undecodable, empty, no evidence). Not retryable.
 *
 * @since 0.1.0
 * @category errors
 */
export class ResponseInvalid extends Schema.TaggedError<ResponseInvalid>("@websearch/core/ResponseInvalid")(
  "ResponseInvalid",
  { ...common, reason: ResponseInvalidReason }
) {
  /** @since 0.2.0 */
  declare readonly [TypeId]: TypeId
}

/**
 * The caller cancelled the request (interruption or an aborted `AbortSignal`).
 *
 * @since 0.1.0
 * @category errors
 */
export class Aborted extends Schema.TaggedError<Aborted>("@websearch/core/Aborted")("Aborted", {
  ...common,
  reason: AbortedReason
}) {
  /** @since 0.2.0 */
  declare readonly [TypeId]: TypeId
}

for (const errorClass of [Unavailable, RequestFailed, ResponseInvalid, Aborted]) {
  Object.defineProperty(errorClass.prototype, TypeId, { value: TypeId })
}

/**
 * Any of the four errors, as a schema for the wire.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebSearchError = Schema.Union(Unavailable, RequestFailed, ResponseInvalid, Aborted)

/**
 * @since 0.1.0
 * @category models
 */
export type WebSearchError = Unavailable | RequestFailed | ResponseInvalid | Aborted

/**
 * The optional context every error may carry.
 *
 * @since 0.1.0
 * @category models
 */
export interface ErrorContext {
  readonly providerId?: string | undefined
  readonly capability?: Capability | undefined
  readonly input?: string | undefined
  readonly retryAfter?: number | undefined
}

const context = (ctx: ErrorContext | undefined) => {
  const out: { providerId?: string; capability?: Capability; input?: string; retryAfter?: number } = {}
  if (ctx?.providerId !== undefined) out.providerId = ctx.providerId
  if (ctx?.capability !== undefined) out.capability = ctx.capability
  if (ctx?.input !== undefined) out.input = ctx.input
  // NaN or Infinity would cross JSON as null, which no client can decode: a wait that is not a number is no wait.
  if (ctx?.retryAfter !== undefined && Number.isFinite(ctx.retryAfter)) out.retryAfter = ctx.retryAfter
  return out
}

/**
 * Builds an `Unavailable` error (never retryable).
 *
 * @since 0.1.0
 * @category constructors
 */
export const unavailable = (reason: UnavailableReason, message: string, ctx?: ErrorContext): Unavailable =>
  new Unavailable({ ...context(ctx), reason, message, retryable: false })

/**
 * Builds a `RequestFailed` error; `retryable` follows the reason unless given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const requestFailed = (
  reason: RequestFailedReason,
  message: string,
  ctx?: ErrorContext & { readonly retryable?: boolean }
): RequestFailed =>
  new RequestFailed({ ...context(ctx), reason, message, retryable: ctx?.retryable ?? retryableReasons.has(reason) })

/**
 * Builds a `ResponseInvalid` error (never retryable).
 *
 * @since 0.1.0
 * @category constructors
 */
export const responseInvalid = (reason: ResponseInvalidReason, message: string, ctx?: ErrorContext): ResponseInvalid =>
  new ResponseInvalid({ ...context(ctx), reason, message, retryable: false })

/**
 * Builds an `Aborted` error.
 *
 * @since 0.1.0
 * @category constructors
 */
export const aborted = (message: string, ctx?: ErrorContext): Aborted =>
  new Aborted({ ...context(ctx), reason: "interrupted", message, retryable: false })

/**
 * Whether a value is one of the four websearch errors (of this copy of the package or another).
 *
 * @since 0.1.0
 * @category guards
 */
export const isWebSearchError = (u: unknown): u is WebSearchError => Predicate.hasProperty(u, TypeId)

/**
 * The per-input summary of an error, as it appears in `failures`.
 *
 * @since 0.1.0
 * @category encoding
 */
export const toInputFailure = (input: string, error: WebSearchError): InputFailure =>
  new InputFailure({
    input,
    _tag: error._tag,
    reason: error.reason,
    retryable: error.retryable,
    message: error.message,
    ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter })
  })

/**
 * A plain JSON object for the wire (CLI `--json`, HTTP bodies), with the tag and without the stack.
 *
 * @since 0.1.0
 * @category encoding
 */
export const toJson = (error: WebSearchError): Record<string, unknown> =>
  Either.getOrElse(
    Schema.encodeEither(WebSearchError)(error) as Either.Either<Record<string, unknown>, unknown>,
    // Only an error built with its constructor's validation disabled can fail to encode; never throw here.
    () => ({
      _tag: error._tag,
      reason: String(error.reason),
      message: String(error.message),
      retryable: error.retryable === true
    })
  )

/**
 * The fields of an error that may be filled in or replaced after the fact.
 */
interface ErrorPatch extends ErrorContext {
  readonly message?: string | undefined
  readonly failures?: ReadonlyArray<InputFailure> | undefined
}

/**
 * Returns a copy of an error (same class and reason) with fields filled in or replaced. Context fields that the
 * error already carries are kept unless the patch replaces them explicitly.
 *
 * @since 0.1.0
 * @category combinators
 */
export const annotate = <E extends WebSearchError>(error: E, patch: ErrorPatch, keepExisting = true): E => {
  const pick = <K extends keyof ErrorContext>(key: K) =>
    keepExisting ? (error[key] ?? patch[key]) : (patch[key] ?? error[key])
  const fields = {
    ...context({
      providerId: pick("providerId"),
      capability: pick("capability"),
      input: pick("input"),
      retryAfter: pick("retryAfter")
    }),
    retryable: error.retryable,
    message: patch.message ?? error.message,
    ...(patch.failures !== undefined
      ? { failures: patch.failures }
      : error.failures !== undefined
        ? { failures: error.failures }
        : {})
  }
  switch (error._tag) {
    case "Unavailable":
      return new Unavailable({ ...fields, reason: error.reason }) as E
    case "RequestFailed":
      return new RequestFailed({ ...fields, reason: error.reason }) as E
    case "ResponseInvalid":
      return new ResponseInvalid({ ...fields, reason: error.reason }) as E
    case "Aborted":
      return new Aborted({ ...fields, reason: error.reason }) as E
  }
}

/**
 * Replaces every occurrence of the given secrets, in each form a remote party may echo them in
 * (`Redaction.forms`), in an error's message and input (and its failures' messages and inputs) with
 * `[redacted]`: a last line of defence against a driver that quotes a key back.
 *
 * @since 0.1.0
 * @category combinators
 */
export const scrub = <E extends WebSearchError>(error: E, secrets: ReadonlyArray<string>): E => {
  const forms = secrets.flatMap((secret) => Redaction.forms(secret))
  if (!forms.some((form) => form.length >= 4)) return error
  const clean = (text: string) => Redaction.scrub(text, forms)
  const message = clean(error.message)
  const input = error.input === undefined ? undefined : clean(error.input)
  const failures = error.failures?.map(
    (f) => new InputFailure({ ...f, input: clean(f.input), message: clean(f.message) })
  )
  if (message === error.message && input === error.input && failures === undefined) return error
  return annotate(error, { message, input, failures }, false)
}
