/**
 * Test doubles for the safe transport, all on loopback: HTTP(S) servers that count connections and see their
 * sockets close, a recording connector that refuses (and records) any dial outside 127.0.0.0/8 and ::1, a
 * recording resolver over a fixed table, a tiny CONNECT proxy, and a self-signed certificate for `pinned.test`.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import * as net from "node:net"
import { buildConnector } from "undici"
import { isLoopbackHost } from "../../../../test-support/loopbackGuard.js"
import type { Connector, Lookup, LookupAddress } from "../../src/SafeTransport.js"

/**
 * A self-signed certificate (P-256) for the DNS name `pinned.test`, valid 2000-2100, made once with openssl for
 * these tests. It protects nothing: its key is public on purpose.
 */
export const certificate = `-----BEGIN CERTIFICATE-----
MIIBZTCCAQqgAwIBAgIBATAKBggqhkjOPQQDAjAWMRQwEgYDVQQDDAtwaW5uZWQu
dGVzdDAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowFjEUMBIGA1UE
AwwLcGlubmVkLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAR6xpCrRJeO
Dga8JQIpU1c1GzK/XVFiTqEoPxGAtRw946rAN/8R9sl/se+TUZLeBd3/tM97Lk45
Ye9fVflY3QgGo0cwRTAWBgNVHREEDzANggtwaW5uZWQudGVzdDAMBgNVHRMBAf8E
AjAAMB0GA1UdDgQWBBQAY6ivEMrjeRlX/fizAtuAmCp4YzAKBggqhkjOPQQDAgNJ
ADBGAiEA1pxuAkvU9xFLyyZj0mBnL8uQzBWVb1PEa4FSk3JXOpICIQCB3JOVGkny
LnSNIm85XLPYSy4nWe4bVLyl5F00TCy4wA==
-----END CERTIFICATE-----
`

const privateKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgLZtZgHqYeoz5tCMH
yumXvYSpPAcWT1ikj3Z5c1EXoxOhRANCAAR6xpCrRJeODga8JQIpU1c1GzK/XVFi
TqEoPxGAtRw946rAN/8R9sl/se+TUZLeBd3/tM97Lk45Ye9fVflY3QgG
-----END PRIVATE KEY-----
`

/** A request as a test server saw it. */
export interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/** A loopback server that records connections, requests and socket closes. */
export interface TestServer {
  readonly port: number
  readonly origin: string
  /** TCP connections accepted. */
  readonly connections: () => number
  /** Sockets that have closed. */
  readonly closed: () => number
  /** Resolves when `n` sockets have closed. */
  readonly waitClosed: (n?: number) => Promise<void>
  readonly requests: Array<Seen>
}

type Handler = (request: IncomingMessage, response: ServerResponse, seen: Seen) => void

const instrument = (server: Server, handler: Handler, protocol: "http" | "https", host = "127.0.0.1") =>
  Effect.acquireRelease(
    Effect.async<TestServer & { readonly close: () => void }>((resume) => {
      let connections = 0
      let closed = 0
      const waiters: Array<{ n: number; resolve: () => void }> = []
      const requests: Array<Seen> = []
      const sockets = new Set<net.Socket>()
      const onSocket = (socket: net.Socket) => {
        connections++
        sockets.add(socket)
        socket.on("close", () => {
          closed++
          sockets.delete(socket)
          for (const waiter of waiters.splice(0)) {
            if (closed >= waiter.n) waiter.resolve()
            else waiters.push(waiter)
          }
        })
      }
      server.on(protocol === "https" ? "secureConnection" : "connection", onSocket)
      if (protocol === "https") server.on("tlsClientError", () => undefined)
      server.on("request", (request: IncomingMessage, response: ServerResponse) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const seen = {
            method: request.method ?? "",
            url: request.url ?? "",
            headers: request.headers,
            body: Buffer.concat(chunks).toString("utf8")
          }
          requests.push(seen)
          handler(request, response, seen)
        })
      })
      server.listen(0, host, () => {
        const { port } = server.address() as net.AddressInfo
        resume(
          Effect.succeed({
            port,
            origin: `${protocol}://${net.isIPv6(host) ? `[${host}]` : host}:${port}`,
            connections: () => connections,
            closed: () => closed,
            waitClosed: (n = 1) =>
              closed >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
            requests,
            close: () => {
              for (const socket of sockets) socket.destroy()
            }
          })
        )
      })
    }),
    (running) =>
      Effect.async<void>((resume) => {
        running.close()
        server.close(() => resume(Effect.void))
      })
  )

/** An HTTP server on 127.0.0.1 with a random port, closed with the scope. */
export const serve = (handler: Handler, host = "127.0.0.1"): Effect.Effect<TestServer, never, Scope.Scope> =>
  instrument(createServer({ keepAliveTimeout: 1000 }), handler, "http", host)

/** An HTTPS server on 127.0.0.1 presenting the self-signed `pinned.test` certificate. */
export const serveTls = (handler: Handler): Effect.Effect<TestServer, never, Scope.Scope> =>
  instrument(createHttpsServer({ cert: certificate, key: privateKey }), handler, "https")

