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
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as CrawlJobs from "@websearch/core/CrawlJobs"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as CoreProviderDescription from "@websearch/core/ProviderDescription"
import * as SiteRequest from "@websearch/core/SiteRequest"
import * as SiteResponse from "@websearch/core/SiteResponse"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as WebSearchResponse from "@websearch/core/WebSearchResponse"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { Authorization } from "./internal/authorization.js"
import * as ErrorStatus from "./ErrorStatus.js"
import { withExample } from "./internal/openApiExample.js"
import * as EndpointErrors from "./internal/endpointErrors.js"
import * as OpenApiDocument from "./internal/openApiDocument.js"
import * as OpenApiHeaders from "./internal/openApiHeaders.js"
import { version } from "./internal/version.js"
import { Management } from "./ProviderManagementApi.js"

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

/**
 * The example body of each capability endpoint, as the OpenAPI document shows it.
 */
const examples = {
  search: { keywords: ["effect typescript layers"], maxResults: 5 },
  fetch: { urls: ["https://example.com/"] },
  research: { query: "How do Effect layers share resources?", allowedDomains: ["effect.website"] },
  map: { url: "https://effect.website/", search: "schema", limit: 50 },
  crawl: { url: "https://effect.website/docs/", maxPages: 50, maxDepth: 2, includePaths: ["/docs/"] }
} as const

// A capability endpoint: a POST of the capability's request, answered with its response or one of its errors.
const capability = <const Name extends string, Payload extends Schema.Schema.Any, Success extends Schema.Schema.Any>(
  name: Name,
  path: `/${string}`,
  payload: Payload,
  success: Success
) => HttpApiEndpoint.post(name, path).setPayload(payload).addSuccess(success).addError(EndpointErrors.capability)

const search = capability(
  "search",
  "/v1/search",
  WebSearchRequest.SearchKeywordsRequest,
  WebSearchResponse.WebSearchResponse
)
  .annotate(OpenApi.Summary, "Search the web")
  .annotate(
    OpenApi.Description,
    "Searches 1-20 keyword queries with one provider (the default search provider unless `providerId` names " +
      "another). Each query is one provider call; the answer lists every result with the query it came from, and " +
      "the queries that failed in `failures` (the request fails only when every query failed)."
  )
  .annotate(OpenApi.Transform, withExample("One query, five results", examples.search))

const fetch = capability("fetch", "/v1/fetch", WebSearchRequest.FetchUrlsRequest, WebSearchResponse.WebSearchResponse)
  .annotate(OpenApi.Summary, "Fetch pages as markdown")
  .annotate(
    OpenApi.Description,
    "Fetches 1-20 http(s) URLs and answers each page as model-readable markdown. Every URL is checked first " +
      "(http or https, no credentials); a URL the server's policy refuses (a private address, a blocked host) " +
      "fails alone and is listed in `failures`."
  )
  .annotate(OpenApi.Transform, withExample("One page", examples.fetch))

const research = capability(
  "research",
  "/v1/research",
  WebSearchRequest.ResearchRequest,
  WebSearchResponse.ResearchResponse
)
  .annotate(OpenApi.Summary, "Research a brief")
  .annotate(
    OpenApi.Description,
    "Researches one brief (1-1000 characters) with a hosted research provider, on the open web or within up to " +
      "20 domains, and answers with a report that cites its sources."
  )
  .annotate(OpenApi.Transform, withExample("A brief within one domain", examples.research))

const map = capability("map", "/v1/map", SiteRequest.MapSiteRequest, SiteResponse.MapSiteResponse)
  .annotate(OpenApi.Summary, "Map a site")
  .annotate(
    OpenApi.Description,
    "The URLs of a site without reading its pages: its robots.txt `Sitemap:` lines, sitemaps (indexes, gzipped), " +
      "feeds and the start page's links, deduplicated, kept to the site (subdomains with `includeSubdomains`) and " +
      "its path patterns, ranked by `search` when given and cut to `limit` (every limit reached is in `cuts`)."
  )
  .annotate(OpenApi.Transform, withExample("A site's URLs about schemas", examples.map))

const CrawlPath = Schema.Struct({
  id: Schema.String.annotations({ description: "The crawl's id, as `POST /v1/crawls` answered it" })
})

const startCrawl = HttpApiEndpoint.post("startCrawl", "/v1/crawls")
  .setPayload(SiteRequest.CrawlSiteRequest)
  .addSuccess(CrawlJobs.CrawlJob, { status: 201 })
  .addError(EndpointErrors.capability)
  .addError(ErrorStatus.Conflict)
  .annotate(OpenApi.Summary, "Start a crawl")
  .annotate(
    OpenApi.Description,
    "Starts crawling a site breadth-first from `url` (at most `maxPages` pages, `maxDepth` links away, within its " +
      "path patterns, politely per host) and answers the job at once (201, `running`): read it with " +
      "`GET /v1/crawls/{id}`. The request is checked first (400 naming the field; a start URL the policy refuses " +
      "answers before anything runs). A workspace runs a few crawls at once (429 past it: retry when one " +
      "finishes) and holds a bounded number of pages (409 past it: delete finished crawls or ask for fewer)."
  )
  .annotate(OpenApi.Transform, withExample("The docs of a site, two links deep", examples.crawl))

