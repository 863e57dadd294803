/**
 * Serving `WebSearchApi`: as routes to add to an existing `HttpLayerRouter` application (`routes`), or as a
 * complete Node HTTP server on a port (`layer`, `layerConfig`). Both serve the OpenAPI document at
 * `/openapi.json`, an interactive API reference at `/docs` (Scalar, its script bundled: no CDN) and the service's
 * name, version and links at `/`, need a bearer token on every `/v1` endpoint and apply the per-token rate limit
 * through whichever `RateLimiter` store is provided.
 *
 * ```ts
 * const Server = WebSearchServer.layerConfig({ port: 8080 }).pipe(
 *   Layer.provide(WebSearchServer.layerRateLimiterMemory),
 *   Layer.provide(Live) // WebSearch.layer + providers + Settings
 * )
 * Layer.launch(Server).pipe(NodeRuntime.runMain)
 * ```
 *
 * @since 0.1.0
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import type * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as ProviderStore from "@websearch/core/ProviderStore"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { createServer } from "node:http"
import * as Authorization from "./internal/authorization.js"
import * as RouteNotFound from "./internal/routeNotFound.js"
import * as ServerConfig from "./ServerConfig.js"
import { WebSearchApi } from "./WebSearchApi.js"
import * as WebSearchHandlers from "./WebSearchHandlers.js"

/**
 * Where the OpenAPI document and the API reference are served.
 *
 * @since 0.1.0
 * @category constants
 */
export const paths = { openapi: "/openapi.json", docs: "/docs" } as const

// Scalar's own options beyond the platform's typed subset are passed through as they are.
const scalar: HttpApiScalar.ScalarConfig & {
  readonly authentication: { readonly preferredSecurityScheme: string }
} = {
  defaultOpenAllTags: true,
  // Its default fonts would load from Scalar's servers.
  withDefaultFonts: false,
  // Every /v1 call needs the token, so "try it" starts with the bearer scheme selected.
  authentication: { preferredSecurityScheme: "bearer" }
}

// Scalar's API reference with its bundled script inlined: nothing loads from a CDN, so it works offline. The
// document is embedded in the page, and its relative `servers` entry sends "try it" requests to this host. The
// module holds Scalar's 3.4 MB script, and the page built from it a second copy with the document: both are
// loaded and built on the first request for the page, not when the server starts (most servers never serve it).
// The page's own router answers any path, so the route works under whatever prefix it is mounted at.
const docs = Layer.scopedDiscard(
  Effect.gen(function* () {
    const router = yield* HttpLayerRouter.HttpRouter
    const scope = yield* Effect.scope
    const page = yield* Effect.cached(
      Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
        Effect.flatMap((HttpApiScalar) =>
          HttpLayerRouter.toHttpEffect(
            HttpApiScalar.layerHttpLayerRouter({ api: WebSearchApi, path: "/*", scalar })
          ).pipe(
            // A router of its own: in the server's memo map, the page's router would be the server's, and the
            // page route would answer itself.
            Effect.provideServiceEffect(Layer.CurrentMemoMap, Layer.makeMemoMap)
          )
        ),
        Scope.extend(scope)
      )
    )
    yield* router.add("GET", paths.docs, Effect.flatten(page))
  })
)

const apiRoutes = RouteNotFound.routesOf(WebSearchApi, [paths.openapi, paths.docs])

/**
 * The API's routes, handlers, OpenAPI document and API reference, to add to an existing `HttpLayerRouter`
 * application. Needs the capability services and settings (`WebSearch.layer` with providers), `ServerConfig` and
 * a `RateLimiter`.
 *
 * @since 0.1.0
 * @category layers
 */
export const routes = Layer.mergeAll(
  HttpLayerRouter.addHttpApi(WebSearchApi, { openapiPath: paths.openapi }).pipe(
    Layer.provide(WebSearchHandlers.layer),
    Layer.provide(Authorization.layer)
  ),
  docs,
  // A wrong method on one of these paths is 405 with Allow, an unknown /v1 path 404, both as typed errors.
  RouteNotFound.layer(apiRoutes, false)
)

