/**
 * The only way the safe transport opens a socket. The request flow resolves and checks a host, pins the checked
 * address, and asks undici for an origin whose host IS that address; this connector then refuses any target that
 * is not an IP literal currently pinned, so undici can never resolve a name or dial an address we did not check,
 * whatever a future undici or a caller's option does. With a proxy it opens a CONNECT tunnel to the pinned
 * address (never to the name), so the proxy cannot re-resolve the host to somewhere else.
 */
import * as net from "node:net"
import type { Socket } from "node:net"
import type { buildConnector } from "undici"

/** A dial the connector refused because its target was not a pinned, checked address. */
export class DialRefused extends Error {
  constructor(readonly target: string) {
    super(`refused to dial ${target}: not a checked address`)
    this.name = "DialRefused"
  }
}

/** The proxy answered CONNECT with something other than 2xx, or did not answer in time. */
export class ProxyFailed extends Error {
  constructor(
    message: string,
    readonly code: string
  ) {
    super(message)
    this.name = "ProxyFailed"
  }
}

/** A parsed proxy: where to dial and what to send; the credentials never appear in messages. */
export interface Proxy {
  readonly protocol: "http:" | "https:"
  readonly hostname: string
  readonly port: string
  readonly authorization: string | undefined
}

/** Parses an http(s) proxy URL; `undefined` when it is not one. */
export const parseProxy = (input: string): Proxy | undefined => {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return undefined
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
  if (url.hostname === "") return undefined
  let authorization: string | undefined
  if (url.username !== "" || url.password !== "") {
    try {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
      authorization = `Basic ${Buffer.from(credentials).toString("base64")}`
    } catch {
      return undefined
    }
  }
  return {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port === "" ? (url.protocol === "https:" ? "443" : "80") : url.port,
    authorization
  }
}

/** Counts of the addresses some request is currently allowed to dial. */
export interface Pins {
  /** Allows dialling `address` (an IP literal without brackets, as the URL parser normalises it) until released. */
  readonly pin: (address: string) => () => void
  readonly has: (address: string) => boolean
}

export const makePins = (): Pins => {
  const counts = new Map<string, number>()
  return {
    pin: (hostname) => {
      counts.set(hostname, (counts.get(hostname) ?? 0) + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        const left = (counts.get(hostname) ?? 1) - 1
        if (left <= 0) counts.delete(hostname)
        else counts.set(hostname, left)
      }
    },
    has: (hostname) => counts.has(hostname)
  }
}

const bare = (hostname: string) =>
  hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname

const maxProxyHead = 16 * 1024

/**
 * Opens a CONNECT tunnel through `proxy` to `authority` over a socket from `base`, then hands the raw tunnel to
 * `done`. The proxy's reply head is read byte-exact so nothing of the tunnelled stream is lost.
 */
export const tunnel = (
  base: buildConnector.connector,
  proxy: Proxy,
  authority: string,
  timeoutMs: number,
  done: (error: Error | null, socket: Socket | null) => void
) => {
  base(
    {
      hostname: proxy.hostname,
      host: `${proxy.hostname}:${proxy.port}`,
      protocol: proxy.protocol,
      port: proxy.port,
      ...(proxy.protocol === "https:" && net.isIP(bare(proxy.hostname)) === 0 ? { servername: proxy.hostname } : {})
    },
    (error, socket) => {
      if (error !== null || socket === null) return done(error ?? new Error("proxy connection failed"), null)
      // The reply head is copied once into a buffer of the cap, and its end is searched only in the new bytes (and
      // the 3 before them), so a reply trickled in one-byte chunks costs linear time, not a concat per chunk.
      const head = Buffer.allocUnsafe(maxProxyHead)
      let filled = 0
      let settled = false
      const finish = (failure: Error | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        socket.off("data", onData)
        socket.off("error", onError)
        socket.off("close", onClose)
        if (failure !== null) {
          socket.destroy()
          done(failure, null)
        } else {
          done(null, socket)
        }
      }
      const onError = (cause: Error) => finish(cause)
      const onClose = () => finish(new ProxyFailed("the proxy closed the connection during CONNECT", "ECONNRESET"))
      const onData = (chunk: Buffer) => {
        const take = Math.min(maxProxyHead - filled, chunk.length)
        chunk.copy(head, filled, 0, take)
        const from = Math.max(0, filled - 3)
        filled += take
        const end = head.subarray(0, filled).indexOf("\r\n\r\n", from)
        if (end === -1) {
          if (take < chunk.length) finish(new ProxyFailed("the proxy sent an oversized reply", "EPROXY"))
          return
        }
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString("latin1"))
        const code = status === null ? 0 : Number(status[1])
        if (code < 200 || code > 299) {
          return finish(new ProxyFailed(`the proxy refused the tunnel (status ${code || "unreadable"})`, "EPROXY"))
        }
        // What followed the head (the tunnel's first bytes) goes back to the socket, copied out of the reused buffer.
        const rest = Buffer.concat([head.subarray(end + 4, filled), chunk.subarray(take)])
        finish(null)
        if (rest.length > 0) socket.unshift(rest)
      }
      const timer = setTimeout(
        () => finish(new ProxyFailed("the proxy did not answer CONNECT in time", "UND_ERR_CONNECT_TIMEOUT")),
        timeoutMs
      )
      socket.on("data", onData)
      socket.on("error", onError)
      socket.on("close", onClose)
      const auth = proxy.authorization === undefined ? "" : `proxy-authorization: ${proxy.authorization}\r\n`
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${auth}\r\n`)
    }
  )
}

/**
 * Builds the pinned connector. `base` opens plain or TLS sockets (undici's `buildConnector`, or a test's
 * recording connector); every dial of the transport goes through it.
 */
export const make = (options: {
  readonly base: buildConnector.connector
  readonly pins: Pins
  readonly proxy: Proxy | undefined
  readonly connectTimeoutMs: number
}): buildConnector.connector => {
  const { base, pins, proxy } = options
  return (connect, callback) => {
    const address = bare(connect.hostname)
    if (net.isIP(address) === 0 || !pins.has(address)) {
      return callback(new DialRefused(connect.hostname), null)
    }
    if (proxy === undefined) return base(connect, callback)
    const port = connect.port === "" ? (connect.protocol === "https:" ? "443" : "80") : connect.port
    const authority = `${net.isIPv6(address) ? `[${address}]` : address}:${port}`
    tunnel(base, proxy, authority, options.connectTimeoutMs, (error, socket) => {
      if (error !== null || socket === null) return callback(error ?? new Error("tunnel failed"), null)
      if (connect.protocol !== "https:") return callback(null, socket)
      base({ ...connect, httpSocket: socket }, callback)
    })
  }
}
