/**
 * `websearch serve`: the websearch HTTP API (`@websearch/server`) on `--host` (default 127.0.0.1) and `--port`
 * (default 8080; 0 picks a free port), with the settings and providers of the other commands. Bearer tokens come
 * from `WEBSEARCH_API_TOKENS`; without one the server refuses to start unless `--insecure-no-auth` is given. The
 * result cache, provider quotas and per-token rate limits live in memory, or on Redis when `REDIS_URL` is set so
 * that several replicas share them. With `WEBSEARCH_PROVIDER_STORE_KEY` (and optionally `WEBSEARCH_PROVIDER_STORE`)
 * set, the workspaces' provider instances are kept in that store and managed through the API. Crawl jobs
 * (`POST /v1/crawls`) run in memory, or on Redis with `REDIS_URL` (every replica reads pages of every crawl and
 * answers for any job), within `WEBSEARCH_SERVER_MAX_CRAWL_JOBS` and `WEBSEARCH_SERVER_MAX_CRAWL_PAGES` per
 * workspace. Prints the listening URL on stderr and runs until interrupted.
 *
 * @since 0.1.0
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as HttpServer from "@effect/platform/HttpServer"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as ProviderStoreSql from "@websearch/node/ProviderStoreSql"
import * as ServerConfig from "@websearch/server/ServerConfig"
import * as WebSearchServer from "@websearch/server/WebSearchServer"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Cli from "./cli.js"
import type * as Io from "./io.js"

const urlOf = (address: HttpServer.Address): string =>
  address._tag === "TcpAddress"
    ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`
    : `unix:${address.path}`

/**
 * Runs `websearch serve` with the capability services in context, until interrupted. `live` is already provided
 * by `Main`; it is accepted for symmetry with `mcp`.
 *
 * @since 0.1.0
 * @category utils
 */
export const run = (
  command: Extract<Cli.Command, { _tag: "Serve" }>,
  io: Io.Io,
  _live: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable>
): Effect.Effect<number, WebSearchError.WebSearchError, WebSearch.WebSearch | Settings.Settings> =>
  Effect.scoped(
    Effect.gen(function* () {
      const services = yield* Effect.context<WebSearch.WebSearch | Settings.Settings>()
      // The per-token limiter shares the store of the cache and quotas that `Main` composed for `serve`.
      const limiter = yield* Effect.serviceOption(RateLimiter.RateLimiter)
      // Provider management (and per-workspace instances) when a store is configured: its key or its URL set.
      const storeConfigured = yield* Effect.orElseSucceed(
        Config.all([
          Config.option(Config.string(ProviderStoreSql.keyVariable)),
          Config.option(Config.string(ProviderStoreSql.urlVariable))
        ]),
        () => [Option.none(), Option.none()] as const
      ).pipe(Effect.map(([key, url]) => Option.isSome(key) || Option.isSome(url)))
      // Built once: the server's management routes and the crawl jobs (a crawl on Redis reads its workspace's
      // instances on whichever replica reads its pages) share it.
      const store = storeConfigured ? Option.some(yield* Layer.build(ProviderStoreSql.layerConfig())) : Option.none()
      // Crawl jobs where the shared stores are (Redis with REDIS_URL, else memory), within the server's limits.
      const limits = yield* ServerConfig.fromConfig()
      const SharedStores = yield* Effect.promise(() => import("@websearch/node/SharedStores"))
      const crawlJobs = yield* Layer.build(
        SharedStores.layerCrawlJobs({ maxRunning: limits.maxCrawlJobs, maxPages: limits.maxCrawlPages }).pipe(
          Layer.provide(
            Layer.succeedContext(
              Option.match(store, { onNone: () => services, onSome: (value) => Context.merge(services, value) })
            )
          )
        )
      )
      const server = WebSearchServer.layerConfig({
        port: command.port,
        host: command.host,
        // The flag can only loosen: without it, WEBSEARCH_INSECURE_NO_AUTH still applies.
        ...(command.insecureNoAuth ? { insecureNoAuth: true } : {}),
        logRequests: command.verbose,
        ...(Option.isSome(store) ? { providerStore: Layer.succeedContext(store.value) } : {})
      }).pipe(
        Layer.provide(
          Option.match(limiter, {
            onNone: () => RateLimiter.layer.pipe(Layer.provide(RateLimiter.layerStoreMemory)),
            onSome: (value) => Layer.succeed(RateLimiter.RateLimiter, value)
          })
        ),
        Layer.provide(Layer.succeedContext(Context.merge(services, crawlJobs)))
      )
      const context = yield* Layer.build(server)
      const url = urlOf(Context.get(context, HttpServer.HttpServer).address)
      const config = Context.get(context, ServerConfig.ServerConfig)
      if (config.insecureNoAuth && config.tokenDigests.length === 0) {
        io.stderr(
          "websearch serve: WARNING: no authentication (--insecure-no-auth); anyone who can connect may use it\n"
        )
      }
      io.stderr(`websearch serve: listening on ${url} (docs: ${url}/docs, OpenAPI: ${url}/openapi.json)\n`)
      return yield* Effect.never
    })
  ).pipe(Effect.withSpan("websearch.cli.serve"))
