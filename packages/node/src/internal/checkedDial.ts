/**
 * The connectors of the provider-call client's pools (`ProxyHttpClient`): every new connection resolves its target
 * once, checks every answer against the URL policy and reaches only the checked address, so a user-set endpoint or
 * proxy whose name passed the policy at load cannot be pointed at a loopback or private address through DNS
 * afterwards (rebinding). A direct connection dials the address; a proxied one asks the proxy for a CONNECT tunnel
 * to the address, never to the name, which the proxy would resolve by itself (to wherever its own network
 * reaches). The name is kept for TLS (SNI and the certificate check).
 *
 * undici calls a connector outside any fiber, so the check runs on the runtime the client was built in
 * (`Effect.runtime` where `ProxyHttpClient.make` runs): the application's tracer sees the lookup's span, its
 * logger and config provider serve a lookup written as an Effect, as they would anywhere else in the client.
 */
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Runtime from "effect/Runtime"
import * as net from "node:net"
import { buildConnector } from "undici"
import * as PinnedConnector from "./connector.js"
import * as HopAddress from "./hopAddress.js"
import type * as TransportModel from "./transportModel.js"

/** Where a checked connection goes: an address that passed, or a name the policy trusts whatever it resolves to. */
type Checked =
  { readonly _tag: "Address"; readonly address: string } | { readonly _tag: "TrustedName"; readonly name: string }

// The target of `host` checked (resolved once, every answer checked: `hopAddress.ts`, as the fetcher's hops are),
// or the refusal. Any port: the port rule is the target URL's, judged at load. A name on `allowHosts` passes
// whatever it resolves to: through a proxy it is handed over as it is (`namesTrusted`), so hosts the operator
// trusts keep working where only the proxy can resolve names.
const resolveChecked = async (
  runtime: Runtime.Runtime<never>,
  policy: UrlPolicy.UrlPolicy,
  lookup: TransportModel.Lookup,
  target: { readonly protocol: string; readonly host: string; readonly port: number },
  namesTrusted: boolean
): Promise<Checked> => {
  const anyPort: UrlPolicy.UrlPolicy = { ...policy, ports: new Set([...policy.ports, target.port]) }
  const bracketed = net.isIPv6(target.host) ? `[${target.host}]` : target.host
  const checked = UrlPolicy.checkUrl(anyPort, `${target.protocol}//${bracketed}:${target.port}/`)
  if (Either.isLeft(checked)) throw checked.left
  if (namesTrusted && checked.right.allowlisted && !checked.right.literal) {
    return { _tag: "TrustedName", name: checked.right.host }
  }
  const address = await Runtime.runPromise(runtime)(
    Effect.either(HopAddress.resolve({ policy: anyPort, lookup, maxBodyBytes: 0 }, checked.right, "dial", 0))
  )
  if (Either.isLeft(address)) throw address.left
  return { _tag: "Address", address: address.right }
}

const labelled =
  (label: string | undefined) =>
  (error: unknown): Error => {
    if (!(error instanceof WebSearchError.RequestFailed))
      return error instanceof Error ? error : new Error(String(error))
    return label === undefined
      ? error
      : WebSearchError.annotate(error, { message: `${label}: ${error.message}` }, false)
  }

// What undici asks a connector for, read once: the port, the host without brackets, and the name TLS verifies
// (an IP literal gets no SNI, as undici does for it).
const targetOf = (options: buildConnector.Options) => {
  const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80)
  const host = options.hostname.startsWith("[") ? options.hostname.slice(1, -1) : options.hostname
  const servername = options.servername ?? (net.isIP(host) === 0 ? host : undefined)
  return { protocol: options.protocol, host, port, servername }
}

/** What the connectors are built with besides the policy. */
export interface Options {
  /** The resolver; default `dns.promises.lookup(host, { all: true, verbatim: true })`. */
  readonly lookup?: TransportModel.Lookup | undefined
  /** Certificates to trust besides the system's, for a provider or proxy under a private CA. */
  readonly ca?: string | Uint8Array | ReadonlyArray<string | Uint8Array> | undefined
  /** The bound on opening a connection (TCP, CONNECT, TLS); default 10 s, as undici's. */
  readonly connectTimeoutMs?: number | undefined
}

const connectorOf = (options: Options) =>
  buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    ...(options.ca === undefined ? {} : { ca: options.ca as string | Array<string> })
  })

/**
 * An undici `connect` function that checks before it dials. `label` starts the message of a refusal (`the proxy
 * http://proxy.example:3128`), so it says which connection was refused.
 */
export const make = (
  runtime: Runtime.Runtime<never>,
  policy: UrlPolicy.UrlPolicy,
  options: Options = {},
  label?: string
): buildConnector.connector => {
  const lookup = options.lookup ?? HopAddress.defaultLookup
  const dial = connectorOf(options)
  const refusal = labelled(label)
  return (connect, callback) => {
    const target = targetOf(connect)
    resolveChecked(runtime, policy, lookup, target, false).then(
      (checked) =>
        dial(
          {
            ...connect,
            hostname: checked._tag === "Address" ? checked.address : checked.name,
            ...(target.servername === undefined ? {} : { servername: target.servername })
          },
          callback
        ),
      (error: unknown) => callback(refusal(error), null)
    )
  }
}

/** A checked proxy as the tunnelling connector needs it. */
export interface Proxy extends PinnedConnector.Proxy {
  /** `scheme://host:port`, without credentials: what a refusal of the proxy's own dial names. */
  readonly origin: string
}

/**
 * An undici `connect` function that reaches every target through `proxy`: the target is resolved and checked as
 * `make` checks a direct dial (a refusal is `RequestFailed/ssrf_rejected` before the proxy is even dialled), and
 * the proxy is asked for a CONNECT tunnel to the checked address; an https target's TLS then runs inside the
 * tunnel with the name as SNI. The proxy's own connection is checked too, its refusal naming the proxy.
 */
export const through = (
  runtime: Runtime.Runtime<never>,
  policy: UrlPolicy.UrlPolicy,
  proxy: Proxy,
  options: Options = {}
): buildConnector.connector => {
  const lookup = options.lookup ?? HopAddress.defaultLookup
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000
  const toProxy = make(runtime, policy, options, `the proxy ${proxy.origin}`)
  const tls = connectorOf(options)
  return (connect, callback) => {
    const target = targetOf(connect)
    resolveChecked(runtime, policy, lookup, target, true).then(
      (checked) => {
        const host = checked._tag === "Address" ? checked.address : checked.name
        const authority = `${net.isIPv6(host) ? `[${host}]` : host}:${target.port}`
        PinnedConnector.tunnel(toProxy, proxy, authority, connectTimeoutMs, (error, socket) => {
          if (error !== null || socket === null) return callback(error ?? new Error("the tunnel failed"), null)
          if (connect.protocol !== "https:") return callback(null, socket)
          tls(
            {
              ...connect,
              hostname: host,
              httpSocket: socket,
              ...(target.servername === undefined ? {} : { servername: target.servername })
            },
            callback
          )
        })
      },
      (error: unknown) => callback(labelled(undefined)(error), null)
    )
  }
}
