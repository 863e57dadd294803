/**
 * A fault-injecting stand-in for a provider's API or a web site, on 127.0.0.1 (plain HTTP, or TLS with the
 * self-signed certificate of `../fixtures/tls/`), and the accounting the fault suite asserts with.
 *
 * Every request becomes an `Exchange` (its body read and parsed first) that a route turns into a behaviour: a
 * normal answer, or a fault — a status with Retry-After, a malformed or truncated body, an event stream cut
 * mid-event, an endless body, a slow drip, silence, a reset mid-body. The server counts its TCP connections
 * (opened, closed) and knows, per exchange, when the client's socket went away, so a test can prove that nothing
 * was left open, and when it closed. Idle keep-alive connections are never closed by the server itself, so a
 * socket that closes was closed by the client.
 *
 * Synchronisation is by latch (`arrived`, `closed`), never by sleeping; `within` bounds a wait so a regression
 * fails with a message instead of hanging the test.
 */
import { expect } from "@effect/vitest"
import * as WebSearchClient from "@websearch/core/WebSearchClient"
import type * as WebSearchResponse from "@websearch/core/WebSearchResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Supervisor from "effect/Supervisor"
import { readFileSync } from "node:fs"
import * as http from "node:http"
import * as https from "node:https"
import type { AddressInfo, Socket } from "node:net"

/** One request as the server received it, with its response and socket. */
export interface Exchange {
  /** Arrival order, from 0. */
  readonly seq: number
  readonly method: string
  /** The path without the query. */
  readonly path: string
  readonly query: URLSearchParams
  readonly text: string
  /** The body parsed as JSON, when it is JSON. */
  readonly body: unknown
  readonly res: http.ServerResponse
  readonly socket: Socket
  /** Body bytes this exchange's behaviour handed to the socket. */
  written: number
  /** Resolves when the socket that carried this exchange has closed. */
  readonly closed: Promise<void>
  readonly isClosed: () => boolean
}

/** What the server does with one exchange. */
export type Behaviour = (exchange: Exchange) => void

/** Picks the behaviour for an exchange (by its path, query or body). */
export type Route = (exchange: Exchange) => Behaviour

/** The running server. */
export interface FaultServer {
  /** `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT`. */
  readonly url: string
  /** `127.0.0.1:PORT`, for `urlPolicy.allowHosts`. */
  readonly hostPort: string
  readonly exchanges: ReadonlyArray<Exchange>
  /** TCP connections accepted so far, and how many of them are still open. */
  readonly connections: () => { readonly opened: number; readonly open: number }
  /** Resolves with the first `count` exchanges once that many have arrived. */
  readonly arrived: (count: number) => Promise<ReadonlyArray<Exchange>>
  /** Resolves once every connection the server accepted has closed. */
  readonly allClosed: () => Promise<void>
  /** TLS handshakes the server saw fail (the client refused the certificate). */
  readonly tlsErrors: () => number
  readonly close: () => Promise<void>
}

/** The self-signed certificate (CN "websearch fault suite", SAN IP:127.0.0.1, valid for 100 years). */
export const tlsFixture = {
  key: readFileSync(new URL("../fixtures/tls/key.pem", import.meta.url), "utf8"),
  cert: readFileSync(new URL("../fixtures/tls/cert.pem", import.meta.url), "utf8")
}

