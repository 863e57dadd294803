/**
 * Soak: `POST /v1/search` on the websearch server from many concurrent clients for a fixed time, against a local
 * Tavily mock, watching for errors, for throughput that decays over the run and for memory that keeps growing.
 *
 *   node --conditions=@websearch/source --import tsx bench/soak.ts [seconds=60] [clients=200]
 *   npm run bench -- soak
 *
 * Three processes. A server child (tsx, `--expose-gc`) runs the real server configured as in bench/server.ts
 * (bearer auth on, request logging off, a per-token rate limit and a provider budget far above the load), except
 * that its provider is the real `tavily` driver over undici (`NodeHttpClient.layerUndici`, as `websearch serve`
 * composes it) pointed at a mock child, a plain node:http Tavily in a process of its own. No `ResultCache` is
 * composed, so the server caches nothing (caching is opt-in), and every request still asks for a keyword of its
 * own, so every request reaches the mock. The server child reports `process.memoryUsage()` over IPC every second;
 * both children count the sockets their listener accepts and closes (the `net.server.socket` diagnostics channel).
 *
 * This process runs `clients` request loops, each on its own undici `Client` (one keep-alive connection per loop,
 * all connected before the timed load starts). A request counts as an error when the status is not 200, when the
 * request throws (socket errors, by code), or when the body is not a `WebSearchResponse` for exactly the keyword
 * that was asked (so an answer delivered to the wrong client counts).
 *
 * Definitions printed with the figures: warm-up is the first sixth of the run (10 s of 60); RSS at warm-up is the
 * server's RSS read at the end of the warm-up; RSS growth = (max RSS sampled in the last warm-up-long window of the
 * run − RSS at warm-up) / RSS at warm-up. Aim: zero errors and growth under 10 %.
 */
import { spawn, type ChildProcess } from "node:child_process"
import diagnostics from "node:diagnostics_channel"
import { createServer } from "node:http"
import type { Socket } from "node:net"
import { fileURLToPath } from "node:url"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { Client } from "undici"
import { WebSearchResponse } from "../packages/core/src/WebSearchResponse.js"
import { listen, mockResults, readBody, token } from "./server.js"

const providerKey = "soak-provider-key-0123456789"
const MiB = 1024 * 1024

// --- the children: the provider mock and the server ----------------------------------------------------------

interface Memory {
  readonly rss: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
}

interface SocketCount {
  readonly accepted: number
  readonly open: number
}

type ChildMessage =
  | { readonly type: "ready"; readonly port: number }
  | { readonly type: "sample"; readonly memory: Memory }
  | { readonly type: "gc"; readonly before: Memory; readonly after: Memory }
  | { readonly type: "sockets"; readonly count: SocketCount }

type ParentMessage = { readonly type: "gc" } | { readonly type: "sockets" }

const memory = (): Memory => {
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage()
  return { rss, heapUsed, heapTotal, external }
}

/**
 * What both children do besides serving: count the sockets their one listener accepts and closes, answer the
 * parent's questions, and exit with it.
 */
const childOf = () => {
  const send = (message: ChildMessage) => process.send!(message)
  const count = { accepted: 0, open: 0 }
  diagnostics.subscribe("net.server.socket", (message) => {
    count.accepted++
    count.open++
    ;(message as { readonly socket: Socket }).socket.once("close", () => count.open--)
  })
  process.on("message", (message: ParentMessage) => {
    if (message.type === "gc") {
      const before = memory()
      ;(globalThis as { gc?: () => void }).gc?.()
      send({ type: "gc", before, after: memory() })
    } else if (message.type === "sockets") {
      send({ type: "sockets", count: { ...count } })
    }
  })
  process.on("disconnect", () => process.exit(0))
  return send
}

// Tavily's /search, answering each query with results that name it (so the parent can tell whose answer it got).
// It runs in a process of its own, as a real provider would: in the server's process, its listener would accept
// one new connection per turn of an event loop the server keeps busy (libuv accepts one connection per listener
// per poll), and the driver's new connections would wait there for seconds.
const mockChild = async () => {
  const send = childOf()
  const mock = createServer((request, response) => {
    void readBody(request).then((text) => {
      if (request.headers.authorization !== `Bearer ${providerKey}`) {
        response.writeHead(401, { "content-type": "application/json" })
        return response.end(JSON.stringify({ detail: { error: "bad key" } }))
      }
      const query = (JSON.parse(text) as { query: string }).query
      response.writeHead(200, { "content-type": "application/json" })
      response.end(
        JSON.stringify({
          query,
          response_time: 0.01,
          results: mockResults.map((r, i) => ({ ...r, title: `${r.title} (${query})`, score: 1 - i / 10 }))
        })
      )
    })
  })
  send({ type: "ready", port: await listen(mock) })
}

