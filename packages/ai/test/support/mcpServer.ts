/**
 * The MCP server over streamable HTTP on a free loopback port for the current scope, with the given settings and
 * websearch layer (the fixture drivers unless another is given): its endpoint's URL and port.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as Settings from "@websearch/core/Settings"
import type * as WebSearch from "@websearch/core/WebSearch"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import * as WebSearchMcp from "../../src/WebSearchMcp.js"
import { drivers, live } from "./fixtures.js"

export const serveHttp = (
  security: WebSearchMcp.HttpSecurity = {},
  services: Layer.Layer<WebSearch.WebSearch | Settings.Settings, WebSearchError.Unavailable> = live(drivers().drivers)
) =>
  Effect.gen(function* () {
    const layer = Layer.mergeAll(
      WebSearchMcp.layerHttp({ name: "websearch-test", path: "/mcp", ...security }),
      HttpRouter.Default.serve()
    ).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
      Layer.provide(services)
    )
    const address = Context.get(yield* Layer.build(layer), HttpServer.HttpServer).address
    const port = address._tag === "TcpAddress" ? address.port : 0
    return { url: `http://127.0.0.1:${port}/mcp`, port }
  })
