/**
 * `POST /v1/search` throughput and latency of the websearch server against a bare `node:http` handler doing the
 * same job (check the bearer token, parse the body, call the provider, shape the answer), both calling the same
 * local provider mock through the same kind of undici pool, in the same run.
 *
 *   node --conditions=@websearch/source --import tsx bench/server.ts [seconds-per-round] [concurrency]
 *
 * The servers' child runs our packages as users run them: their built `dist` under plain node (the packages are
 * built first, and this file is bundled with every package left an import, so no tsx loader and no source
 * condition are in the measured process). `BENCH_SOURCES=1` runs it over the sources under tsx instead (to profile
 * the TypeScript). After the timed rounds a second child counts the Effect operations each server's fiber steps
 * through per request (a supervisor with op supervision on: too slow to time, but a figure the load does not move).
 *
 * A child process hosts the mock and both servers; this process generates the load (N concurrent request loops
 * over an undici Pool), alternating ours and the baseline round by round and keeping each one's best round, so
 * a burst of machine noise does not decide the ratio. The server runs as configured by default except request
 * logging (off, as a load balancer's access log would replace it) and a per-token limit high enough not to trip.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"
import { Pool } from "undici"

export const token = "bench-token-0123456789abcdef"
const keywords = ["effect typescript"]

// --- the child: provider mock, our server, the bare baseline ----------------------------------------------

export const mockResults = Array.from({ length: 10 }, (_, i) => ({
  title: `Result ${i + 1} about effect typescript`,
  url: `https://site${i}.example.com/articles/${i + 1}`,
  content: `Effect is a TypeScript library for building robust programs. Paragraph ${i + 1} `.repeat(4)
}))

export const listen = (server: ReturnType<typeof createServer>): Promise<number> =>
  new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)))

export const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const serveChild = async () => {
  const mock = createServer((request, response) => {
    void readBody(request).then(() => {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({ results: mockResults }))
    })
  })
  const mockPort = await listen(mock)
  const mockOrigin = `http://127.0.0.1:${mockPort}`
  const callMock = async (pool: Pool, query: string, signal?: AbortSignal) => {
    const { body, statusCode } = await pool.request({
      method: "POST",
      path: "/search",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, max_results: 10 }),
      ...(signal ? { signal } : {})
    })
    const json = (await body.json()) as { results: Array<{ title: string; url: string; content: string }> }
    if (statusCode !== 200) throw new Error(`mock answered ${statusCode}`)
    return json.results
  }

  // Ours: the real server, with a small real driver over undici.
  const Effect = await import("effect/Effect")
  const Layer = await import("effect/Layer")
  const Context = await import("effect/Context")
  const HttpServer = await import("@effect/platform/HttpServer")
  const Tavily = await import("@websearch/providers/Tavily")
  const ProviderRegistry = await import("@websearch/core/ProviderRegistry")
  const Settings = await import("@websearch/core/Settings")
  const WebSearch = await import("@websearch/core/WebSearch")
  const WebSearchError = await import("@websearch/core/WebSearchError")
  const WebSearchServer = await import("@websearch/server/WebSearchServer")
  const oursPool = new Pool(mockOrigin, { connections: 64 })
  const driver = {
    preset: Tavily.preset,
    searchKeywords: (keyword: string) =>
      Effect.tryPromise({
        try: (signal) => callMock(oursPool, keyword, signal),
        catch: () => WebSearchError.requestFailed("network", "the mock did not answer", { providerId: "tavily" })
      })
  }
  // BENCH_OPS=1: every fiber of each Effect server counts the operations it steps through (op supervision on).
  const Supervisor = await import("effect/Supervisor")
  const RuntimeFlags = await import("effect/RuntimeFlags")
  class OpCounter extends Supervisor.AbstractSupervisor<void> {
    ops = 0
    readonly value = Effect.void
    override onEffect() {
      this.ops++
    }
  }
  const counters = { ours: new OpCounter(), piped: new OpCounter(), platform: new OpCounter() }
  const counted = (counter: OpCounter) =>
    process.env.BENCH_OPS === "1"
      ? Layer.merge(Supervisor.addSupervisor(counter), RuntimeFlags.enableOpSupervision)
      : Layer.empty
  const live = WebSearch.layer(ProviderRegistry.register(driver)).pipe(
    Layer.provideMerge(
      Settings.layer({
        defaults: { searchKeywords: "tavily" },
        providers: { tavily: { apiKeys: ["bench-key"], rateLimit: { limit: 1_000_000, window: "1 second" } } }
      })
    )
  )
  const server = WebSearchServer.layer({
    port: 0,
    tokens: [token],
    logRequests: false,
    rateLimit: { limit: 100_000_000, window: "1 minute" }
  }).pipe(
    Layer.provide(WebSearchServer.layerRateLimiterMemory),
    Layer.provide(live),
    Layer.provide(counted(counters.ours))
  )
  const Scope = await import("effect/Scope")
  // A scope that lives as long as the process: the server stops when the parent ends the run.
  const scope = Effect.runSync(Scope.make())
  const built = await Effect.runPromise(Layer.buildWithScope(server, scope))
  const address = Context.get(built, HttpServer.HttpServer).address
  const oursPort = address._tag === "TcpAddress" ? address.port : 0

  // The baseline: what a hand-written node:http handler doing the same job looks like.
  const barePool = new Pool(mockOrigin, { connections: 64 })
  const bare = createServer((request, response) => {
    const fail = (status: number, message: string) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify({ message }))
    }
    // The child's CPU time so far, read by the parent before and after each round: CPU per request is the figure a
    // shared machine disturbs least (requests per second fall whenever another process takes a core).
    if (request.method === "GET" && request.url === "/bench/cpu") {
      const used = process.cpuUsage()
      response.writeHead(200, { "content-type": "application/json" })
      return void response.end(JSON.stringify({ micros: used.user + used.system }))
    }
    if (request.method === "GET" && request.url === "/bench/ops") {
      response.writeHead(200, { "content-type": "application/json" })
      const { ours, piped, platform } = counters
      return void response.end(JSON.stringify({ ours: ours.ops, piped: piped.ops, platform: platform.ops }))
    }
    if (request.method !== "POST" || request.url !== "/v1/search") return fail(404, "not found")
    if (request.headers.authorization !== `Bearer ${token}`) return fail(401, "unauthorized")
    void readBody(request)
      .then(async (text) => {
        const body = JSON.parse(text) as { keywords?: Array<string> }
        if (!Array.isArray(body.keywords) || body.keywords.length === 0) return fail(400, "keywords")
        const inputs = body.keywords.map((k) => k.trim()).filter((k) => k.length > 0)
        const answers = await Promise.all(inputs.map((k) => callMock(barePool, k)))
        response.writeHead(200, { "content-type": "application/json" })
        response.end(
          JSON.stringify({
            query: inputs.join(" | "),
            providerId: "tavily",
            capability: "searchKeywords",
            inputs,
            results: answers.flatMap((results, i) => results.map((r) => ({ ...r, sourceInput: inputs[i] }))),
            failures: []
          })
        )
      })
      .catch(() => fail(502, "provider failed"))
  })
  const barePort = await listen(bare)

  // A second baseline: node:http around the same core pipeline, so the server's own cost shows apart from the
  // pipeline's (which bench/run.ts "pipeline" measures against a bare fanout).
  const ManagedRuntime = await import("effect/ManagedRuntime")
  const SearchKeywords = await import("@websearch/core/SearchKeywords")
  const runtime = ManagedRuntime.make(Layer.provideMerge(live, counted(counters.piped)))
  const piped = createServer((request, response) => {
    const fail = (status: number, message: string) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify({ message }))
    }
    if (request.headers.authorization !== `Bearer ${token}`) return fail(401, "unauthorized")
    void readBody(request)
      .then(async (text) => {
        const answer = await runtime.runPromise(SearchKeywords.searchKeywords(JSON.parse(text)))
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify(answer))
      })
      .catch(() => fail(502, "failed"))
  })
  const pipedPort = await listen(piped)

  // A third baseline: the bare handler's job as a plain @effect/platform route (no websearch code), so the
  // framework's own floor on this machine shows beside the ratio.
  const HttpLayerRouter = await import("@effect/platform/HttpLayerRouter")
  const HttpServerRequest = await import("@effect/platform/HttpServerRequest")
  const HttpServerResponse = await import("@effect/platform/HttpServerResponse")
  const NodeHttpServer = await import("@effect/platform-node/NodeHttpServer")
  const platformPool = new Pool(mockOrigin, { connections: 64 })
  const platformRoute = HttpLayerRouter.add(
    "POST",
    "/v1/search",
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (request.headers.authorization !== `Bearer ${token}`) {
        return HttpServerResponse.unsafeJson({ message: "unauthorized" }, { status: 401 })
      }
      const body = (yield* Effect.orDie(request.json)) as { keywords?: Array<string> }
      const inputs = (body.keywords ?? []).map((k) => k.trim()).filter((k) => k.length > 0)
      const answers = yield* Effect.forEach(inputs, (k) =>
        Effect.orDie(Effect.tryPromise((signal) => callMock(platformPool, k, signal)))
      )
      return HttpServerResponse.unsafeJson({
        query: inputs.join(" | "),
        providerId: "tavily",
        capability: "searchKeywords",
        inputs,
        results: answers.flatMap((results, i) => results.map((r) => ({ ...r, sourceInput: inputs[i] }))),
        failures: []
      })
    })
  )
  const platformServer = HttpLayerRouter.serve(platformRoute, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(counted(counters.platform))
  )
  const platformBuilt = await Effect.runPromise(Layer.buildWithScope(platformServer, scope))
  const platformAddress = Context.get(platformBuilt, HttpServer.HttpServer).address
  const platformPort = platformAddress._tag === "TcpAddress" ? platformAddress.port : 0
  process.stdout.write(
    `${JSON.stringify({ ours: oursPort, bare: barePort, piped: pipedPort, platform: platformPort })}\n`
  )
  process.stdin.resume()
  process.stdin.on("end", () => process.exit(0))
}

// --- the parent: load generation ----------------------------------------------------------------------------

interface Round {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  /** The child's CPU time per request in the round, in microseconds (the provider mock's share included). */
  readonly cpuPerRequest: number
}