const serveChild = async (mockPort: number) => {
  const send = childOf()
  const Effect = await import("effect/Effect")
  const Layer = await import("effect/Layer")
  const Context = await import("effect/Context")
  const Scope = await import("effect/Scope")
  const HttpServer = await import("@effect/platform/HttpServer")
  const NodeHttpClient = await import("@effect/platform-node/NodeHttpClient")
  const Settings = await import("../packages/core/src/Settings.js")
  const WebSearch = await import("../packages/core/src/WebSearch.js")
  const Tavily = await import("../packages/providers/src/Tavily.js")
  const WebSearchServer = await import("../packages/server/src/WebSearchServer.js")
  const live = WebSearch.layer(Tavily.layer).pipe(
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provideMerge(
      Settings.layer({
        defaults: { searchKeywords: "tavily" },
        providers: {
          tavily: {
            apiKeys: [providerKey],
            rateLimit: { limit: 1_000_000, window: "1 second" },
            capabilities: { searchKeywords: { apiHost: `http://127.0.0.1:${mockPort}` } }
          }
        },
        urlPolicy: { allowHosts: [`127.0.0.1:${mockPort}`] }
      })
    )
  )
  const server = WebSearchServer.layer({
    port: 0,
    tokens: [token],
    logRequests: false,
    rateLimit: { limit: 100_000_000, window: "1 minute" }
  }).pipe(Layer.provide(WebSearchServer.layerRateLimiterMemory), Layer.provide(live))
  // A scope as long as the process: the server stops when the parent ends the run.
  const scope = Effect.runSync(Scope.make())
  const built = await Effect.runPromise(Layer.buildWithScope(server, scope))
  const address = Context.get(built, HttpServer.HttpServer).address
  setInterval(() => send({ type: "sample", memory: memory() }), 1000)
  send({ type: "ready", port: address._tag === "TcpAddress" ? address.port : 0 })
}

// --- the parent: the clients --------------------------------------------------------------------------------

/** What one soak run measured. Times in milliseconds, memory in MiB, shares as fractions. */
export interface Figures {
  readonly seconds: number
  readonly clients: number
  readonly warmupSeconds: number
  readonly requests: number
  readonly succeeded: number
  readonly errors: {
    readonly total: number
    /** Answers with a status other than 200, by status. */
    readonly status: Record<string, number>
    /** Requests that threw (connection refused or reset, timeouts), by error code. */
    readonly socket: Record<string, number>
    /** 200 answers whose body is not a `WebSearchResponse`. */
    readonly undecodable: number
    /** `WebSearchResponse`s that do not answer the keyword asked (wrong inputs, results or failures). */
    readonly wrongAnswer: number
  }
  /** Successful requests per second over the whole run, and in the first window after warm-up and the last. */
  readonly requestsPerSecond: number
  readonly requestsPerSecondAfterWarmup: number
  readonly requestsPerSecondLastWindow: number
  readonly p50: number
  readonly p99: number
  /** Over the requests sent after the warm-up. */
  readonly steadyP50: number
  readonly steadyP99: number
  readonly maxLatency: number
  readonly rss: {
    readonly idleMiB: number
    readonly warmupMiB: number
    readonly lastWindowMaxMiB: number
    readonly maxMiB: number
    /** (lastWindowMaxMiB − warmupMiB) / warmupMiB. */
    readonly growth: number
    /** Max RSS in the first warm-up-long window after the warm-up: the first peak of the steady state. */
    readonly firstWindowMaxMiB: number
    /** (lastWindowMaxMiB − firstWindowMaxMiB) / firstWindowMaxMiB: peak against peak, past V8's heap sizing. */
    readonly peakGrowth: number
    readonly samples: ReadonlyArray<{
      readonly second: number
      readonly rssMiB: number
      readonly heapUsedMiB: number
      readonly heapTotalMiB: number
      readonly externalMiB: number
    }>
  }
  /**
   * Heap in use, and RSS, right after a forced full GC: at the end of warm-up (under load) and once the load has
   * stopped (clients still connected). Live memory, without the garbage V8 lets pile up between collections.
   */
  readonly afterGc: {
    readonly warmupHeapMiB: number
    readonly endHeapMiB: number
    readonly warmupRssMiB: number
    readonly endRssMiB: number
  }
  readonly sockets: {
    /** Connections the clients opened (`clients` when no connection was ever dropped and reopened). */
    readonly clientConnections: number
    /** How long the clients took to connect (each its first request, `GET /health`, all at once). */
    readonly connectMs: number
    readonly serverAccepted: number
    /** Server connections still open once every client has closed. */
    readonly serverOpenAfterClose: number
    /** Connections the driver's undici pool opened to the mock, and how many were open at the end. */
    readonly providerAccepted: number
    readonly providerOpenAtEnd: number
  }
}