/** Starts a server on 127.0.0.1 with an ephemeral port; `tls` serves HTTPS with the fixture certificate. */
export const start = async (route: Route, options: { readonly tls?: boolean } = {}): Promise<FaultServer> => {
  const exchanges: Array<Exchange> = []
  const waiters: Array<() => void> = []
  const sockets = new Set<Socket>()
  const drained: Array<() => void> = []
  let opened = 0
  let tlsErrors = 0

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      let body: unknown = undefined
      try {
        body = text === "" ? undefined : JSON.parse(text)
      } catch {
        body = undefined
      }
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      const socket = req.socket
      let isClosed = socket.destroyed
      const closed = isClosed
        ? Promise.resolve()
        : new Promise<void>((resolve) =>
            socket.once("close", () => {
              isClosed = true
              resolve()
            })
          )
      const exchange: Exchange = {
        seq: exchanges.length,
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        text,
        body,
        res,
        socket,
        written: 0,
        closed,
        isClosed: () => isClosed
      }
      exchanges.push(exchange)
      for (const wake of waiters.splice(0)) wake()
      route(exchange)(exchange)
    })
  }

  const server = options.tls === true ? https.createServer(tlsFixture, onRequest) : http.createServer(onRequest)
  // Only the client closes connections: the server keeps an idle one for two minutes and says so (Keep-Alive:
  // timeout=120), so the client's pool keeps it too, until it is disposed; nor does the server time a request out.
  server.keepAliveTimeout = 120_000
  server.requestTimeout = 0
  server.headersTimeout = 0
  server.on("connection", (socket: Socket) => {
    opened++
    sockets.add(socket)
    socket.once("close", () => {
      sockets.delete(socket)
      if (sockets.size === 0) for (const wake of drained.splice(0)) wake()
    })
  })
  server.on("tlsClientError", () => {
    tlsErrors++
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const { port } = server.address() as AddressInfo

  return {
    url: `${options.tls === true ? "https" : "http"}://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    exchanges,
    connections: () => ({ opened, open: sockets.size }),
    arrived: (count) =>
      new Promise((resolve) => {
        const check = () => {
          if (exchanges.length >= count) resolve(exchanges.slice(0, count))
          else waiters.push(check)
        }
        check()
      }),
    allClosed: () =>
      new Promise((resolve) => {
        if (sockets.size === 0) resolve()
        else drained.push(resolve)
      }),
    tlsErrors: () => tlsErrors,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

// --- behaviours ------------------------------------------------------------------------------------------------

/** Answers with a status, headers and a body (objects as JSON). */
export const answer =
  (status: number, body: unknown, headers: Record<string, string> = {}): Behaviour =>
  (exchange) => {
    const text = typeof body === "string" ? body : JSON.stringify(body)
    exchange.res.writeHead(status, {
      "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json",
      ...headers
    })
    exchange.written += Buffer.byteLength(text)
    exchange.res.end(text)
  }

/** Waits until `count` exchanges have reached the server, then behaves: the fault hits while its siblings fly. */
export const after =
  (server: () => FaultServer, count: number, behaviour: Behaviour): Behaviour =>
  (exchange) => {
    void server()
      .arrived(count)
      .then(() => behaviour(exchange))
  }

/**
 * Sends the first half of the body, then closes the connection cleanly (FIN): the answer is cut short of what
 * the framing promised — the announced Content-Length (`length`), or the final chunk of a chunked body
 * (`chunked`, as an event stream is sent).
 */
export const truncated =
  (contentType: string, text: string, framing: "length" | "chunked" = "length"): Behaviour =>
  (exchange) => {
    const bytes = Buffer.from(text)
    const half = bytes.subarray(0, Math.floor(bytes.length / 2))
    exchange.res.writeHead(200, {
      "content-type": contentType,
      ...(framing === "length" ? { "content-length": String(bytes.length) } : {})
    })
    exchange.written += half.length
    exchange.res.write(half, () => exchange.socket.end())
  }

/** Announces the whole body's length, sends the first half, then resets the connection (RST). */
export const resetMidBody =
  (contentType: string, text: string): Behaviour =>
  (exchange) => {
    const bytes = Buffer.from(text)
    const half = bytes.subarray(0, Math.floor(bytes.length / 2))
    exchange.res.writeHead(200, { "content-type": contentType, "content-length": String(bytes.length) })
    exchange.written += half.length
    exchange.res.write(half, () => exchange.socket.resetAndDestroy())
  }

/** One GiB: the size of the endless body. */
export const gibibyte = 1024 * 1024 * 1024

/**
 * A body of `total` bytes (default 1 GiB) of `fill`, chunked or, with `announce`, with its Content-Length, written
 * as fast as the client reads it (backpressure honoured) and stopped when the client goes away: `written` then
 * says how much the client let through.
 */
export const endless =
  (
    contentType: string,
    options: { readonly fill?: string; readonly total?: number; readonly announce?: boolean } = {}
  ): Behaviour =>
  (exchange) => {
    const total = options.total ?? gibibyte
    const chunk = Buffer.alloc(64 * 1024, options.fill ?? " ")
    const { res } = exchange
    res.writeHead(200, {
      "content-type": contentType,
      ...(options.announce === true ? { "content-length": String(total) } : {})
    })
    const pump = () => {
      while (!exchange.isClosed() && exchange.written < total) {
        exchange.written += chunk.length
        if (!res.write(chunk)) {
          res.once("drain", pump)
          return
        }
      }
      if (!exchange.isClosed()) res.end()
    }
    res.on("error", () => undefined)
    pump()
  }

/** Sends the headers, then one byte of `fill` every `everyMs` until the client goes away. */
export const drip =
  (contentType: string, fill = " ", everyMs = 50): Behaviour =>
  (exchange) => {
    exchange.res.writeHead(200, { "content-type": contentType })
    exchange.res.flushHeaders()
    exchange.res.on("error", () => undefined)
    const timer = setInterval(() => {
      if (exchange.isClosed()) return
      exchange.written += 1
      exchange.res.write(fill)
    }, everyMs)
    void exchange.closed.then(() => clearInterval(timer))
  }

/** Reads the request and never answers. */
export const hang: Behaviour = () => undefined

/** Answers with an event stream (`text/event-stream`) whose text is `events`, and ends the HTTP message cleanly. */
export const eventStream =
  (events: string): Behaviour =>
  (exchange) => {
    exchange.res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" })
    exchange.written += Buffer.byteLength(events)
    exchange.res.end(events)
  }

// --- accounting ------------------------------------------------------------------------------------------------

/**
 * Bounds a wait on a latch: a regression (a socket never closed) fails with `what` instead of hanging until the
 * test's own timeout. Not a synchronisation: the latch decides, the bound only catches the failure.
 */
export const within = <A>(promise: Promise<A>, what: string, ms = 10_000): Promise<A> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting: ${what}`)), ms)
  })
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer))
}

