/**
 * Hostile pages against the server: while pages built to hurt an extractor (long whitespace runs, deep nesting, a
 * huge attribute, compression bombs of every encoding the transport accepts, a PDF bomb) are fetched through the
 * real `WebSearchServer`, does the server stay responsive to everyone else, and does its memory stay bounded?
 *
 *   node --conditions=@websearch/source --import tsx bench/hostile.ts [seconds-per-phase=12]
 *   npm run bench -- hostile
 *
 * Three processes. A page child (plain node:http on 127.0.0.1) serves a ~30 KB article and the hostile set; the
 * bombs are built there at start with node:zlib (nothing big is committed). A server child runs the real server
 * (`WebSearchServer.layer`, bearer auth on, request logging off) over `WebSearch.layer(Fetch.layerWith(),
 * SharedStores.layerMemory())` with `urlPolicy` allowing only 127.0.0.1 on the page child's port, from the built
 * packages under plain node (`support/hostileServer.mjs`; `HOSTILE_SOURCES=1` for the sources); it watches its own
 * event loop (`monitorEventLoopDelay`, 10 ms resolution) and RSS and reports both over IPC. This process runs the
 * load: a prober calling `GET /health` every 50 ms, 4 normal clients each fetching the article in a loop
 * (`POST /v1/fetch`, one URL a request), and, in the hostile phase only, 2 hostile clients looping over the hostile
 * set. An idle phase (the prober alone, 6 s: the floor this machine's load sets) comes first, then a quiet phase
 * (prober + normal clients), then the hostile phase, these two `seconds` long each; requests
 * still running at the end of a phase are awaited (the fetch timeout bounds them) and counted in their phase.
 *
 * A bench that measured nothing must not pass: the run fails when no hostile request reached the page child, when
 * no hostile fetch came back with a known outcome, or when a phase had no successful normal fetch.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { Client, Pool } from "undici"
import { article, bombPages, hostilePaths as allHostilePaths, plainPages, type Page } from "./support/hostilePages.js"

const token = "bench-hostile-token-0123456789abcdef"

// HOSTILE_PATHS="/bomb-gzip /bomb-pdf" runs the hostile clients over those pages only, to see what each costs.
const chosenPaths = (process.env.HOSTILE_PATHS ?? "").split(" ").filter((path) => path !== "")
for (const path of chosenPaths) {
  if (!allHostilePaths.includes(path)) throw new Error(`HOSTILE_PATHS: ${path} is not a hostile page`)
}

// HOSTILE_ROUNDS=0.5 starts each hostile client's rounds at most that many times a second (an open loop): code that
// answers hostile pages faster then gets no more of them, so two builds can be compared at the same hostile load.
const roundsPerSecond = Number(process.env.HOSTILE_ROUNDS ?? "Infinity")
if (!(roundsPerSecond > 0)) throw new Error(`HOSTILE_ROUNDS: ${process.env.HOSTILE_ROUNDS} is not a positive number`)
const roundMillis = 1000 / roundsPerSecond

/** The hostile pages the hostile clients go through: all of them, or `HOSTILE_PATHS`. */
export const hostilePaths: ReadonlyArray<string> = chosenPaths.length > 0 ? chosenPaths : allHostilePaths

// --- the children ---------------------------------------------------------------------------------------------

type ChildMessage =
  | { readonly type: "port"; readonly port: number }
  | {
      readonly type: "ready"
      readonly port: number
      readonly sizes?: Record<string, number>
      /** The server child's RSS once built, before any request, MiB. */
      readonly idleRssMiB?: number
    }
  | { readonly type: "hits"; readonly hits: Record<string, number> }
  | { readonly type: "report"; readonly report: ServerReport }

type ParentMessage = { readonly type: "hits" } | { readonly type: "reset" } | { readonly type: "report" }

