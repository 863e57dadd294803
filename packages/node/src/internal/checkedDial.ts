/**
 * The connector of the provider-call client's pools (`ProxyHttpClient`): every new connection resolves its host
 * once, checks every answer against the URL policy and dials the checked address, so a user-set endpoint or proxy
 * whose name passed the policy at load cannot be pointed at a loopback or private address through DNS afterwards
 * (rebinding). The name is kept for TLS (SNI and the certificate check).
 */
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as net from "node:net"
import { buildConnector } from "undici"
import * as HopAddress from "./hopAddress.js"
import type * as TransportModel from "./transportModel.js"

// The address to dial for `host` (resolved once, every answer checked: `hopAddress.ts`, as the fetcher's hops are),
// or the refusal. Any port: the port rule is the target URL's, judged at load.
const resolveChecked = async (
  policy: UrlPolicy.UrlPolicy,
  lookup: TransportModel.Lookup,
  protocol: string,
  host: string,
  port: number
): Promise<string> => {
  const anyPort: UrlPolicy.UrlPolicy = { ...policy, ports: new Set([...policy.ports, port]) }
  const bracketed = net.isIPv6(host) ? `[${host}]` : host
  const checked = UrlPolicy.checkUrl(anyPort, `${protocol}//${bracketed}:${port}/`)
  if (Either.isLeft(checked)) throw checked.left
  const address = await Effect.runPromise(
    Effect.either(HopAddress.resolve({ policy: anyPort, lookup, maxBodyBytes: 0 }, checked.right, "dial", 0))
  )
  if (Either.isLeft(address)) throw address.left
  return address.right
}

/**
 * An undici `connect` function that checks before it dials. `label` starts the message of a refusal (`the proxy
 * http://proxy.example:3128`), so it says which connection was refused.
 */
export const make = (
  policy: UrlPolicy.UrlPolicy,
  lookup: TransportModel.Lookup = HopAddress.defaultLookup,
  label?: string
): buildConnector.connector => {
  const dial = buildConnector({})
  const labelled = (error: unknown): Error => {
    if (!(error instanceof WebSearchError.RequestFailed))
      return error instanceof Error ? error : new Error(String(error))
    return label === undefined
      ? error
      : WebSearchError.annotate(error, { message: `${label}: ${error.message}` }, false)
  }
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80)
    // undici writes an IPv6 host in brackets; the policy and net want it bare.
    const host = options.hostname.startsWith("[") ? options.hostname.slice(1, -1) : options.hostname
    // The name stays what TLS verifies; an IP literal gets no SNI, as undici does for it.
    const servername = options.servername ?? (net.isIP(host) === 0 ? host : undefined)
    resolveChecked(policy, lookup, options.protocol, host, port).then(
      (address) =>
        dial({ ...options, hostname: address, ...(servername === undefined ? {} : { servername }) }, callback),
      (error: unknown) => callback(labelled(error), null)
    )
  }
}
