/**
 * Serving `WebSearchApi`: as routes to add to an existing `HttpLayerRouter` application (`routes`), or as a
 * complete Node HTTP server on a port (`layer`, `layerConfig`). Both serve the OpenAPI document at
 * `/openapi.json` and a small self-contained docs page at `/docs` (no script, no CDN), need a bearer token on every `/v1`
 * endpoint and apply the per-token rate limit through whichever `RateLimiter` store is provided.
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
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import * as Authorization from "./Authorization.js"
import * as DocsPage from "./internal/docsPage.js"
import * as ServerConfig from "./ServerConfig.js"
import { WebSearchApi } from "./WebSearchApi.js"
import * as WebSearchHandlers from "./WebSearchHandlers.js"

/**
 * Where the OpenAPI document and the docs page are served.
 *
 * @since 0.1.0
 * @category constants
 */
export const paths = { openapi: "/openapi.json", docs: "/docs" } as const

/**
 * The API's routes, handlers, OpenAPI document and docs page, to add to an existing `HttpLayerRouter`
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
  // Rendered once, when the routes are built: the page is static.
  Layer.unwrapEffect(
    Effect.sync(() =>
      HttpLayerRouter.add(
        "GET",
        paths.docs,
        Effect.succeed(HttpServerResponse.html(DocsPage.render(OpenApi.fromApi(WebSearchApi))))
      )
    )
  )
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
  return HttpLayerRouter.serve(routes, {
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
 * Like `layer`, with server settings read from the environment (`WEBSEARCH_API_TOKENS`, ...) and `options` laid
 * over them.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  options: Options = {}
): Layer.Layer<
  HttpServer.HttpServer | ServerConfig.ServerConfig,
  WebSearchError.Unavailable,
  WebSearch.WebSearch | Settings.Settings | RateLimiter.RateLimiter
> => serveWith(options, ServerConfig.layerConfig(options))

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