/** What reached the process's last-resort handlers while a watch was on. */
export interface ProcessWatch {
  readonly events: ReadonlyArray<string>
  readonly stop: () => ReadonlyArray<string>
}

/** Records every unhandled rejection and uncaught exception until `stop`. */
export const watchProcess = (): ProcessWatch => {
  const events: Array<string> = []
  const onRejection = (reason: unknown) => events.push(`unhandledRejection: ${String(reason)}`)
  const onException = (error: unknown) => events.push(`uncaughtException: ${String(error)}`)
  process.on("unhandledRejection", onRejection)
  process.on("uncaughtException", onException)
  return {
    events,
    stop: () => {
      process.off("unhandledRejection", onRejection)
      process.off("uncaughtException", onException)
      return events
    }
  }
}

/** A fiber tracker: supervise a request with it, then read which of the fibers it started are still alive. */
export interface FiberTracker {
  readonly supervisor: Supervisor.Supervisor<Array<Fiber.RuntimeFiber<unknown, unknown>>>
  /** The fibers started under the tracker that have not ended, by name (`#123`). */
  readonly alive: () => ReadonlyArray<string>
}

/** A fresh tracker (`Supervisor.track`). */
export const trackFibers = (): FiberTracker => {
  const supervisor = Supervisor.unsafeTrack()
  return { supervisor, alive: () => Effect.runSync(supervisor.value).map((fiber) => FiberId.threadName(fiber.id())) }
}

