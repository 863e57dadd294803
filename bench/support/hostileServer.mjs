// The server child of bench/hostile.ts, in plain JavaScript so it runs as a user runs the library: plain node over
// the packages' built `dist` (no tsx loader, no source condition). `HOSTILE_SOURCES=1` makes bench/hostile.ts run
// it over the sources instead (`--conditions=@websearch/source --import tsx`), for a profile of the TypeScript.
//
//   node bench/support/hostileServer.mjs <pages-port> <token>
//
// It watches its own event loop (`monitorEventLoopDelay`, 10 ms resolution) and RSS and reports both over IPC.
import { monitorEventLoopDelay } from "node:perf_hooks"
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

const KiB = 1024
const MiB = 1024 * KiB
const pagesPort = Number(process.argv[2])
const token = process.argv[3]

const send = (message) => process.send(message)
process.on("disconnect", () => process.exit(0))
const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()
let sampled = 0
setInterval(() => {
  sampled = Math.max(sampled, process.memoryUsage.rss())
}, 20).unref()
process.on("message", (message) => {
  if (message.type === "reset") {
    loop.reset()
    sampled = process.memoryUsage.rss()
  } else if (message.type === "report") {
    sampled = Math.max(sampled, process.memoryUsage.rss())
    send({
      type: "report",
      report: {
        loopMaxMs: loop.max / 1e6,
        loopP99Ms: loop.percentile(99) / 1e6,
        sampledRssMiB: sampled / MiB,
        maxRssMiB: process.resourceUsage().maxRSS / KiB
      }
    })
  }
})

const live = WebSearch.layer(Fetch.layerWith(), SharedStores.layerMemory()).pipe(
  Layer.provideMerge(Settings.layer({ urlPolicy: { allowHosts: ["127.0.0.1"], allowPorts: [pagesPort] } }))
)
const server = WebSearchServer.layer({
  port: 0,
  tokens: [token],
  logRequests: false,
  rateLimit: { limit: 100_000_000, window: "1 minute" }
}).pipe(Layer.provide(live))
const scope = Effect.runSync(Scope.make())
const built = await Effect.runPromise(Layer.buildWithScope(server, scope))
const address = Context.get(built, HttpServer.HttpServer).address
send({
  type: "ready",
  port: address._tag === "TcpAddress" ? address.port : 0,
  idleRssMiB: process.memoryUsage.rss() / MiB
})