const decodeResponse = Schema.decodeUnknownEither(WebSearchResponse)

type Verdict = "ok" | "undecodable" | "wrongAnswer"

/** Whether `text` is the server's success answer for exactly `keyword`, with the mock's results for it. */
const judge = (keyword: string, text: string): Verdict => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return "undecodable"
  }
  const decoded = decodeResponse(json)
  if (Either.isLeft(decoded)) return "undecodable"
  const answer = decoded.right
  const right =
    answer.inputs.length === 1 &&
    answer.inputs[0] === keyword &&
    answer.failures.length === 0 &&
    answer.results.length > 0 &&
    answer.results.every((r) => r.sourceInput === keyword && r.title.endsWith(`(${keyword})`))
  return right ? "ok" : "wrongAnswer"
}

const startChild = async (
  args: ReadonlyArray<string>
): Promise<{ readonly child: ChildProcess; readonly port: number }> => {
  const script = fileURLToPath(import.meta.url)
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--conditions=@websearch/source", "--import", "tsx", script, ...args],
    {
      // Whatever a child prints goes to stderr: bench/run.ts reads this process's stdout as JSON.
      stdio: ["ignore", 2, "inherit", "ipc"]
    }
  )
  const port = await new Promise<number>((resolve, reject) => {
    child.on("message", (message: ChildMessage) => {
      if (message.type === "ready") resolve(message.port)
    })
    child.once("exit", (code) => reject(new Error(`the soak child ${args.join(" ")} exited with ${code}`)))
  })
  return { child, port }
}

/** Asks the child for one answer of `type`. */
const ask = <T extends ChildMessage["type"]>(
  child: ChildProcess,
  type: T & ParentMessage["type"]
): Promise<Extract<ChildMessage, { type: T }>> =>
  new Promise((resolve) => {
    const on = (message: ChildMessage) => {
      if (message.type !== type) return
      child.off("message", on)
      resolve(message as Extract<ChildMessage, { type: T }>)
    }
    child.on("message", on)
    child.send({ type })
  })

const increment = (record: Record<string, number>, key: string) => {
  record[key] = (record[key] ?? 0) + 1
}