const childCpu = async (barePort: number): Promise<number> => {
  const pool = new Pool(`http://127.0.0.1:${barePort}`, { connections: 1 })
  const { body } = await pool.request({ method: "GET", path: "/bench/cpu" })
  const { micros } = (await body.json()) as { micros: number }
  await pool.close()
  return micros
}

const load = async (port: number, seconds: number, concurrency: number, barePort: number): Promise<Round> => {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: concurrency })
  const payload = JSON.stringify({ keywords })
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
  const latencies: Array<number> = []
  let errors = 0
  const deadline = performance.now() + seconds * 1000
  const loop = async () => {
    while (performance.now() < deadline) {
      const start = performance.now()
      const { statusCode, body } = await pool.request({ method: "POST", path: "/v1/search", headers, body: payload })
      await body.text()
      if (statusCode === 200) latencies.push(performance.now() - start)
      else errors++
    }
  }
  const cpuBefore = await childCpu(barePort)
  const start = performance.now()
  await Promise.all(Array.from({ length: concurrency }, loop))
  const elapsed = (performance.now() - start) / 1000
  const cpuPerRequest = ((await childCpu(barePort)) - cpuBefore) / (latencies.length + errors)
  await pool.close()
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN
  return { requestsPerSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors, cpuPerRequest }
}