/** What one fault case left behind. */
export interface Report<A, E> {
  readonly exit: Exit.Exit<A, E>
  /** Fibers the request started that were still alive when it returned (by name): must be none. */
  readonly leftAlive: ReadonlyArray<string>
  /**
   * Fibers of the request alive when `inFlight.count` exchanges had reached `inFlight.server`: proves the tracker
   * saw the fan-out (a tracker that sees nothing would pass `leftAlive` vacuously).
   */
  readonly inFlight: number
  /** Unhandled rejections and uncaught exceptions during the case (request, disposal and socket closing). */
  readonly processEvents: ReadonlyArray<string>
  /** Each server's connections once the runtime was disposed: how many were opened, how many are still open. */
  readonly connections: ReadonlyArray<{ readonly opened: number; readonly open: number }>
}

/**
 * Runs one request the way an application does — a `ManagedRuntime` over `layer` — under a fiber tracker and a
 * process watch, then disposes the runtime and waits until every connection each server accepted has closed.
 * `interruptWhen` interrupts the request once it resolves (the caller aborts); `beforeDispose` runs after the
 * request and before disposal, for what must hold while the runtime (and its connection pool) is still alive.
 */
export const runCase = async <A, E, R, ER>(options: {
  readonly servers: ReadonlyArray<FaultServer>
  readonly layer: Layer.Layer<R, ER>
  readonly program: Effect.Effect<A, E, R>
  readonly inFlight?: { readonly server: FaultServer; readonly count: number } | undefined
  readonly interruptWhen?: (() => Promise<unknown>) | undefined
  readonly beforeDispose?: ((exit: Exit.Exit<A, E | ER>) => Promise<void>) | undefined
}): Promise<Report<A, E | ER>> => {
  const watch = watchProcess()
  const tracker = trackFibers()
  const runtime = ManagedRuntime.make(Layer.merge(options.layer, Logger.minimumLogLevel(LogLevel.None)))
  try {
    let inFlight = -1
    void options.inFlight?.server.arrived(options.inFlight.count).then(() => {
      inFlight = tracker.alive().length
    })
    const fiber = runtime.runFork(Effect.supervised(options.program, tracker.supervisor))
    if (options.interruptWhen !== undefined) {
      void options.interruptWhen().then(() => Effect.runPromise(Fiber.interrupt(fiber)))
    }
    const exit: Exit.Exit<A, E | ER> = await Effect.runPromise(Fiber.await(fiber))
    const leftAlive = tracker.alive()
    await options.beforeDispose?.(exit)
    await runtime.dispose()
    for (const server of options.servers) {
      await within(server.allClosed(), `every connection to ${server.url} closed once the runtime was disposed`)
    }
    // A rejection nobody handled is reported after the microtasks of the turn that dropped it.
    await new Promise((resolve) => setImmediate(resolve))
    return {
      exit,
      leftAlive,
      inFlight,
      processEvents: [...watch.events],
      connections: options.servers.map((server) => server.connections())
    }
  } finally {
    watch.stop()
    await runtime.dispose()
  }
}

/**
 * Nothing left behind: no process-level error, no fiber of the request alive (the tracker saw at least
 * `fannedOut` of them in flight), no connection open (and the first server did see connections).
 */
export const expectClean = (report: Report<unknown, unknown>, fannedOut = 2): void => {
  expect(report.processEvents).toEqual([])
  expect(report.leftAlive).toEqual([])
  expect(report.inFlight).toBeGreaterThanOrEqual(fannedOut)
  expect(report.connections.map((c) => c.open)).toEqual(report.connections.map(() => 0))
  expect(report.connections[0]?.opened).toBeGreaterThanOrEqual(1)
}

/**
 * The request succeeded with results from the `healthy` input only, and `failures` lists the `faulty` input as
 * `failure` (and nothing else); then `expectClean` with `fannedOut`.
 */
