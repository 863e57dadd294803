/**
 * The error sets the endpoints declare, each added by one function, so an endpoint's errors are named once by
 * what it is (a capability, an instance route, a route with a body) rather than listed per endpoint.
 */
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as ErrorStatus from "../ErrorStatus.js"

type Endpoint<
  Name extends string,
  Method extends HttpMethod,
  Path,
  UrlParams,
  Payload,
  Headers,
  Success,
  Error,
  R,
  RE
> = HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>

/** The errors of a capability (search, fetch, research): every status a websearch error maps to. */
export const capability = <
  Name extends string,
  Method extends HttpMethod,
  Path,
  UrlParams,
  Payload,
  Headers,
  Success,
  Error,
  R,
  RE
>(
  endpoint: Endpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
) =>
  endpoint
    .addError(ErrorStatus.InvalidInput)
    .addError(ErrorStatus.PayloadTooLarge)
    .addError(ErrorStatus.RateLimited)
    .addError(ErrorStatus.Timeout)
    .addError(ErrorStatus.UpstreamFailed)
    .addError(ErrorStatus.ResponseInvalidError)
    .addError(ErrorStatus.UnavailableError)
    .addError(ErrorStatus.AbortedError)

/** The errors of a route under a workspace's instances: not an admin, no such workspace or instance, no store. */
export const instance = <
  Name extends string,
  Method extends HttpMethod,
  Path,
  UrlParams,
  Payload,
  Headers,
  Success,
  Error,
  R,
  RE
>(
  endpoint: Endpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
) => endpoint.addError(ErrorStatus.Forbidden).addError(ErrorStatus.NotFound).addError(ErrorStatus.UnavailableError)

/** The errors of reading a request body: not the declared payload (400), over the size cap (413). */
export const body = <
  Name extends string,
  Method extends HttpMethod,
  Path,
  UrlParams,
  Payload,
  Headers,
  Success,
  Error,
  R,
  RE
>(
  endpoint: Endpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
) => endpoint.addError(ErrorStatus.InvalidInput).addError(ErrorStatus.PayloadTooLarge)
