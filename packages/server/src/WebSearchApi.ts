/**
 * The websearch HTTP API as an `HttpApi` definition. It is exported so that clients derive a typed client
 * (`HttpApiClient.make(WebSearchApi, { baseUrl })`) and so that an application can serve it with its own
 * Effect HTTP server. Every `/v1` endpoint needs a bearer token; `/health` does not.
 *
 * @example
 * ```ts
 * import * as HttpApiClient from "@effect/platform/HttpApiClient"
 * import * as HttpClient from "@effect/platform/HttpClient"
 * import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as WebSearchApi from "@websearch/server/WebSearchApi"
 * import * as Effect from "effect/Effect"
 *
 * // A typed client of a running server, derived from the API's own definition.
 * export const search = Effect.gen(function* () {
 *   const client = yield* HttpApiClient.make(WebSearchApi.WebSearchApi, {
 *     baseUrl: "http://127.0.0.1:8080",
 *     transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken("a-long-random-token"))
 *   })
 *   const response = yield* client.v1.search({ payload: { keywords: ["effect layers"] } })
 *   return response.results.map((result) => result.url)
 * }).pipe(Effect.provide(NodeHttpClient.layerUndici))
 * ```
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as CoreProviderDescription from "@websearch/core/ProviderDescription"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as WebSearchResponse from "@websearch/core/WebSearchResponse"
import * as Schema from "effect/Schema"
import { Authorization } from "./Authorization.js"
import * as ErrorStatus from "./ErrorStatus.js"

/**
 * One provider as `GET /v1/providers` describes it: capabilities, endpoints, whether keys are configured (a
 * count, never a key) and which capabilities it is the default for. The core's `ProviderDescription`, the shape
 * the registry lists.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProviderDescription = CoreProviderDescription.ProviderDescription

/**
 * @since 0.1.0
 * @category models
 */
export type ProviderDescription = CoreProviderDescription.ProviderDescription

/**
 * The status of one shared store in `GET /health`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const StoreStatus = Schema.Struct({
  status: Schema.Literal("ok", "degraded"),
  message: Schema.optional(Schema.String)
}).annotations({ identifier: "StoreStatus" })

/**
 * The answer of `GET /health`, always with status 200 while the process serves: `ok`, or `degraded` when a shared
 * store (Redis) does not answer. A degraded server still answers every call (the cache misses, provider quotas
 * let calls through; the per-token rate limit refuses with a retryable error), so it is not taken out of a load
 * balancer for it; `stores` (present with shared stores) names which store is degraded and why.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Health = Schema.Struct({
  status: Schema.Literal("ok", "degraded"),
  stores: Schema.optional(Schema.Record({ key: Schema.String, value: StoreStatus }))
}).annotations({ identifier: "Health" })

/**
 * @since 0.1.0
 * @category models
 */
export type Health = typeof Health.Type

const search = HttpApiEndpoint.post("search", "/v1/search")
  .setPayload(WebSearchRequest.SearchKeywordsRequest)
  .addSuccess(WebSearchResponse.WebSearchResponse)
  .annotate(OpenApi.Summary, "Search the web for 1-20 keyword queries")

const fetch = HttpApiEndpoint.post("fetch", "/v1/fetch")
  .setPayload(WebSearchRequest.FetchUrlsRequest)
  .addSuccess(WebSearchResponse.WebSearchResponse)
  .annotate(OpenApi.Summary, "Fetch 1-20 http(s) URLs as model-readable markdown")

const research = HttpApiEndpoint.post("research", "/v1/research")
  .setPayload(WebSearchRequest.ResearchRequest)
  .addSuccess(WebSearchResponse.ResearchResponse)
  .annotate(OpenApi.Summary, "Research one brief with a hosted provider; answers with a cited report")

const providers = HttpApiEndpoint.get("providers", "/v1/providers")
  .addSuccess(Schema.Array(ProviderDescription))
  .annotate(OpenApi.Summary, "The configured providers: capabilities and configured state, never a secret")

const check = HttpApiEndpoint.post("check", "/v1/providers/:id/check")
  .setPath(Schema.Struct({ id: Schema.String }))
  .addSuccess(ProviderChecks.ProviderCheck)
  .annotate(OpenApi.Summary, "Run every capability of a provider once with a stable input")

/**
 * The authenticated capability endpoints.
 *
 * @since 0.1.0
 * @category constants
 */
export class V1 extends HttpApiGroup.make("v1")
  .add(search)
  .add(fetch)
  .add(research)
  .add(providers)
  .add(check)
  .addError(ErrorStatus.InvalidInput)
  .addError(ErrorStatus.PayloadTooLarge)
  .addError(ErrorStatus.RateLimited)
  .addError(ErrorStatus.Timeout)
  .addError(ErrorStatus.UpstreamFailed)
  .addError(ErrorStatus.ResponseInvalidError)
  .addError(ErrorStatus.UnavailableError)
  .addError(ErrorStatus.AbortedError)
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Web search, page fetching, research and provider checks. Bearer token required.") {}

/**
 * The unauthenticated liveness endpoint.
 *
 * @since 0.1.0
 * @category constants
 */
export class System extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(Health))
  .annotate(OpenApi.Description, "Liveness; no token needed.") {}

/**
 * The websearch HTTP API.
 *
 * @since 0.1.0
 * @category constants
 */
export class WebSearchApi extends HttpApi.make("websearch")
  .add(V1)
  .add(System)
  .annotate(OpenApi.Title, "websearch")
  .annotate(
    OpenApi.Description,
    "Web search, page fetching and hosted research over many providers, with one contract and one error vocabulary."
  ) {}