/** A raw TCP server that answers every connection with `reply` (e.g. plain text to a TLS client). */
export const serveRaw = (
  reply: string
): Effect.Effect<{ readonly port: number; readonly connections: () => number }, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ port: number; connections: () => number; server: net.Server }>((resume) => {
      let connections = 0
      const server = net.createServer((socket) => {
        connections++
        socket.on("error", () => undefined)
        socket.once("data", () => socket.end(reply))
      })
      server.listen(0, "127.0.0.1", () =>
        resume(
          Effect.succeed({
            port: (server.address() as net.AddressInfo).port,
            connections: () => connections,
            server
          })
        )
      )
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )

/** A port on 127.0.0.1 that was free a moment ago and has nothing listening now. */
export const closedPort = (): Effect.Effect<number> =>
  Effect.async<number>((resume) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resume(Effect.succeed(port)))
    })
  })

/**
 * A minimal CONNECT proxy on 127.0.0.1: records each CONNECT target and the Proxy-Authorization it got, tunnels
 * only to loopback targets (anything else gets 403) and refuses plain requests.
 */
export const serveProxy = (
  options: {
    /**
     * Sends the CONNECT reply in pieces of this many bytes, each in its own write after a pause, with `extraHead`
     * header text in it (the connector must find the head's end across pieces).
     */
    readonly trickle?: number | undefined
    readonly extraHead?: string | undefined
  } = {}
): Effect.Effect<
  { readonly port: number; readonly targets: Array<string>; readonly authorizations: Array<string | undefined> },
  never,
  Scope.Scope
> =>
  Effect.acquireRelease(
    Effect.async<{ port: number; targets: Array<string>; authorizations: Array<string | undefined>; server: Server }>(
      (resume) => {
        const targets: Array<string> = []
        const authorizations: Array<string | undefined> = []
        const sockets = new Set<net.Socket>()
        const server = createServer((_, response) => {
          response.statusCode = 405
          response.end()
        })
        server.on("connect", (request: IncomingMessage, client: net.Socket, head: Buffer) => {
          const target = request.url ?? ""
          targets.push(target)
          authorizations.push(request.headers["proxy-authorization"])
          sockets.add(client)
          client.on("error", () => undefined)
          const match = /^\[?([^\]]+)\]?:(\d+)$/.exec(target)
          if (match === null || !isLoopbackHost(match[1])) {
            client.end("HTTP/1.1 403 Forbidden\r\n\r\n")
            return
          }
          const upstream = net.connect({ host: match[1], port: Number(match[2]) }, () => {
            const reply = Buffer.from(`HTTP/1.1 200 Connection Established\r\n${options.extraHead ?? ""}\r\n`)
            const step = options.trickle ?? reply.length
            client.setNoDelay(true)
            const send = (from: number) => {
              if (from >= reply.length) {
                if (head.length > 0) upstream.write(head)
                upstream.pipe(client)
                client.pipe(upstream)
                return
              }
              client.write(reply.subarray(from, from + step))
              if (from + step >= reply.length) send(from + step)
              else setTimeout(() => send(from + step), 1)
            }
            send(0)
          })
          sockets.add(upstream)
          upstream.on("error", () => client.destroy())
          client.on("close", () => upstream.destroy())
        })
        server.listen(0, "127.0.0.1", () =>
          resume(
            Effect.succeed({
              port: (server.address() as net.AddressInfo).port,
              targets,
              authorizations,
              server,
              sockets
            })
          )
        )
        server.on("close", () => {
          for (const socket of sockets) socket.destroy()
        })
      }
    ),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

/**
 * A connector that records every dial and refuses (without dialling) anything outside 127.0.0.0/8 and ::1: the
 * second line behind the global loopback guard.
 */
export const recordingConnector = (
  options: { readonly ca?: string } = {}
): { readonly connector: Connector; readonly dials: Array<string>; readonly refused: Array<string> } => {
  const dials: Array<string> = []
  const refused: Array<string> = []
  const base = buildConnector(options.ca === undefined ? {} : { ca: options.ca })
  const connector: Connector = (connect, callback) => {
    const target = `${connect.hostname}:${connect.port}`
    if (!isLoopbackHost(connect.hostname)) {
      refused.push(target)
      return callback(new Error(`test connector refused ${target}`), null)
    }
    dials.push(target)
    base(connect, callback)
  }
  return { connector, dials, refused }
}

/** A resolver over a fixed table that records every name it was asked for; unknown names are ENOTFOUND. */
export const recordingLookup = (
  table: Record<string, ReadonlyArray<string>>
): { readonly lookup: Lookup; readonly asked: Array<string> } => {
  const asked: Array<string> = []
  const lookup: Lookup = (hostname) =>
    Effect.suspend(() => {
      asked.push(hostname)
      const answers = table[hostname]
      if (answers === undefined) {
        return Effect.fail(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }))
      }
      return Effect.succeed(answers.map((address): LookupAddress => ({ address, family: net.isIPv6(address) ? 6 : 4 })))
    })
  return { lookup, asked }
}
