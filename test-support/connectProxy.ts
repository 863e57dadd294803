/**
 * A tiny CONNECT proxy on 127.0.0.1 for proxy tests: it records every tunnel it is asked for (the authority and
 * the Proxy-Authorization sent with it) and every plain request, opens tunnels to loopback targets only (any
 * other target is answered 403 and never dialled), and closes every socket when it stops.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createServer, type IncomingMessage } from "node:http"
import * as net from "node:net"

export interface ConnectProxy {
  readonly port: number
  /** `127.0.0.1:PORT`, as `urlPolicy.allowHosts` takes it. */
  readonly hostPort: string
  /** `http://127.0.0.1:PORT`, or with credentials. */
  readonly url: (credentials?: string) => string
  /** Every CONNECT authority, in arrival order. */
  readonly targets: Array<string>
  /** The Proxy-Authorization of each CONNECT (undefined when none was sent). */
  readonly authorizations: Array<string | undefined>
  /** Plain (non-CONNECT) requests: a proxy used for forwarding rather than tunnelling. */
  readonly forwarded: Array<string>
  readonly close: () => Promise<void>
}

const loopback = (host: string) =>
  host === "localhost" || (net.isIP(host) !== 0 && (host.startsWith("127.") || host === "::1"))

export const start = (): Promise<ConnectProxy> =>
  new Promise((resolve) => {
    const targets: Array<string> = []
    const authorizations: Array<string | undefined> = []
    const forwarded: Array<string> = []
    const sockets = new Set<net.Socket>()
    const server = createServer((request, response) => {
      forwarded.push(request.url ?? "")
      response.writeHead(405)
      response.end()
    })
    server.on("connection", (socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
    })
    server.on("connect", (request: IncomingMessage, client: net.Socket, head: Buffer) => {
      const target = request.url ?? ""
      targets.push(target)
      authorizations.push(request.headers["proxy-authorization"])
      client.on("error", () => undefined)
      const match = /^\[?([^\]]+)\]?:(\d+)$/.exec(target)
      if (match === null || !loopback(match[1])) {
        client.end("HTTP/1.1 403 Forbidden\r\n\r\n")
        return
      }
      const upstream = net.connect({ host: match[1], port: Number(match[2]) }, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n")
        if (head.length > 0) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      sockets.add(upstream)
      upstream.on("error", () => client.destroy())
      upstream.on("close", () => sockets.delete(upstream))
      client.on("close", () => upstream.destroy())
    })
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port
      resolve({
        port,
        hostPort: `127.0.0.1:${port}`,
        url: (credentials) => `http://${credentials === undefined ? "" : `${credentials}@`}127.0.0.1:${port}`,
        targets,
        authorizations,
        forwarded,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })

/** A proxy for the scope's lifetime, closed (every socket with it) when the scope closes. */
export const scoped: Effect.Effect<ConnectProxy, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(() => start()),
  (proxy) => Effect.promise(() => proxy.close())
)
