import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import * as ServerConfig from "../src/ServerConfig.js"
import * as WebSearchServer from "../src/WebSearchServer.js"
import * as Support from "./support/server.js"

describe("mounting the API in an existing Effect HTTP application", () => {
  it.scoped("WebSearchServer.routes sits beside the application's own routes", () =>
    Effect.gen(function* () {
      const { driver } = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
      const Live = Support.live([driver], {
        defaults: { searchKeywords: "tavily" },
        providers: { tavily: { apiKeys: [Support.canaryKey] } }
      })
      // The application's own route, and its own server.
      const Hello = HttpLayerRouter.add("GET", "/hello", HttpServerResponse.text("hello from the app"))
      const App = Layer.mergeAll(Hello, WebSearchServer.routes).pipe(
        Layer.provide(ServerConfig.layer({ tokens: [Support.token] })),
        Layer.provide(WebSearchServer.layerRateLimiterMemory),
        Layer.provide(Live)
      )
      const server = HttpLayerRouter.serve(App, { disableLogger: true, disableListenLog: true }).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
      )
      const base = Support.baseUrl(Context.get(yield* Layer.build(server), HttpServer.HttpServer))
      const hello = yield* Effect.promise(() => fetch(`${base}/hello`))
      expect(yield* Effect.promise(() => hello.text())).toBe("hello from the app")
      const searched = yield* Effect.promise(() => Support.post(`${base}/v1/search`, { keywords: ["mounted"] }))
      expect(searched.status).toBe(200)
      expect(yield* Effect.promise(() => searched.json())).toMatchObject({ inputs: ["mounted"] })
      expect((yield* Effect.promise(() => fetch(`${base}/v1/providers`))).status).toBe(401)
      expect((yield* Effect.promise(() => fetch(`${base}/openapi.json`))).status).toBe(200)
      // The API answers its own paths in its words (a wrong method, an unknown /v1 path); the application's
      // other paths stay the application's (the router's plain 404).
      const wrongMethod = yield* Effect.promise(() => fetch(`${base}/v1/search`))
      expect([wrongMethod.status, wrongMethod.headers.get("allow")]).toEqual([405, "POST"])
      const unknownApiPath = yield* Effect.promise(() => fetch(`${base}/v1/nothing`))
      expect([unknownApiPath.status, yield* Effect.promise(() => unknownApiPath.json())]).toMatchObject([
        404,
        { _tag: "RequestFailed", reason: "not_found" }
      ])
      const appPath = yield* Effect.promise(() => fetch(`${base}/goodbye`))
      expect([appPath.status, yield* Effect.promise(() => appPath.text())]).toEqual([404, ""])
    })
  )
})
