/**
 * Host names as the URL policy compares them, and the names that only resolve locally. See
 * `UrlPolicy.normalizeHost` and `UrlPolicy.localNameRule`.
 */
import * as Either from "effect/Either"
import { parseAddress } from "./ipAddress.js"

// RFC 6761 / 6762 (and its appendix G), RFC 8375, and the ICANN-reserved .internal.
const localSuffixes = [
  "localhost",
  "local",
  "internal",
  "home.arpa",
  "localdomain",
  "lan",
  "intranet",
  "private",
  "corp",
  "home"
]

/** A host lower-cased, brackets and trailing dots removed. */
export const normalizeHost = (host: string): string => {
  let out = host.trim().toLowerCase()
  if (out.startsWith("[") && out.endsWith("]")) out = out.slice(1, -1)
  return out.replace(/\.+$/, "")
}

/** The local-name rule a host name breaks, or `undefined` when the name may be public. */
export const localNameRule = (host: string): string | undefined => {
  const name = normalizeHost(host)
  if (name === "") return "an empty host"
  const suffix = localSuffixes.find((s) => name === s || name.endsWith(`.${s}`))
  if (suffix !== undefined) return name === suffix ? "a local name" : `a local name (*.${suffix})`
  if (!name.includes(".") && parseAddress(name) === undefined) return "a single-label name, resolved only locally"
  return undefined
}

/** A compiled `allowHosts` entry. */
export interface HostRule {
  /** The host as the policy compares it (see `normalizeHost`); for a wildcard, the part after `*.`. */
  readonly host: string
  readonly wildcard: boolean
  /** The only port this entry trusts; `undefined` trusts every port. */
  readonly port: number | undefined
}

const portText = /^\d{1,5}$/

export const isPort = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65535

/** Reads an `allowHosts` entry (a host name or IP literal, optionally `*.` and a port), or says why not. */
export const parseHostEntry = (raw: string): Either.Either<HostRule, string> => {
  let text = raw.trim().toLowerCase()
  if (text === "") return Either.left("an empty host")
  const wildcard = text.startsWith("*.")
  if (wildcard) text = text.slice(2)
  let port: string | undefined
  if (text.startsWith("[")) {
    const bracketed = /^(\[[^\]]*\])(?::(.*))?$/.exec(text)
    if (bracketed === null) return Either.left(`"${raw}" is not a host (an IPv6 host is written [::1] or [::1]:8080)`)
    text = bracketed[1]
    port = bracketed[2]
  } else {
    const colons = text.split(":").length - 1
    if (colons === 1) [text, port] = text.split(":")
    else if (colons > 1) text = `[${text}]`
  }
  if (port !== undefined && !(portText.test(port) && isPort(Number(port)))) {
    return Either.left(`"${raw}" has port "${port}"; a port is an integer from 1 to 65535`)
  }
  const url = URL.canParse(`http://${text}/`) ? new URL(`http://${text}/`) : undefined
  if (
    url === undefined ||
    text === "" ||
    text.includes("*") ||
    url.pathname !== "/" ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== "" ||
    url.port !== ""
  ) {
    return Either.left(`"${raw}" is not a host name or IP address (example.com, *.example.com, 10.0.0.5:8080, [::1])`)
  }
  const host = normalizeHost(url.hostname)
  if (host === "") return Either.left(`"${raw}" has no host`)
  if (wildcard && parseAddress(host) !== undefined) {
    return Either.left(`"${raw}": a wildcard needs a domain name, not an IP address (use allowCidrs for ranges)`)
  }
  return Either.right({ host, wildcard, port: port === undefined ? undefined : Number(port) })
}