/**
 * Where and how to listen, on top of the server settings.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options extends ServerConfig.Options {
  /** Port to listen on; 0 picks a free one (read it from `HttpServer.address`). Default 8080. */
  readonly port?: number | undefined
  /** Address to bind. Default 127.0.0.1: exposing the server is an explicit choice. */
  readonly host?: string | undefined
  /** Log one line per request (at Info). Default true. */
  readonly logRequests?: boolean | undefined
  /**
   * Where the workspaces' provider instances are kept (`ProviderStoreSql.layerConfig()` of `@websearch/node`,
   * or `ProviderStore.layerMemory`); a `ProviderStore` already in context serves too. Without one, searches use
   * the composed providers only and the management routes answer 503.
   *
   * @since 0.2.0
   */
  readonly providerStore?: Layer.Layer<ProviderStore.ProviderStore, WebSearchError.Unavailable> | undefined
}

const serveWith = (
  options: Options,
  config: Layer.Layer<ServerConfig.ServerConfig, WebSearchError.Unavailable>
): Layer.Layer<
  HttpServer.HttpServer | ServerConfig.ServerConfig,
  WebSearchError.Unavailable,
  WebSearch.WebSearch | Settings.Settings | RateLimiter.RateLimiter
> => {
  const port = options.port ?? 8080
  const host = options.host ?? "127.0.0.1"
  const listen = NodeHttpServer.layer(createServer, { port, host }).pipe(
    Layer.mapError((error) =>
      WebSearchError.unavailable(
        "invalid_config",
        `cannot listen on ${host}:${port}: ${String((error.cause as { message?: unknown } | undefined)?.message ?? error.cause)}`
      )
    )
  )
  const api = options.providerStore === undefined ? routes : Layer.provide(routes, options.providerStore)
  // The whole server is the API's: any path no route takes is answered in its words.
  const served = Layer.merge(api, RouteNotFound.layer(apiRoutes, true))
  return HttpLayerRouter.serve(served, {
    disableListenLog: true,
    disableLogger: options.logRequests === false
  }).pipe(Layer.provideMerge(config), Layer.provideMerge(listen))
}

/**
 * A Node HTTP server for the API, with server settings from `options` only. Fails to build with
 * `Unavailable/invalid_config` when no token is given and `insecureNoAuth` is not set, or when it cannot listen.
 * Provides `HttpServer` (read the bound address from it) and the validated `ServerConfig`.
 *
 * @example
 * ```ts
 * import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
 * import * as Settings from "@websearch/core/Settings"
 * import * as WebSearch from "@websearch/core/WebSearch"
 * import * as Fetch from "@websearch/node/Fetch"
 * import * as WebSearchServer from "@websearch/server/WebSearchServer"
 * import * as Layer from "effect/Layer"
 *
 * // The HTTP API on port 8080; every /v1 call needs one of the bearer tokens.
 * const Server = WebSearchServer.layer({ port: 8080, tokens: ["a-long-random-token"] }).pipe(
 *   Layer.provide(WebSearchServer.layerRateLimiterMemory),
 *   Layer.provide(WebSearch.layer(Fetch.layer)),
 *   Layer.provide(Settings.layerConfig())
 * )
 *
 * export const main = () => Layer.launch(Server).pipe(NodeRuntime.runMain)
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<
  HttpServer.HttpServer | ServerConfig.ServerConfig,
  WebSearchError.Unavailable,
  WebSearch.WebSearch | Settings.Settings | RateLimiter.RateLimiter
> => serveWith(options, ServerConfig.layer(options))

/**
 * Like `layer`, with server settings read from `config` (default `ServerConfig.config`: the environment's
 * `WEBSEARCH_API_TOKENS`, ...) and `options` laid over them (tokens are added, other fields replace).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  options: Options = {},
  config: Config.Config<ServerConfig.Options> = ServerConfig.config
): Layer.Layer<
  HttpServer.HttpServer | ServerConfig.ServerConfig,
  WebSearchError.Unavailable,
  WebSearch.WebSearch | Settings.Settings | RateLimiter.RateLimiter
> =>
  serveWith(
    options,
    Layer.effect(ServerConfig.ServerConfig, Effect.flatMap(ServerConfig.fromConfig(options, config), ServerConfig.make))
  )

/**
 * An in-process `RateLimiter` (one process's quotas). With several replicas, provide a Redis-backed
 * `RateLimiter` instead so they share quotas.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerRateLimiterMemory: Layer.Layer<RateLimiter.RateLimiter> = RateLimiter.layer.pipe(
  Layer.provide(RateLimiter.layerStoreMemory)
)