/** Runs `clients` request loops for `seconds` against a fresh server child and returns what it saw. */
export const measure = async (seconds = 60, clients = 200): Promise<Figures> => {
  const warmupSeconds = seconds / 6
  const mock = await startChild(["--mock"])
  const { child, port } = await startChild(["--serve", String(mock.port)]).catch((error: unknown) => {
    mock.child.kill()
    throw error
  })
  const received: Array<{ at: number; memory: Memory }> = []
  child.on("message", (message: ChildMessage) => {
    if (message.type === "sample") received.push({ at: performance.now(), memory: message.memory })
  })
  const connections = Array.from({ length: clients }, () => new Client(`http://127.0.0.1:${port}`, { pipelining: 1 }))
  let clientConnections = 0
  for (const client of connections) client.on("connect", () => clientConnections++)
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
  const status: Record<string, number> = {}
  const socket: Record<string, number> = {}
  let undecodable = 0
  let wrongAnswer = 0
  let requests = 0
  const latencies: Array<number> = []
  // Latencies of the requests sent after the warm-up, the server's steady state.
  const steady: Array<number> = []
  // Successful requests completed in each second of the run.
  const perSecond = new Array<number>(Math.ceil(seconds) + 1).fill(0)
  let warmupTimer: ReturnType<typeof setTimeout> | undefined
  try {
    // The idle process: the server built, nothing served yet.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const idle = received.at(-1)?.memory.rss ?? NaN
    // Every client connects first (GET /health, cheap), while the server is idle: a server saturated by the
    // connected clients would accept the latecomers one per turn of its event loop (libuv accepts one connection
    // per listener per poll), which measures connection bursts rather than the steady state this run is about.
    const connectStart = performance.now()
    await Promise.all(
      connections.map(async (client) => {
        const { statusCode, body } = await client.request({ method: "GET", path: "/health" })
        await body.text()
        if (statusCode !== 200) throw new Error(`GET /health answered ${statusCode}`)
      })
    )
    const connectMs = performance.now() - connectStart
    const loadStart = performance.now()
    const deadline = loadStart + seconds * 1000
    const warmupGc = new Promise<Extract<ChildMessage, { type: "gc" }>>((resolve) => {
      warmupTimer = setTimeout(() => resolve(ask(child, "gc")), warmupSeconds * 1000)
    })
    const loop = async (client: Client, index: number) => {
      for (let n = 0; performance.now() < deadline; n++) {
        // A keyword of its own for every request: nothing can be answered from a cache.
        const keyword = `effect typescript soak ${index}.${n}`
        const start = performance.now()
        requests++
        try {
          const response = await client.request({
            method: "POST",
            path: "/v1/search",
            headers,
            body: JSON.stringify({ keywords: [keyword] })
          })
          const text = await response.body.text()
          const end = performance.now()
          if (response.statusCode !== 200) {
            increment(status, String(response.statusCode))
            continue
          }
          const verdict = judge(keyword, text)
          if (verdict === "undecodable") undecodable++
          else if (verdict === "wrongAnswer") wrongAnswer++
          else {
            latencies.push(end - start)
            if (start - loadStart >= warmupSeconds * 1000) steady.push(end - start)
            perSecond[Math.min(perSecond.length - 1, Math.floor((end - loadStart) / 1000))]++
          }
        } catch (error) {
          increment(socket, String((error as { code?: unknown }).code ?? (error as Error).name))
        }
      }
    }
    await Promise.all(connections.map(loop))
    const elapsed = (performance.now() - loadStart) / 1000
    const warmup = await warmupGc
    const endGc = await ask(child, "gc")
    await Promise.all(connections.map((client) => client.close()))
    // The server sees each client's FIN a moment later.
    let counts = (await ask(child, "sockets")).count
    for (let i = 0; i < 50 && counts.open > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      counts = (await ask(child, "sockets")).count
    }
    const provider = (await ask(mock.child, "sockets")).count

    const window = (from: number, to: number) =>
      perSecond.slice(Math.floor(from), Math.floor(to)).reduce((a, b) => a + b, 0) / (Math.floor(to) - Math.floor(from))
    const percentile = (list: ReadonlyArray<number>, q: number) => {
      const sorted = Float64Array.from(list).sort()
      return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
    }
    const samples = received.map((s) => ({ second: (s.at - loadStart) / 1000, memory: s.memory }))
    const during = samples.filter((s) => s.second >= 0 && s.second <= seconds)
    const lastWindow = during.filter((s) => s.second >= seconds - warmupSeconds)
    const warmupMiB = warmup.before.rss / MiB
    const lastWindowMaxMiB = Math.max(...lastWindow.map((s) => s.memory.rss)) / MiB
    const firstWindow = during.filter((s) => s.second >= warmupSeconds && s.second < 2 * warmupSeconds)
    const firstWindowMaxMiB = Math.max(...firstWindow.map((s) => s.memory.rss)) / MiB
    const errors = {
      status,
      socket,
      undecodable,
      wrongAnswer,
      total:
        Object.values(status).reduce((a, b) => a + b, 0) +
        Object.values(socket).reduce((a, b) => a + b, 0) +
        undecodable +
        wrongAnswer
    }
    return {
      seconds,
      clients,
      warmupSeconds,
      requests,
      succeeded: latencies.length,
      errors,
      requestsPerSecond: latencies.length / elapsed,
      requestsPerSecondAfterWarmup: window(warmupSeconds, 2 * warmupSeconds),
      requestsPerSecondLastWindow: window(seconds - warmupSeconds, seconds),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      steadyP50: percentile(steady, 0.5),
      steadyP99: percentile(steady, 0.99),
      maxLatency: percentile(latencies, 1),
      rss: {
        idleMiB: idle / MiB,
        warmupMiB,
        lastWindowMaxMiB,
        maxMiB: Math.max(...during.map((s) => s.memory.rss)) / MiB,
        growth: (lastWindowMaxMiB - warmupMiB) / warmupMiB,
        firstWindowMaxMiB,
        peakGrowth: (lastWindowMaxMiB - firstWindowMaxMiB) / firstWindowMaxMiB,
        samples: during.map((s) => ({
          second: Math.round(s.second * 10) / 10,
          rssMiB: Math.round((s.memory.rss / MiB) * 10) / 10,
          heapUsedMiB: Math.round((s.memory.heapUsed / MiB) * 10) / 10,
          heapTotalMiB: Math.round((s.memory.heapTotal / MiB) * 10) / 10,
          externalMiB: Math.round((s.memory.external / MiB) * 10) / 10
        }))
      },
      afterGc: {
        warmupHeapMiB: warmup.after.heapUsed / MiB,
        endHeapMiB: endGc.after.heapUsed / MiB,
        warmupRssMiB: warmup.after.rss / MiB,
        endRssMiB: endGc.after.rss / MiB
      },
      sockets: {
        clientConnections,
        connectMs,
        serverAccepted: counts.accepted,
        serverOpenAfterClose: counts.open,
        providerAccepted: provider.accepted,
        providerOpenAtEnd: provider.open
      }
    }
  } finally {
    clearTimeout(warmupTimer)
    await Promise.allSettled(connections.map((client) => client.destroy()))
    for (const process of [child, mock.child]) {
      if (process.connected) process.disconnect()
      process.kill()
    }
  }
}

