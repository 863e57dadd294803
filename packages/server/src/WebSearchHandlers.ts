/**
 * The implementations of `WebSearchApi`'s groups, as Layers. They call the core capability services, so they
 * serve whatever providers and settings the application composed. Request bodies are read under the configured
 * byte cap and decoded with the endpoint's declared payload schema by core's decoder for it, so a bad body gets
 * the same `RequestFailed/invalid_input` error (400) the library raises, naming the field at fault; answers are
 * values of the declared success schema, which the platform encodes them with. A client that disconnects
 * interrupts the handler, which interrupts every provider call in flight.
 *
 * @since 0.1.0
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type { Capability } from "@websearch/core/Capability"
import * as CrawlJobs from "@websearch/core/CrawlJobs"
import * as FetchUrls from "@websearch/core/FetchUrls"
import * as MapSite from "@websearch/core/MapSite"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as Research from "@websearch/core/Research"
import * as ResultCache from "@websearch/core/ResultCache"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as SiteRequest from "@websearch/core/SiteRequest"
import * as StoreHealth from "@websearch/core/StoreHealth"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as WebSearchRequest from "@websearch/core/WebSearchRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Caller, retryAfterHeader } from "./internal/authorization.js"
import * as OpenApiHeaders from "./internal/openApiHeaders.js"
import type * as Payload from "./internal/payload.js"
import * as RequestBody from "./internal/requestBody.js"
import * as WorkspaceInstances from "./internal/workspaceInstances.js"
import * as ProviderManagementHandlers from "./internal/providerManagementHandlers.js"
import { version } from "./internal/version.js"
import * as ServerConfig from "./ServerConfig.js"
import * as WebSearchApi from "./WebSearchApi.js"

// A store that cannot answer a read is unavailable, whatever it said: the capability's own errors stay its own.
const storeRead = <A, R>(
  effect: Effect.Effect<A, WebSearchError.Unavailable | WebSearchError.RequestFailed, R>
): Effect.Effect<A, WebSearchError.Unavailable, R> =>
  Effect.catchTag(effect, "RequestFailed", (error) =>
    Effect.fail(WebSearchError.unavailable("store_unavailable", `the provider store failed: ${error.message}`))
  )

const withErrorHeaders = <A, E extends WebSearchError.WebSearchError, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.tapError(effect, (error) =>
    error.retryAfter === undefined ? Effect.void : retryAfterHeader(error.retryAfter)
  )

const withCacheHeader = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(ResultCache.track(effect), ([value, stats]) =>
    Option.match(ResultCache.status(stats), {
      onNone: () => Effect.succeed(value),
      onSome: (status) =>
        Effect.as(
          HttpApp.appendPreResponseHandler((_request, response) =>
            Effect.succeed(HttpServerResponse.setHeader(response, OpenApiHeaders.cacheHeader, status))
          ),
          value
        )
    })
  )

const span =
  (name: string, capability: Capability | undefined) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Caller> =>
    Effect.flatMap(Caller, (caller) =>
      Effect.withSpan(effect, `websearch.server.${name}`, {
        // A stack trace per request span costs more than the rest of the server's own work.
        captureStackTrace: false,
        attributes: { "websearch.caller": caller.id, ...(capability ? { "websearch.capability": capability } : {}) }
      })
    )

// The decoders of the body endpoints' declared payloads (core's, in the library's words).
const payloads: {
  readonly [Name in "search" | "fetch" | "research" | "map" | "startCrawl"]: Payload.Of<
    HttpApiEndpoint.HttpApiEndpoint.WithName<HttpApiGroup.HttpApiGroup.Endpoints<typeof WebSearchApi.V1>, Name>
  >
} = {
  search: WebSearchRequest.decodeSearchKeywords,
  fetch: WebSearchRequest.decodeFetchUrls,
  research: WebSearchRequest.decodeResearch,
  map: SiteRequest.decodeMapSite,
  startCrawl: SiteRequest.decodeCrawlSite
}

/**
 * The `v1` group: search, fetch, research, providers and checks.
 */
