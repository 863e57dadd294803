// The server the memory benches run (bench/hostile.ts's server child, cacheMemory.mjs), in plain JavaScript over
// the built packages: `WebSearchServer.layer` (bearer auth, request logging off, a rate limit no bench reaches) over
// `WebSearch.layer(Fetch.layerWith(fetch), SharedStores.layerMemory(stores))`, its URL policy allowing only
// 127.0.0.1 on the page server's port. Resolves to the port it listens on; it runs until the process ends.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as Fetch from "@websearch/node/Fetch"
import * as SharedStores from "@websearch/node/SharedStores"
import * as WebSearchServer from "@websearch/server/WebSearchServer"

export const serve = async ({ pagesPort, token, fetch, stores }) => {
  const live = WebSearch.layer(Fetch.layerWith(fetch), SharedStores.layerMemory(stores)).pipe(
    Layer.provideMerge(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"], allowPorts: [pagesPort] } }))
  )
  const server = WebSearchServer.layer({
    port: 0,
    tokens: [token],
    logRequests: false,
    rateLimit: { limit: 100_000_000, window: "1 minute" }
  }).pipe(Layer.provide(live))
  const built = await Effect.runPromise(Layer.buildWithScope(server, Effect.runSync(Scope.make())))
  const address = Context.get(built, HttpServer.HttpServer).address
  return address._tag === "TcpAddress" ? address.port : 0
}