interface Ports {
  readonly ours: number
  readonly bare: number
  readonly piped: number
  readonly platform: number
}

/** Whether the servers' child runs over the sources under tsx (`BENCH_SOURCES=1`) rather than the built dist. */
export const fromSources = process.env.BENCH_SOURCES === "1"

const root = fileURLToPath(new URL("..", import.meta.url))

/**
 * The servers' child script: this file itself over the sources, or else, after building the packages it runs
 * (a stale dist would measure other code than the sources'), this file bundled with every package left an import,
 * placed under node_modules so those imports resolve to the packages' dist as a user's would.
 */
const childScript = async (): Promise<{
  readonly script: string
  readonly args: ReadonlyArray<string>
  /** The bundle's folder, removed after the run. */
  readonly dir?: string
}> => {
  const here = fileURLToPath(import.meta.url)
  if (fromSources) return { script: here, args: ["--conditions=@websearch/source", "--import", "tsx"] }
  const workspaces = ["core", "providers", "server"].flatMap((name) => ["-w", `packages/${name}`])
  const built = spawnSync("npm", ["run", "build", "--silent", ...workspaces], {
    cwd: root,
    stdio: ["ignore", 2, "inherit"]
  })
  if (built.status !== 0) throw new Error(`npm run build failed (${built.status}): the server child needs dist`)
  const dir = join(root, "node_modules", ".cache")
  mkdirSync(dir, { recursive: true })
  const outdir = mkdtempSync(join(dir, "websearch-bench-server-"))
  const outfile = join(outdir, "server.mjs")
  await esbuild.build({
    entryPoints: [here],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning"
  })
  return { script: outfile, args: [], dir: outdir }
}

