/**
 * How the four websearch errors map to HTTP statuses, as schemas the HttpApi encodes errors with (server) and
 * decodes error bodies with (typed clients). The body is always the error itself (`_tag`, `reason`, `message`,
 * `retryable`, `retryAfter`, ...), so a client gets back the same typed error the library would have raised.
 *
 * | error | status |
 * |---|---|
 * | `Unavailable` (any reason) | 503 |
 * | `RequestFailed/invalid_input` | 400 |
 * | `RequestFailed/too_large` without a provider (the request body itself) | 413 |
 * | `RequestFailed/rate_limited`, `RequestFailed/http_429` | 429, with `Retry-After` when known |
 * | `RequestFailed/timeout` | 504 |
 * | `RequestFailed/not_found` (a managed provider instance, or a route the API does not have) | 404 |
 * | `RequestFailed/conflict` (an instance that exists, or a stale revision) | 409 |
 * | `RequestFailed/method_not_allowed` (a route asked with a method it does not answer) | 405, with `Allow` |
 * | any other `RequestFailed` | 502 |
 * | `ResponseInvalid` | 502 |
 * | `Aborted` | 499 |
 * | `Unauthorized` (missing or wrong bearer token) | 401, with `WWW-Authenticate: Bearer` |
 * | `Forbidden` (a member token on a management route of its own workspace) | 403 |
 *
 * A provider's 429 becomes our 429 rather than a 502: the caller's right reaction is the same as for our own
 * limit (wait `Retry-After`, then retry), and a gateway status would hide that.
 *
 * @since 0.1.0
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Schema from "effect/Schema"

/**
 * The status of a websearch error.
 *
 * @since 0.1.0
 * @category errors
 */
export const statusOf = (error: WebSearchError.WebSearchError): number => {
  switch (error._tag) {
    case "Unavailable":
      return 503
    case "ResponseInvalid":
      return 502
    case "Aborted":
      return 499
    case "RequestFailed":
      switch (error.reason) {
        case "invalid_input":
          return 400
        case "too_large":
          // A provider's oversized page is an upstream fault; only the caller's own body is "too large" here.
          return error.providerId === undefined ? 413 : 502
        case "rate_limited":
        case "http_429":
          return 429
        case "timeout":
          return 504
        case "not_found":
          return 404
        case "conflict":
          return 409
        case "method_not_allowed":
          return 405
        default:
          return 502
      }
  }
}

/**
 * A missing, malformed or unknown bearer token. The message never repeats the token.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>("@websearch/server/Unauthorized")(
  "Unauthorized",
  { message: Schema.String },
  {
    identifier: "Unauthorized",
    ...HttpApiSchema.annotations({ status: 401, description: "Missing or unknown bearer token" })
  }
) {}

/**
 * A token that may not do this: a member (not admin) token on a management route of its own workspace. Another
 * workspace's routes answer 404 instead, whatever the token, so a token learns nothing of other workspaces.
 *
 * @since 0.2.0
 * @category errors
 */
export class Forbidden extends Schema.TaggedError<Forbidden>("@websearch/server/Forbidden")(
  "Forbidden",
  { message: Schema.String },
  {
    identifier: "Forbidden",
    ...HttpApiSchema.annotations({ status: 403, description: "The token is not an admin of this workspace" })
  }
) {}

const withStatus = <A extends WebSearchError.WebSearchError, I>(
  schema: Schema.Schema<A, I>,
  status: number,
  identifier: string,
  description: string
) =>
  schema.pipe(
    // Refined by status so that each error encodes with exactly one status and decodes only from it.
    Schema.filter((error) => statusOf(error) === status),
    Schema.annotations({ identifier, description, ...HttpApiSchema.annotations({ status }) })
  )

/**
 * `Unavailable` (503): the capability is not usable as configured.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UnavailableError = withStatus(
  WebSearchError.Unavailable,
  503,
  "Unavailable",
  "The capability is not usable as configured (no default provider, unknown provider, missing credentials, ...)"
)

/**
 * `RequestFailed/invalid_input` (400).
 *
 * @since 0.1.0
 * @category schemas
 */
export const InvalidInput = withStatus(
  WebSearchError.RequestFailed,
  400,
  "InvalidInput",
  "RequestFailed/invalid_input: the request body is not valid JSON or does not match the request schema"
)

/**
 * `RequestFailed/too_large` without a provider (413): the request body is over the server's limit.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PayloadTooLarge = withStatus(
  WebSearchError.RequestFailed,
  413,
  "PayloadTooLarge",
  "RequestFailed/too_large: the request body is larger than the server accepts"
)

/**
 * `RequestFailed/rate_limited` or `http_429` (429).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RateLimited = withStatus(
  WebSearchError.RequestFailed,
  429,
  "RateLimited",
  "RequestFailed/rate_limited or http_429: a quota was exhausted; retry after retryAfter seconds (Retry-After)"
)

/**
 * `RequestFailed/timeout` (504).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Timeout = withStatus(
  WebSearchError.RequestFailed,
  504,
  "Timeout",
  "RequestFailed/timeout: the provider did not answer in time"
)

/**
 * `RequestFailed/not_found` (404): a provider instance (or workspace) the token's workspace does not have.
 *
 * @since 0.2.0
 * @category schemas
 */
export const NotFound = withStatus(
  WebSearchError.RequestFailed,
  404,
  "NotFound",
  "RequestFailed/not_found: no such provider instance in the token's workspace (another workspace is never shown)"
)

/**
 * `RequestFailed/conflict` (409): an instance id taken already, or an update at a stale revision.
 *
 * @since 0.2.0
 * @category schemas
 */
export const Conflict = withStatus(
  WebSearchError.RequestFailed,
  409,
  "Conflict",
  "RequestFailed/conflict: the instance id is taken, or the instance changed since the given revision"
)

/**
 * Any other `RequestFailed` (502).
 *
 * @since 0.1.0
 * @category schemas
 */
export const UpstreamFailed = withStatus(
  WebSearchError.RequestFailed,
  502,
  "RequestFailed",
  "RequestFailed: the provider request did not complete (network, HTTP status, refused URL, ...)"
)

/**
 * `ResponseInvalid` (502).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ResponseInvalidError = withStatus(
  WebSearchError.ResponseInvalid,
  502,
  "ResponseInvalid",
  "ResponseInvalid: the provider answered, but nothing usable came back"
)

/**
 * `Aborted` (499).
 *
 * @since 0.1.0
 * @category schemas
 */
export const AbortedError = withStatus(WebSearchError.Aborted, 499, "Aborted", "Aborted: the request was cancelled")