const mib = (n: number) => `${n.toFixed(1)} MiB`

/** The figures as the lines `bench/soak.ts` prints. */
export const summary = (f: Figures): Array<string> => [
  `${f.clients} clients (one undici Client, one keep-alive connection each) x ${f.seconds} s, POST /v1/search, ` +
    `one new keyword per request, real tavily driver over undici against a local mock in its own process, no result cache`,
  `requests  ${f.requests} sent, ${f.succeeded} good, errors ${f.errors.total} ` +
    `(status ${JSON.stringify(f.errors.status)}, socket ${JSON.stringify(f.errors.socket)}, ` +
    `undecodable ${f.errors.undecodable}, wrong answer ${f.errors.wrongAnswer})`,
  `rate      ${f.requestsPerSecond.toFixed(0)} req/s over the run; ${f.requestsPerSecondAfterWarmup.toFixed(0)} in ` +
    `[${f.warmupSeconds.toFixed(0)} s, ${(2 * f.warmupSeconds).toFixed(0)} s), ${f.requestsPerSecondLastWindow.toFixed(0)} ` +
    `in the last ${f.warmupSeconds.toFixed(0)} s`,
  `latency   p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms  max ${f.maxLatency.toFixed(0)} ms (good requests, ` +
    `whole run); after warm-up p50 ${f.steadyP50.toFixed(1)} ms  p99 ${f.steadyP99.toFixed(1)} ms`,
  `server RSS idle ${mib(f.rss.idleMiB)}, at end of warm-up (${f.warmupSeconds.toFixed(0)} s) ${mib(f.rss.warmupMiB)}, ` +
    `max in the last ${f.warmupSeconds.toFixed(0)} s ${mib(f.rss.lastWindowMaxMiB)}, max ${mib(f.rss.maxMiB)}`,
  `RSS growth ${(f.rss.growth * 100).toFixed(1)} % = (max RSS in the last ${f.warmupSeconds.toFixed(0)} s - RSS at end ` +
    `of warm-up) / RSS at end of warm-up (aim < 10 %)`,
  `peak to peak ${(f.rss.peakGrowth * 100).toFixed(1)} % = (max RSS in the last ${f.warmupSeconds.toFixed(0)} s - max ` +
    `RSS in [${f.warmupSeconds.toFixed(0)} s, ${(2 * f.warmupSeconds).toFixed(0)} s)) / the latter ` +
    `(${mib(f.rss.firstWindowMaxMiB)})`,
  `after a forced full GC: heap ${mib(f.afterGc.warmupHeapMiB)}, RSS ${mib(f.afterGc.warmupRssMiB)} at end of ` +
    `warm-up (under load); heap ${mib(f.afterGc.endHeapMiB)}, RSS ${mib(f.afterGc.endRssMiB)} once the load stopped`,
  `sockets   clients opened ${f.sockets.clientConnections} (all connected in ${f.sockets.connectMs.toFixed(0)} ms ` +
    `before the load), server accepted ${f.sockets.serverAccepted}, ` +
    `${f.sockets.serverOpenAfterClose} still open after the clients closed; driver -> mock connections ` +
    `${f.sockets.providerAccepted} opened, ${f.sockets.providerOpenAtEnd} open at the end (keep-alive pool)`,
  `RSS each second (MiB): ${f.rss.samples.map((s) => s.rssMiB.toFixed(0)).join(" ")}`,
  `heap total each second (MiB): ${f.rss.samples.map((s) => s.heapTotalMiB.toFixed(0)).join(" ")}`
]

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--mock") {
    await mockChild()
  } else if (process.argv[2] === "--serve") {
    await serveChild(Number(process.argv[3]))
  } else {
    const figures = await measure(Number(process.argv[2] ?? 60), Number(process.argv[3] ?? 200))
    for (const line of summary(figures)) console.log(line)
  }
}