/** What the server child measured since the last reset. */
interface ServerReport {
  /** Longest event-loop delay, ms. */
  readonly loopMaxMs: number
  readonly loopP99Ms: number
  /**
   * Of the stretches the loop ran no timer, the one whose main thread spent the most time on a CPU: its lateness,
   * that CPU time (our synchronous work) and the time the thread was runnable but waiting for a CPU (the machine's
   * load), ms, from the kernel's per-thread counters.
   */
  readonly longestOwn: { readonly ms: number; readonly runMs: number; readonly waitMs: number }
  /** The machine's one-minute load average when the phase ended. */
  readonly loadAverage: number
  /** Max RSS sampled every 20 ms since the reset, and the kernel's peak RSS of the whole process life, MiB. */
  readonly sampledRssMiB: number
  /**
   * The main thread's share at the sample with the highest RSS: its V8 heap (committed), and the memory outside
   * any heap that it holds (`external`, of which `arrayBuffers`), MiB. The workers' heaps are the rest.
   */
  readonly atPeak: { readonly heapMiB: number; readonly externalMiB: number; readonly arrayBuffersMiB: number }
  readonly maxRssMiB: number
}

const listen = (server: ReturnType<typeof createServer>): Promise<number> =>
  new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)))

const pagesChild = async () => {
  const send = (message: ChildMessage) => process.send!(message)
  process.on("disconnect", () => process.exit(0))
  const pages = plainPages()
  // Built once: this child shares the machine's cores with the server it loads, so it must cost next to nothing
  // per request (building the article per request took about a quarter of a core in the hostile phase).
  const articlePage: Page = { type: "text/html", body: Buffer.from(article(1)) }
  const longArticle: Page = {
    type: "text/html",
    body: Buffer.from(Array.from({ length: 8 }, (_, i) => article(i)).join(""))
  }
  const hits: Record<string, number> = {}
  const serve = (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? "/").split("?")[0]
    hits[path] = (hits[path] ?? 0) + 1
    const page = path.startsWith("/article/") ? articlePage : path === "/long-article" ? longArticle : pages.get(path)
    if (page === undefined) {
      response.writeHead(404, { "content-type": "text/plain" })
      return response.end("not found")
    }
    response.writeHead(200, {
      "content-type": page.type,
      "content-length": page.body.length,
      ...(page.encoding === undefined ? {} : { "content-encoding": page.encoding })
    })
    response.end(page.body)
  }
  const port = await listen(createServer(serve))
  process.on("message", (message: ParentMessage) => {
    if (message.type === "hits") send({ type: "hits", hits: { ...hits } })
  })
  // The server child can start while the bombs are built.
  send({ type: "port", port })
  for (const [path, page] of await bombPages()) pages.set(path, page)
  const sizes = Object.fromEntries([...pages].map(([path, page]) => [path, page.body.length]))
  send({ type: "ready", port, sizes })
}

// --- the parent: the load -------------------------------------------------------------------------------------

// HOSTILE_CPU_PROF=dir writes a CPU profile of the server child there (to find what blocks its event loop).
const profile = process.env.HOSTILE_CPU_PROF
// HOSTILE_GAPS=file: the server child writes there every stretch its loop ran no timer (see hostileServer.mjs).
const gapsFile = process.env.HOSTILE_GAPS

const fromSources = process.env.HOSTILE_SOURCES === "1"
// HOSTILE_BUILD=0 skips the build: for paired runs that swap prebuilt dists between them (the dist must be current).
const skipBuild = process.env.HOSTILE_BUILD === "0"
// HOSTILE_NODE_FLAGS="--trace-gc ..." passes node flags to the server child (NODE_OPTIONS refuses some, --trace-gc
// among them), e.g. to line garbage collection pauses up with the probes.
const nodeFlags = (process.env.HOSTILE_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "")
const here = fileURLToPath(import.meta.url)
const serverScript = fileURLToPath(new URL("./support/hostileServer.mjs", import.meta.url))

// The server child runs from the built packages under plain node, as a user runs it (the build comes first, so
// the figures are of today's sources); with HOSTILE_SOURCES=1, from the sources under tsx. The page child is
// this file under tsx: its cost is not measured.
const startChild = (args: ReadonlyArray<string>): ChildProcess => {
  const serving = args[0] === "--serve"
  const loader = ["--conditions=@websearch/source", "--import", "tsx"]
  return spawn(
    process.execPath,
    [
      ...(profile !== undefined && serving ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
      ...(serving ? nodeFlags : []),
      ...(serving && !fromSources ? [] : loader),
      ...(serving ? [serverScript, ...args.slice(1), token] : [here, ...args])
    ],
    {
      // Whatever a child prints goes to stderr: bench/run.ts reads this process's stdout as JSON.
      stdio: ["ignore", 2, "inherit", "ipc"]
    }
  )
}

/** Builds every package's dist (stale or missing dist would measure other code than the sources'). */
const build = () => {
  const built = spawnSync("npm", ["run", "build", "--silent"], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdio: ["ignore", 2, "inherit"]
  })
  if (built.status !== 0) throw new Error(`npm run build failed (${built.status}): the server child needs dist`)
}