const startChild = async (
  child: { readonly script: string; readonly args: ReadonlyArray<string> },
  env: NodeJS.ProcessEnv = process.env
) => {
  const process_ = spawn(process.execPath, [...child.args, child.script, "--serve"], {
    stdio: ["pipe", "pipe", "inherit"],
    env
  })
  const ports = await new Promise<Ports>((resolve, reject) => {
    let out = ""
    process_.stdout.on("data", (data: Buffer) => {
      out += data.toString("utf8")
      const line = out.split("\n").find((l) => l.startsWith("{"))
      if (line !== undefined && out.includes("\n")) resolve(JSON.parse(line) as Ports)
    })
    process_.once("exit", (code) => reject(new Error(`the bench server exited with ${code}`)))
  })
  const stop = () => {
    process_.stdin.end()
    process_.kill()
  }
  return { ports, stop }
}

/** Sequential requests to `port`, the last `counted` of `warm + counted` counted: `ours / piped / platform` ops. */
const countOps = async (ports: Ports, warm = 50, counted = 100) => {
  const read = async () => {
    const pool = new Pool(`http://127.0.0.1:${ports.bare}`, { connections: 1 })
    const { body } = await pool.request({ method: "GET", path: "/bench/ops" })
    const ops = (await body.json()) as { ours: number; piped: number; platform: number }
    await pool.close()
    return ops
  }
  const send = async (port: number, times: number) => {
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 })
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
    for (let i = 0; i < times; i++) {
      const { statusCode, body } = await pool.request({
        method: "POST",
        path: "/v1/search",
        headers,
        body: JSON.stringify({ keywords })
      })
      await body.text()
      if (statusCode !== 200) throw new Error(`the ops count's request answered ${statusCode}`)
    }
    await pool.close()
  }
  const perRequest = async (key: "ours" | "piped" | "platform") => {
    await send(ports[key], warm)
    const before = (await read())[key]
    await send(ports[key], counted)
    return ((await read())[key] - before) / counted
  }
  return { ours: await perRequest("ours"), piped: await perRequest("piped"), platform: await perRequest("platform") }
}