export const expectPartial = (
  report: Report<WebSearchResponse.WebSearchResponse, unknown>,
  inputs: { readonly healthy: string; readonly faulty: string },
  failure: Record<string, unknown>,
  fannedOut = 2
): void => {
  if (!Exit.isSuccess(report.exit)) {
    throw new Error(`expected a partial success, got ${Cause.pretty(report.exit.cause)}`)
  }
  const response = report.exit.value
  expect(response.results.length).toBeGreaterThan(0)
  expect(response.results.map((r) => r.sourceInput)).toEqual(response.results.map(() => inputs.healthy))
  expect(response.failures).toEqual([expect.objectContaining({ input: inputs.faulty, ...failure })])
  expectClean(report, fannedOut)
}

/** The request's typed error, when it failed as a whole. */
export const failureOf = (report: Report<unknown, unknown>): unknown => {
  if (Exit.isSuccess(report.exit)) throw new Error("expected the request to fail")
  const failure = Cause.failureOption(report.exit.cause)
  if (Option.isNone(failure)) throw new Error(`expected a typed failure, got ${Cause.pretty(report.exit.cause)}`)
  return failure.value
}

/**
 * The promise client's abort, end to end: builds a `WebSearchClient` over `layer` (tracked, silent), starts
 * `call` with a signal, aborts it once `count` requests have reached `server`, and checks the rejection is
 * `Aborted/interrupted`, every exchange's connection closed before disposal, no fiber of the request is left, and
 * nothing reached the process as an unhandled error.
 */
export const abortThroughClient = async (
  server: FaultServer,
  layer: Layer.Layer<WebSearchClient.Services, unknown>,
  count: number,
  call: (client: WebSearchClient.WebSearchClient, signal: AbortSignal) => Promise<unknown>
): Promise<void> => {
  const watch = watchProcess()
  const tracker = trackFibers()
  const client = WebSearchClient.make(
    Layer.mergeAll(layer, Supervisor.addSupervisor(tracker.supervisor), Logger.minimumLogLevel(LogLevel.None))
  )
  try {
    const controller = new AbortController()
    const settled = call(client, controller.signal).then(
      () => undefined,
      (error: unknown) => error
    )
    await server.arrived(count)
    const inFlight = tracker.alive().length
    controller.abort()
    expect(await settled).toMatchObject({ _tag: "Aborted", reason: "interrupted" })
    await within(
      Promise.all(server.exchanges.map((e) => e.closed)),
      "every call's connection closed once the signal was aborted"
    )
    expect(inFlight).toBeGreaterThanOrEqual(count)
    expect(tracker.alive()).toEqual([])
    await client.dispose()
    await within(server.allClosed(), "every connection closed once the client was disposed")
    await new Promise((resolve) => setImmediate(resolve))
    expect(watch.events).toEqual([])
  } finally {
    watch.stop()
    await client.dispose()
    await server.close()
  }
}

/**
 * The caller's interruption, end to end: runs `program` against `server` (which should hold every request),
 * interrupts it once `count` requests have arrived, and checks it ended interrupted, every exchange's connection
 * closed before disposal, and nothing was left (`expectClean`). Returns the exchanges the server saw.
 */
export const interruptMidFanout = async <A, E, R, ER>(
  server: FaultServer,
  layer: Layer.Layer<R, ER>,
  program: Effect.Effect<A, E, R>,
  count: number
): Promise<ReadonlyArray<Exchange>> => {
  try {
    const report = await runCase({
      servers: [server],
      layer,
      program,
      inFlight: { server, count },
      interruptWhen: () => server.arrived(count),
      beforeDispose: () =>
        within(
          Promise.all(server.exchanges.map((e) => e.closed)),
          "every call's connection closed once the caller was interrupted"
        ).then(() => undefined)
    })
    expect(Exit.isInterrupted(report.exit)).toBe(true)
    expectClean(report, count)
    return server.exchanges
  } finally {
    await server.close()
  }
}