/** The first message of `type` from `child`, sending `ask` first when given; fails when the child exits. */
const receive = <T extends ChildMessage["type"]>(
  child: ChildProcess,
  type: T,
  ask?: ParentMessage
): Promise<Extract<ChildMessage, { type: T }>> =>
  new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a hostile bench child exited with ${code}`))
    const on = (message: ChildMessage) => {
      if (message.type !== type) return
      child.off("message", on)
      child.off("exit", onExit)
      resolve(message as Extract<ChildMessage, { type: T }>)
    }
    child.on("message", on)
    child.once("exit", onExit)
    if (ask !== undefined) child.send(ask)
  })

const percentile = (list: ReadonlyArray<number>, q: number): number => {
  const sorted = Float64Array.from(list).sort()
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
}

/** Outcome of one fetch: `ok`, or the failure's reason (`too_large`, `timeout`, ...), or `status N`/`socket X`. */
const outcome = (status: number, text: string): string => {
  let json: { results?: Array<unknown>; failures?: Array<{ reason?: string }>; reason?: string } | undefined
  try {
    json = JSON.parse(text) as typeof json
  } catch {
    return `status ${status}, not JSON`
  }
  if (status === 200 && json?.results !== undefined && json.results.length > 0) return "ok"
  const reason = json?.failures?.[0]?.reason ?? json?.reason
  return reason ?? `status ${status}`
}

/** What one phase measured. Times in ms. */
export interface Phase {
  readonly server: ServerReport
  readonly health: { readonly count: number; readonly errors: number; readonly p99: number; readonly max: number }
  readonly normal: {
    readonly ok: number
    readonly errors: Record<string, number>
    readonly p50: number
    readonly p99: number
    readonly max: number
  }
  /** Hostile fetches by outcome, and by page then outcome. */
  readonly hostile: {
    readonly total: number
    readonly outcomes: Record<string, number>
    readonly byPage: Record<string, Record<string, number>>
  }
  /** Requests for hostile pages the page child answered during the phase, in all and by path. */
  readonly hostileHits: number
  readonly hitsByPage: Record<string, number>
}

export interface Figures {
  readonly seconds: number
  readonly normalClients: number
  readonly hostileClients: number
  /** The most rounds over the hostile set each hostile client starts a second (`HOSTILE_ROUNDS`), or none. */
  readonly hostileRoundsPerSecond: number | null
  readonly sizes: Record<string, number>
  /** The server child's RSS once built, before any request. */
  readonly idleRssMiB: number
  /** The prober alone, no other client: the latency floor of this machine at the time (its load, not our work). */
  readonly idle: Phase
  readonly quiet: Phase
  readonly hostile: Phase
}

const increment = (record: Record<string, number>, key: string) => {
  record[key] = (record[key] ?? 0) + 1
}

// Each phase's normal clients fetch URLs no earlier phase fetched: the result cache would otherwise answer a later
// phase's normal fetches from an earlier one's (the same `/article/<client>-<n>` sequence), and measure the cache's
// budget instead of the fetch path (a 64 MiB budget held every quiet-phase page and flattered the hostile phase).
let phases = 0

const runPhase = async (
  serverPort: number,
  pagesPort: number,
  server: ChildProcess,
  pagesChildProcess: ChildProcess,
  seconds: number,
  normalClients: number,
  hostileClients: number
): Promise<Phase> => {
  const phase = phases++
  const origin = `http://127.0.0.1:${serverPort}`
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
  const hitsBefore = (await receive(pagesChildProcess, "hits", { type: "hits" })).hits
  server.send({ type: "reset" })
  const deadline = performance.now() + seconds * 1000
  const fetchOne = async (client: Client, url: string) => {
    const start = performance.now()
    try {
      const response = await client.request({
        method: "POST",
        path: "/v1/fetch",
        headers,
        body: JSON.stringify({ urls: [url] })
      })
      const text = await response.body.text()
      return { ms: performance.now() - start, outcome: outcome(response.statusCode, text) }
    } catch (error) {
      return { ms: performance.now() - start, outcome: `socket ${String((error as { code?: unknown }).code ?? error)}` }
    }
  }

  /** The outcome of each of `urls`, fetched in one request. */
  const fetchSet = async (client: Client, urls: ReadonlyArray<string>): Promise<Array<string>> => {
    try {
      const response = await client.request({
        method: "POST",
        path: "/v1/fetch",
        headers,
        body: JSON.stringify({ urls })
      })
      const text = await response.body.text()
      let json: { results?: Array<{ sourceInput?: string }>; failures?: Array<{ input?: string; reason?: string }> }
      try {
        json = JSON.parse(text) as typeof json
      } catch {
        return urls.map(() => `status ${response.statusCode}, not JSON`)
      }
      if (response.statusCode !== 200) return urls.map(() => outcome(response.statusCode, text))
      return urls.map((url) =>
        json.results?.some((r) => r.sourceInput === url)
          ? "ok"
          : (json.failures?.find((f) => f.input === url)?.reason ?? "missing from the answer")
      )
    } catch (error) {
      return urls.map(() => `socket ${String((error as { code?: unknown }).code ?? error)}`)
    }
  }

  // The prober: GET /health every 50 ms on a connection of its own, never waiting for the previous one.
  const healthClient = new Pool(origin)
  const healthTimes: Array<number> = []
  let healthErrors = 0
  const probes: Array<Promise<void>> = []
  const probe = async () => {
    const start = performance.now()
    try {
      const response = await healthClient.request({ method: "GET", path: "/health" })
      await response.body.text()
      if (response.statusCode === 200) healthTimes.push(performance.now() - start)
      else healthErrors++
    } catch {
      healthErrors++
    }
  }
  const timer = setInterval(() => probes.push(probe()), 50)

  const normalTimes: Array<number> = []
  const normalErrors: Record<string, number> = {}
  let normalOk = 0
  const normal = Array.from({ length: normalClients }, async (_, index) => {
    const client = new Client(origin)
    for (let n = 0; performance.now() < deadline; n++) {
      const result = await fetchOne(client, `http://127.0.0.1:${pagesPort}/article/${phase}-${index}-${n}`)
      // A failed fetch counts at the time it took: a timeout is the slowest answer, not a missing one.
      normalTimes.push(result.ms)
      if (result.outcome === "ok") normalOk++
      else increment(normalErrors, result.outcome)
    }
    await client.close()
  })

  const outcomes: Record<string, number> = {}
  const byPage: Record<string, Record<string, number>> = {}
  let total = 0
  // Each hostile request asks for the whole set at once (one request's pages against everyone else's), the second
  // client in reverse order, so that the slow pages do not start together.
  const hostile = Array.from({ length: hostileClients }, async (_, index) => {
    const client = new Client(origin)
    const paths = index % 2 === 0 ? hostilePaths : [...hostilePaths].reverse()
    // A query of its own for every fetch: identical URLs in flight at once could be fetched once for both.
    for (let round = 0; performance.now() < deadline; round++) {
      const started = performance.now()
      const urls = paths.map((path) => `http://127.0.0.1:${pagesPort}${path}?fetch=${index}.${round}`)
      for (const [i, result] of (await fetchSet(client, urls)).entries()) {
        total++
        increment(outcomes, result)
        increment((byPage[paths[i]] ??= {}), result)
      }
      const rest = started + roundMillis - performance.now()
      if (rest > 0 && performance.now() + rest < deadline) await new Promise((resolve) => setTimeout(resolve, rest))
    }
    await client.close()
  })

  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  clearInterval(timer)
  await Promise.all([...normal, ...hostile, ...probes])
  await healthClient.close()
  const report = (await receive(server, "report", { type: "report" })).report
  const hitsAfter = (await receive(pagesChildProcess, "hits", { type: "hits" })).hits
  const hostileHits = hostilePaths.reduce((sum, path) => sum + (hitsAfter[path] ?? 0) - (hitsBefore[path] ?? 0), 0)
  return {
    server: report,
    health: {
      count: healthTimes.length,
      errors: healthErrors,
      p99: percentile(healthTimes, 0.99),
      max: percentile(healthTimes, 1)
    },
    normal: {
      ok: normalOk,
      errors: normalErrors,
      p50: percentile(normalTimes, 0.5),
      p99: percentile(normalTimes, 0.99),
      max: percentile(normalTimes, 1)
    },
    hostile: { total, outcomes, byPage },
    hostileHits,
    hitsByPage: Object.fromEntries(hostilePaths.map((path) => [path, (hitsAfter[path] ?? 0) - (hitsBefore[path] ?? 0)]))
  }
}

