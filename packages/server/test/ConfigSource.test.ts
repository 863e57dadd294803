/**
 * Where the server settings come from: `ServerConfig.config` (the environment's names, through whichever
 * `ConfigProvider` the application installed) by default, or a `Config` the application gives
 * `ServerConfig.layerConfig` / `WebSearchServer.layerConfig` (its own names), with options laid over it.
 */
import * as HttpServer from "@effect/platform/HttpServer"
import { describe, expect, it } from "@effect/vitest"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Authorization from "../src/internal/authorization.js"
import * as ServerConfig from "../src/ServerConfig.js"
import * as WebSearchServer from "../src/WebSearchServer.js"
import * as Support from "./support/server.js"

const envToken = "env-token-0123456789abcdef"
const ownToken = "own-token-0123456789abcdef"

const provider = (entries: ReadonlyArray<readonly [string, string]>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(entries)))

// The application's own names for two settings.
const own = Config.all({
  token: Config.redacted("SEARCH_API_TOKEN"),
  bodyLimit: Config.integer("SEARCH_BODY_LIMIT")
}).pipe(Config.map(({ bodyLimit, token }): ServerConfig.Options => ({ tokens: [token], maxBodyBytes: bodyLimit })))

const settingsOf = (layer: Layer.Layer<ServerConfig.ServerConfig, unknown>) =>
  Effect.map(Layer.build(layer), (context) => Context.get(context, ServerConfig.ServerConfig))

describe("the server settings' source", () => {
  it.scoped("layerConfig() reads the environment's names through the installed ConfigProvider", () =>
    Effect.gen(function* () {
      const settings = yield* settingsOf(
        ServerConfig.layerConfig().pipe(
          Layer.provide(
            provider([
              ["WEBSEARCH_API_TOKENS", envToken],
              ["WEBSEARCH_SERVER_MAX_BODY_BYTES", "4096"]
            ])
          )
        )
      )
      expect(settings.maxBodyBytes).toBe(4096)
      expect(Authorization.matches(ServerConfig.digest(envToken), settings.tokenDigests)).toBe(true)
    })
  )

  it.scoped("layerConfig(config) reads the application's own Config instead", () =>
    Effect.gen(function* () {
      const settings = yield* settingsOf(
        ServerConfig.layerConfig(own).pipe(
          Layer.provide(
            provider([
              ["SEARCH_API_TOKEN", ownToken],
              ["SEARCH_BODY_LIMIT", "8192"],
              // The environment's names are not read when another Config is given.
              ["WEBSEARCH_API_TOKENS", envToken]
            ])
          )
        )
      )
      expect(settings.maxBodyBytes).toBe(8192)
      expect(settings.tokenDigests).toHaveLength(1)
      expect(Authorization.matches(ServerConfig.digest(ownToken), settings.tokenDigests)).toBe(true)
    })
  )

  it.scoped("a malformed value of the given Config fails the layer with invalid_config naming it, not quoting it", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        settingsOf(
          ServerConfig.layerConfig(own).pipe(
            Layer.provide(
              provider([
                ["SEARCH_API_TOKEN", ownToken],
                ["SEARCH_BODY_LIMIT", "lots"]
              ])
            )
          )
        )
      )
      expect(exit).toMatchObject({
        _tag: "Failure",
        cause: { error: { _tag: "Unavailable", reason: "invalid_config" } }
      })
      if (Exit.isFailure(exit)) {
        expect(JSON.stringify(exit.cause)).toContain("SEARCH_BODY_LIMIT")
        expect(JSON.stringify(exit.cause)).not.toContain(ownToken)
      }
    })
  )

  it.scoped("WebSearchServer.layerConfig(options, config) serves with the Config's tokens and the options' too", () =>
    Effect.gen(function* () {
      const tavily = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
      const context = yield* WebSearchServer.layerConfig(
        { port: 0, host: "127.0.0.1", logRequests: false, tokens: [Support.token] },
        own
      ).pipe(
        Layer.provide(WebSearchServer.layerRateLimiterMemory),
        Layer.provide(
          Support.live([tavily.driver], {
            defaults: { searchKeywords: "tavily" },
            providers: { tavily: { apiKeys: ["composed-key-0123"] } }
          })
        ),
        Layer.provide(
          provider([
            ["SEARCH_API_TOKEN", ownToken],
            ["SEARCH_BODY_LIMIT", "2048"],
            ["WEBSEARCH_API_TOKENS", envToken]
          ])
        ),
        Layer.build
      )
      expect(Context.get(context, ServerConfig.ServerConfig).maxBodyBytes).toBe(2048)
      const base = Support.baseUrl(Context.get(context, HttpServer.HttpServer))
      const status = (token: string) =>
        Effect.promise(() =>
          fetch(`${base}/v1/providers`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)
        )
      expect(yield* status(ownToken)).toBe(200)
      expect(yield* status(Support.token)).toBe(200)
      expect(yield* status(envToken)).toBe(401)
    })
  )
})
