/**
 * A request's payload as its endpoint declares it. A body endpoint is served raw (`handleRaw`), so that the body
 * is read under the server's byte cap (`RequestBody`) rather than whole by the platform; it is then decoded by the
 * decoder of the endpoint's declared payload schema, the library's own (core's `decodeSearchKeywords`,
 * `ProviderStoreRules.decodeCreateInstance`, ...), whose failures name the JSON field at fault in the words every
 * surface of the library uses. A decoder's type is the declared payload's, so an endpoint whose schema changes
 * without its decoder does not compile.
 */
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type { Capability } from "@websearch/core/Capability"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as RequestBody from "./requestBody.js"

/** A decoder of a payload. */
export type Decoder<A> = (body: unknown) => Effect.Effect<A, WebSearchError.RequestFailed>

/** The decoder of an endpoint's declared payload. */
export type Of<Endpoint extends HttpApiEndpoint.HttpApiEndpoint.Any> = Decoder<
  HttpApiEndpoint.HttpApiEndpoint.Payload<Endpoint>
>

/** Reads the body of `request` under `limit` bytes and decodes it with `decode`. */
export const read = <A>(
  request: HttpServerRequest.HttpServerRequest,
  limit: number,
  capability: Capability | undefined,
  decode: Decoder<A>
): Effect.Effect<A, WebSearchError.RequestFailed> =>
  Effect.flatMap(RequestBody.readJson(request, limit, capability), decode)