const warmUp = async (serverPort: number, pagesPort: number, clients: number) => {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
  const client = new Pool(`http://127.0.0.1:${serverPort}`)
  const paths = ["/long-article", ...Array.from({ length: clients * 3 }, (_, i) => `/article/warm-${i}`)]
  const answers = await Promise.all(
    paths.map(async (path) => {
      const response = await client.request({
        method: "POST",
        path: "/v1/fetch",
        headers,
        body: JSON.stringify({ urls: [`http://127.0.0.1:${pagesPort}${path}`] })
      })
      return outcome(response.statusCode, await response.body.text())
    })
  )
  await client.close()
  if (answers.some((answer) => answer !== "ok")) throw new Error(`warm-up fetches failed: ${answers.join(", ")}`)
}

/** Normal load before the quiet phase, not measured: the JIT and the heap settle. */
const warmUpSeconds = 2

/** The prober alone, after the warm-up: what the machine's load alone does to the figures. */
const idleSeconds = 6

/** The quiet phase, then the hostile phase, each `seconds` long, against fresh children. */
export const measure = async (seconds = 12, normalClients = 4, hostileClients = 2): Promise<Figures> => {
  if (!fromSources && !skipBuild) build()
  const pages = startChild(["--pages"])
  let server: ChildProcess | undefined
  try {
    const pagesPort = (await receive(pages, "port")).port
    const pagesReady = receive(pages, "ready")
    server = startChild(["--serve", String(pagesPort)])
    const ready = await receive(server, "ready")
    const serverPort = ready.port
    const sizes = (await pagesReady).sizes ?? {}
    process.stderr.write(`hostile: page sizes on the wire ${JSON.stringify(sizes)}\n`)
    // Warm-up, not measured: the first fetches load and compile the extraction code, and a page over the inline
    // limit starts the extraction worker, as on any server that has been up a while.
    await warmUp(serverPort, pagesPort, normalClients)
    await runPhase(serverPort, pagesPort, server, pages, warmUpSeconds, normalClients, 0)
    const idle = await runPhase(serverPort, pagesPort, server, pages, idleSeconds, 0, 0)
    process.stderr.write(`hostile: idle phase ${JSON.stringify(idle)}\n`)
    const quiet = await runPhase(serverPort, pagesPort, server, pages, seconds, normalClients, 0)
    process.stderr.write(`hostile: quiet phase ${JSON.stringify(quiet)}\n`)
    const hostile = await runPhase(serverPort, pagesPort, server, pages, seconds, normalClients, hostileClients)
    process.stderr.write(`hostile: hostile phase ${JSON.stringify(hostile)}\n`)
    const known = ["ok", "too_large", "timeout"].reduce((sum, key) => sum + (hostile.hostile.outcomes[key] ?? 0), 0)
    if (hostile.hostileHits === 0)
      throw new Error("no hostile request reached the page server: the bench is misconfigured")
    if (known === 0) {
      throw new Error(
        `no hostile fetch came back ok, too_large or timeout: ${JSON.stringify(hostile.hostile.outcomes)}`
      )
    }
    if (quiet.normal.ok === 0 || hostile.normal.ok === 0) {
      throw new Error(`a phase had no successful normal fetch: ${JSON.stringify([quiet.normal, hostile.normal])}`)
    }
    const hostileRoundsPerSecond = Number.isFinite(roundsPerSecond) ? roundsPerSecond : null
    return {
      seconds,
      normalClients,
      hostileClients,
      hostileRoundsPerSecond,
      sizes,
      idleRssMiB: ready.idleRssMiB ?? NaN,
      idle,
      quiet,
      hostile
    }
  } finally {
    for (const child of [server, pages]) {
      if (child === undefined) continue
      // Disconnecting ends a child (it exits on "disconnect"); the signal is for one that does not.
      const exited = new Promise((resolve) =>
        child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)
      )
      if (child.connected) child.disconnect()
      await Promise.race([
        exited,
        new Promise((resolve) => setTimeout(resolve, profile === undefined && gapsFile === undefined ? 0 : 5000))
      ])
      child.kill()
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--pages") {
    await pagesChild()
  } else {
    console.log(JSON.stringify(await measure(Number(process.argv[2] ?? 12)), null, 2))
  }
}
