/**
 * The error sets the endpoints declare, each one schema (a union the platform splits by status), so an endpoint's
 * errors are named once by what it is (a capability, an instance route, a route with a body) rather than listed
 * per endpoint.
 */
import * as Schema from "effect/Schema"
import * as ErrorStatus from "../ErrorStatus.js"

/** Every error schema a capability endpoint declares, each with its status. */
export const capabilityErrors = [
  ErrorStatus.InvalidInput,
  ErrorStatus.PayloadTooLarge,
  ErrorStatus.RateLimited,
  ErrorStatus.Timeout,
  ErrorStatus.UpstreamFailed,
  ErrorStatus.ResponseInvalidError,
  ErrorStatus.UnavailableError,
  ErrorStatus.AbortedError
] as const

/** The error schemas the management routes declare besides the capability ones, each with its status. */
export const managementErrors = [ErrorStatus.Forbidden, ErrorStatus.NotFound, ErrorStatus.Conflict] as const

/** The errors of a capability (search, fetch, research): every status a websearch error maps to. */
export const capability = Schema.Union(...capabilityErrors)

/** The errors of a route under a workspace's instances: not an admin, no such workspace or instance, no store. */
export const instance = Schema.Union(ErrorStatus.Forbidden, ErrorStatus.NotFound, ErrorStatus.UnavailableError)

/** The errors of reading a request body: not the declared payload (400), over the size cap (413). */
export const body = Schema.Union(ErrorStatus.InvalidInput, ErrorStatus.PayloadTooLarge)