const crawlStatus = HttpApiEndpoint.get("crawlStatus", "/v1/crawls/:id")
  .setPath(CrawlPath)
  .setUrlParams(
    Schema.Struct({
      offset: Schema.optional(Schema.String.annotations({ description: "The first event to answer (default 0)" })),
      limit: Schema.optional(Schema.String.annotations({ description: "Events to answer, 1-1000 (default 100)" }))
    })
  )
  .addSuccess(CrawlJobs.CrawlJob)
  .addError(ErrorStatus.InvalidInput)
  .addError(ErrorStatus.NotFound)
  .addError(ErrorStatus.UnavailableError)
  .annotate(OpenApi.Summary, "Read a crawl")
  .annotate(
    OpenApi.Description,
    "The crawl's status (`running`, `completed`, `failed` with its `error`, `cancelled`), its counts, and its " +
      "pages and failed pages so far from `offset`, at most `limit` (`total` kept; `nextOffset` while there are " +
      "more). A bad `offset` or `limit` answers 400 naming it; a crawl of another workspace answers 404."
  )

const cancelCrawl = HttpApiEndpoint.del("cancelCrawl", "/v1/crawls/:id")
  .setPath(CrawlPath)
  .addSuccess(HttpApiSchema.NoContent)
  .addError(ErrorStatus.NotFound)
  .addError(ErrorStatus.UnavailableError)
  .annotate(OpenApi.Summary, "Cancel or delete a crawl")
  .annotate(
    OpenApi.Description,
    "Stops a running crawl (every fetch in flight is interrupted; it stays readable as `cancelled` with what it " +
      "read), or deletes a finished one with its pages, giving them back to the workspace's limit."
  )

const providers = HttpApiEndpoint.get("providers", "/v1/providers")
  .addSuccess(Schema.Array(ProviderDescription))
  .annotate(OpenApi.Summary, "List the providers")
  .annotate(
    OpenApi.Description,
    "The composed providers: their capabilities and endpoints, whether keys are configured (a count, never a " +
      "key) and which capabilities each is the default for."
  )

const check = HttpApiEndpoint.post("check", "/v1/providers/:id/check")
  .setPath(Schema.Struct({ id: Schema.String.annotations({ description: "The provider id (tavily, exa, ...)" }) }))
  .addSuccess(ProviderChecks.ProviderCheck)
  .addError(ErrorStatus.UnavailableError)
  .annotate(OpenApi.Summary, "Check a provider")
  .annotate(
    OpenApi.Description,
    "Runs every capability of one provider once with a stable input and reports each capability's outcome, so " +
      "a broken key or endpoint shows before users meet it. A provider the server does not know answers 503."
  )

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
  .add(map)
  .add(startCrawl)
  .add(crawlStatus)
  .add(cancelCrawl)
  .add(providers)
  .add(check)
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Web search, page fetching, research, site maps and crawls (as jobs of the token's workspace), and provider " +
      "checks. Bearer token required."
  ) {}

/**
 * What `GET /` answers: the service's name and version and where its documentation is.
 *
 * @since 0.2.0
 * @category schemas
 */
export const ServiceInfo = Schema.Struct({
  name: Schema.String,
  version: Schema.String,
  description: Schema.String,
  links: Schema.Struct({
    docs: Schema.String.annotations({ description: "The interactive API reference" }),
    openapi: Schema.String.annotations({ description: "The OpenAPI document" }),
    health: Schema.String.annotations({ description: "Liveness and the shared stores' status" })
  })
}).annotations({ identifier: "ServiceInfo" })

/**
 * @since 0.2.0
 * @category models
 */
export type ServiceInfo = typeof ServiceInfo.Type

/**
 * The unauthenticated endpoints: the service's description at `/` and liveness.
 *
 * @since 0.1.0
 * @category constants
 */
export class System extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("root", "/")
      .addSuccess(ServiceInfo)
      .annotate(OpenApi.Summary, "Describe the service")
      .annotate(OpenApi.Description, "The service's name and version, and links to its documentation.")
  )
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "Check liveness")
      .annotate(
        OpenApi.Description,
        "Always 200 while the process serves: `ok`, or `degraded` when a shared store (Redis) does not answer."
      )
  )
  .annotate(OpenApi.Description, "The service's description and liveness; no token needed.") {}

// Each error component's description, by its name in the document.
const errorDescriptions: Record<string, string> = Object.fromEntries(
  [...EndpointErrors.capabilityErrors, ...EndpointErrors.managementErrors].flatMap((schema) =>
    Option.match(Option.all([AST.getIdentifierAnnotation(schema.ast), AST.getDescriptionAnnotation(schema.ast)]), {
      onNone: () => [],
      onSome: (pair) => [pair]
    })
  )
)

/**
 * The websearch HTTP API.
 *
 * @since 0.1.0
 * @category constants
 */
export class WebSearchApi extends HttpApi.make("websearch")
  .add(V1)
  .add(Management)
  .add(System)
  .annotate(OpenApi.Title, "websearch")
  .annotate(OpenApi.Version, version)
  .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/license/mit" })
  // Relative, so the document and the docs page's "try it" client address whichever host served them.
  .annotate(OpenApi.Servers, [{ url: "/", description: "The server that served this document" }])
  .annotate(
    OpenApi.Description,
    "Web search, page fetching and hosted research over many providers, with one contract and one error vocabulary."
  )
  .annotate(OpenApi.Transform, (spec) =>
    OpenApiHeaders.declareHeaders(OpenApiDocument.tidy(spec as OpenApi.OpenAPISpec, errorDescriptions))
  ) {}