const layerV1 = HttpApiBuilder.group(WebSearchApi.WebSearchApi, "v1", (handlers) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig.ServerConfig
    const search = yield* SearchKeywords.SearchKeywords
    const fetch = yield* FetchUrls.FetchUrls
    const research = yield* Research.Research
    const checks = yield* ProviderChecks.ProviderChecks
    const registry = yield* ProviderRegistry.ProviderRegistry
    const map = yield* MapSite.MapSite
    // The application's crawl jobs (on Redis with shared stores), else this process's, with the server's limits.
    const jobs = yield* Effect.flatMap(Effect.serviceOption(CrawlJobs.CrawlJobs), (given) =>
      Option.isSome(given)
        ? Effect.succeed(given.value)
        : Effect.map(
            Layer.build(CrawlJobs.layerMemory({ maxRunning: config.maxCrawlJobs, maxPages: config.maxCrawlPages })),
            (context) => Context.get(context, CrawlJobs.CrawlJobs)
          )
    )
    // Each call runs in its token's workspace: what the pipeline remembers (the result cache, the page store) is
    // that workspace's own, for built-in providers too. With a provider store the call also gets the workspace's
    // instances (one revision check per request).
    const instances = Option.map(yield* Effect.serviceOption(ProviderStore.ProviderStore), WorkspaceInstances.make)
    const withWorkspace = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(Caller, (caller) =>
        Option.isNone(instances)
          ? ProviderInstance.withInstances(effect, caller.workspace, [])
          : Effect.flatMap(storeRead(instances.value(caller.workspace)), (current) =>
              ProviderInstance.withInstances(effect, caller.workspace, current)
            )
      )
    // When no cache was composed there is no header to set, so the per-request tracking is left out.
    const cached = Option.isSome(registry.services.resultCache)
    const withCache = <A, E, R>(effect: Effect.Effect<A, E, R>) => (cached ? withCacheHeader(effect) : effect)
    // The body is read (under the byte cap) first, and decoded with the endpoint's declared payload inside the
    // workspace, after its store is read: as before the decoding moved here, a store that is down answers 503 even
    // to a body that does not decode.
    const decoded = <A, B, E, R>(
      request: HttpServerRequest.HttpServerRequest,
      capability: Capability,
      decode: Payload.Decoder<A>,
      answer: (input: A) => Effect.Effect<B, E, R>
    ) =>
      Effect.flatMap(RequestBody.readJson(request, config.maxBodyBytes, capability), (body) =>
        withWorkspace(Effect.flatMap(decode(body), answer))
      )
    // Each answer is a value of the endpoint's success schema, which the platform encodes with that schema.
    return handlers
      .handleRaw("search", ({ request }) =>
        decoded(request, "searchKeywords", payloads.search, (input) => withCache(search.searchKeywords(input))).pipe(
          withErrorHeaders,
          span("search", "searchKeywords")
        )
      )
      .handleRaw("fetch", ({ request }) =>
        decoded(request, "fetchUrls", payloads.fetch, (input) => withCache(fetch.fetchUrls(input))).pipe(
          withErrorHeaders,
          span("fetch", "fetchUrls")
        )
      )
      .handleRaw("research", ({ request }) =>
        decoded(request, "research", payloads.research, (input) => research.research(input)).pipe(
          withErrorHeaders,
          span("research", "research")
        )
      )
      .handleRaw("map", ({ request }) =>
        decoded(request, "mapSite", payloads.map, (input) => map.mapSite(input)).pipe(
          withErrorHeaders,
          span("map", "mapSite")
        )
      )
      .handleRaw("startCrawl", ({ request }) =>
        decoded(request, "crawlSite", payloads.startCrawl, (input) =>
          Effect.flatMap(Caller, (caller) => jobs.start(caller.workspace, input))
        ).pipe(withErrorHeaders, span("startCrawl", "crawlSite"))
      )
      .handle("crawlStatus", ({ path, urlParams }) =>
        Effect.flatMap(Caller, (caller) => jobs.status(caller.workspace, path.id, urlParams)).pipe(
          withErrorHeaders,
          span("crawlStatus", "crawlSite")
        )
      )
      .handle("cancelCrawl", ({ path }) =>
        Effect.flatMap(Caller, (caller) => jobs.cancel(caller.workspace, path.id)).pipe(
          withErrorHeaders,
          span("cancelCrawl", "crawlSite")
        )
      )
      .handle("providers", () => Effect.sync(() => registry.describe()).pipe(span("providers", undefined)))
      .handle("check", ({ path }) =>
        withWorkspace(checks.check(path.id)).pipe(withErrorHeaders, span("check", undefined))
      )
  })
)

const serviceInfo: WebSearchApi.ServiceInfo = {
  name: "websearch",
  version,
  description:
    "Web search, page fetching and hosted research over many providers. Every /v1 call needs a bearer token.",
  links: { docs: "/docs", openapi: "/openapi.json", health: "/health" }
}

/**
 * The `system` group: `GET /` (the service's name, version and links) and `GET /health`, with the status of the shared stores (`StoreHealth`) when there are any.
 */
const layerSystem = HttpApiBuilder.group(WebSearchApi.WebSearchApi, "system", (handlers) =>
  Effect.map(StoreHealth.StoreHealth, (health) =>
    handlers
      .handle("root", () => Effect.succeed(serviceInfo))
      .handle("health", () =>
        Effect.map(health.check, (stores): WebSearchApi.Health => {
          if (stores.length === 0) return { status: "ok" }
          return {
            status: stores.every((store) => store.status === "ok") ? "ok" : "degraded",
            stores: Object.fromEntries(
              stores.map((store) => [
                store.name,
                store.message === undefined
                  ? { status: store.status }
                  : { status: store.status, message: store.message }
              ])
            )
          }
        })
      )
  )
)

/**
 * Every group (the capability endpoints, provider management, the system endpoints), given the capability
 * services, settings and server settings; a `ProviderStore` in context, when there is one, keeps the instances.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.mergeAll(layerV1, ProviderManagementHandlers.layer, layerSystem)