/** The measurement: each side's best round, and the ratio ours / baseline in requests per second. */
export const measure = async (seconds = 3, concurrency = 32, rounds = 3) => {
  const script = await childScript()
  const { ports, stop } = await startChild(script)
  try {
    // Warm-up: JIT, connection pools and the mock's sockets on both sides. Three seconds each: on a loaded machine
    // one second was a few hundred requests, too few for the longer of the paths (ours) to be optimised, so the
    // first measured rounds still compiled it.
    for (const port of [ports.ours, ports.bare, ports.piped, ports.platform])
      await load(port, 3, concurrency, ports.bare)
    const ours: Array<Round> = []
    const bare: Array<Round> = []
    const piped: Array<Round> = []
    const platform: Array<Round> = []
    for (let i = 0; i < rounds; i++) {
      ours.push(await load(ports.ours, seconds, concurrency, ports.bare))
      bare.push(await load(ports.bare, seconds, concurrency, ports.bare))
      piped.push(await load(ports.piped, seconds, concurrency, ports.bare))
      platform.push(await load(ports.platform, seconds, concurrency, ports.bare))
    }
    const best = (list: Array<Round>) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a))
    // The least CPU per request of any round: noise only ever adds to it.
    const leastCpu = (list: Array<Round>) => Math.min(...list.map((round) => round.cpuPerRequest))
    stop()
    const counting = await startChild(script, { ...process.env, BENCH_OPS: "1" })
    const ops = await countOps(counting.ports).finally(counting.stop)
    return {
      ops,
      fromSources,
      ours: best(ours),
      bare: best(bare),
      piped: best(piped),
      platform: best(platform),
      ratio: best(ours).requestsPerSecond / best(bare).requestsPerSecond,
      platformRatio: best(platform).requestsPerSecond / best(bare).requestsPerSecond,
      serverRatio: best(ours).requestsPerSecond / best(piped).requestsPerSecond,
      cpu: { ours: leastCpu(ours), bare: leastCpu(bare), piped: leastCpu(piped), platform: leastCpu(platform) }
    }
  } finally {
    stop()
    if (script.dir !== undefined) rmSync(script.dir, { recursive: true, force: true })
  }
}

const format = (round: Round) =>
  `${round.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${round.p50.toFixed(2)} ms  p99 ${round.p99.toFixed(2)} ms` +
  (round.errors > 0 ? `  (${round.errors} non-200)` : "")

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--serve") {
    await serveChild()
  } else {
    const seconds = Number(process.argv[2] ?? 3)
    const concurrency = Number(process.argv[3] ?? 32)
    const result = await measure(seconds, concurrency)
    console.log(
      result.fromSources
        ? "servers' child: our packages' sources under tsx (BENCH_SOURCES=1)"
        : "servers' child: our packages' built dist under plain node, as users run them"
    )
    console.log(`ours      ${format(result.ours)}`)
    console.log(`@effect/platform route, same job as node:http ${format(result.platform)}`)
    console.log(
      `vs route  ${(result.ours.requestsPerSecond / result.platform.requestsPerSecond).toFixed(2)} rps (aim >= 0.9), ` +
        `${(result.ours.p99 / result.platform.p99).toFixed(2)} p99 (aim <= 1.2)`
    )
    console.log(
      `CPU/req   ours ${result.cpu.ours.toFixed(0)} us, route ${result.cpu.platform.toFixed(0)} us, ` +
        `node:http + core pipeline ${result.cpu.piped.toFixed(0)} us, node:http ${result.cpu.bare.toFixed(0)} us ` +
        `(server child, provider mock included; ours / route ${(result.cpu.ours / result.cpu.platform).toFixed(2)})`
    )
    console.log(
      `ops/req   ours ${result.ops.ours.toFixed(0)}, route ${result.ops.platform.toFixed(0)}, ` +
        `node:http + core pipeline ${result.ops.piped.toFixed(0)} (Effect operations per request, sequential)`
    )
    console.log(`node:http ${format(result.bare)}`)
    console.log(`node:http + core pipeline ${format(result.piped)}`)
    console.log(`ratio     ${result.ratio.toFixed(2)} (ours / node:http requests per second; for information)`)
    console.log(`server    ${result.serverRatio.toFixed(2)} (ours / node:http around the same core pipeline)`)
    console.log(
      `floor     ${result.platformRatio.toFixed(2)} (that route / node:http: the framework alone on this machine)`
    )
  }
}
