/**
 * The URL policy: which URLs websearch may fetch and which addresses it may connect to. It is pure (no DNS, no
 * sockets); the transport asks it twice, once with the URL ({@link checkUrl}) and once with every address the
 * name resolved to ({@link checkAddress}), and connects only to an address that passed.
 *
 * What passes {@link checkUrl}:
 *
 * - `http:` and `https:` only, without a user name or password;
 * - a host that is a public IP literal, or a name that is not local (`localhost`, `*.localhost`, `*.local`,
 *   `*.internal`, `*.home.arpa`, `*.localdomain`, `*.lan`, `*.intranet`, `*.private`, `*.corp`, `*.home`, and
 *   single-label names such as `searxng` or `metadata`, which only resolve through a search domain or a hosts
 *   file);
 * - port 80, 443 or one of `allowPorts`.
 *
 * Every spelling of an IPv4 address that the WHATWG URL parser accepts (decimal `2130706433`, octal `0177.0.0.1`,
 * hex `0x7f.1`, short forms, a trailing dot, percent-encoded and full-width digits) is normalised by the parser
 * before the policy sees the host, so it is judged as the address it denotes. IPv6 zone identifiers are not
 * valid in URLs. IPv6 addresses that embed an IPv4 address are judged by the embedded address
 * ({@link classifyAddress}).
 *
 * The allowlist, for self-hosted services and fake-IP proxies:
 *
 * - `allowHosts` entries are host names or IP literals, optionally with a port. `searxng` or `127.0.0.1` trusts
 *   that host on any port; `127.0.0.1:8080` (or `[::1]:8080`) trusts that host on that port only, so a
 *   redirect to another port of the same host is refused. `*.corp.example` trusts `corp.example` and every name
 *   under it (as `*.host` does in the blacklist). A trusted host passes whatever it resolves to.
 * - `allowCidrs` entries (`198.18.0.0/15`, `fd00::/8`) trust addresses: an IP literal inside one, and any
 *   name that resolves inside one. They open no port: such URLs still need 80, 443 or `allowPorts`. An IPv4
 *   block also covers the IPv4-mapped IPv6 form (`::ffff:198.18.0.1`) of its addresses.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import { dual } from "effect/Function"
import type ipaddr from "ipaddr.js"
import * as Cidr from "./internal/cidr.js"
import * as AddressClasses from "./internal/addressClass.js"
import * as HostName from "./internal/hostName.js"
import { type Address, inBlock, parseAddress } from "./internal/ipAddress.js"
import * as WebSearchError from "./WebSearchError.js"

// --- Address classes and host names (internal/addressClass, internal/hostName) ------------------------------

/**
 * What kind of address an IP address is. Everything but `public` is refused unless allowlisted.
 *
 * @since 0.1.0
 * @category models
 */
export type AddressClass = AddressClasses.AddressClass

/**
 * An address block: its first address (as parsed by ipaddr.js) and prefix length.
 */
type AddressRange = Cidr.AddressRange

/**
 * Classifies an IP literal (IPv4 or IPv6, brackets and an IPv6 zone allowed; IPv4 in any form `inet_aton` reads,
 * such as `127.1` or `0x7f.1`). IPv6 that embeds IPv4 is classified by the embedded address: IPv4-mapped (dotted
 * and hex), IPv4-compatible `::a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96` and
 * `64:ff9b:1::/48`, 6to4 `2002::/16`, and Teredo `2001::/32` (the client address, the inverted last 32 bits).
 * Where the prefix itself is not globally reachable (compatible, translated, local-use NAT64) a public
 * embedded address still gives `reserved`. IPv6 outside `2000::/3` is never public. `undefined` when the
 * text is not an IP literal.
 *
 * @since 0.1.0
 * @category guards
 */
export const classifyAddress: (address: string) => AddressClass | undefined = AddressClasses.classifyAddress

/**
 * Whether an IP literal is a public address; false for anything that is not an IP literal.
 *
 * @since 0.1.0
 * @category guards
 */
export const isPublicAddress = (address: string): boolean => classifyAddress(address) === "public"

/**
 * Normalises a host as the policy compares it: lower-cased, brackets removed, trailing dots removed.
 *
 * @since 0.1.0
 * @category utils
 */
export const normalizeHost: (host: string) => string = HostName.normalizeHost

/**
 * The local-name rule a host name breaks, or `undefined` when the name may be public: `localhost`, a name under
 * one of the local suffixes (`*.local`, `*.internal`, ...), or a single-label name.
 *
 * @since 0.1.0
 * @category guards
 */
export const localNameRule: (host: string) => string | undefined = HostName.localNameRule

// --- Policy -------------------------------------------------------------------------------------------------

/**
 * What a policy allows beyond public hosts on ports 80 and 443.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly allowHosts?: ReadonlyArray<string> | undefined
  readonly allowCidrs?: ReadonlyArray<string> | undefined
  readonly allowPorts?: ReadonlyArray<number> | undefined
}

/**
 * An allowlist entry that could not be understood, named by its field and position (`allowHosts.0`). Such an
 * entry allows nothing; settings refuse to load with one.
 */
interface Problem {
  readonly field: string
  readonly message: string
}

/**
 * A compiled `allowHosts` entry: the host as the policy compares it (see {@link normalizeHost}; for a wildcard,
 * the part after `*.`), whether it is a wildcard, and the only port it trusts (`undefined` trusts every port).
 */
type HostRule = HostName.HostRule

/**
 * A compiled `allowCidrs` entry.
 */
interface CidrRule {
  readonly cidr: string
  readonly range: AddressRange
}

const TypeId: unique symbol = Symbol.for("@websearch/core/UrlPolicy")

/**
 * @since 0.1.0
 * @category constants
 */
export type TypeId = typeof TypeId

/**
 * A compiled policy. `allowHosts`, `allowCidrs` and `allowPorts` are the entries as given.
 *
 * @since 0.1.0
 * @category models
 */
export interface UrlPolicy {
  readonly [TypeId]: TypeId
  readonly allowHosts: ReadonlyArray<string>
  readonly allowCidrs: ReadonlyArray<string>
  readonly allowPorts: ReadonlyArray<number>
  readonly hostRules: ReadonlyArray<HostRule>
  readonly cidrRules: ReadonlyArray<CidrRule>
  /** 80, 443 and `allowPorts`. */
  readonly ports: ReadonlySet<number>
  /** Entries that could not be understood (they allow nothing). Empty for a policy built from loaded settings. */
  readonly problems: ReadonlyArray<Problem>
}

/**
 * Whether a value is a compiled policy.
 *
 * @since 0.1.0
 * @category guards
 */
export const isUrlPolicy = (u: unknown): u is UrlPolicy => typeof u === "object" && u !== null && TypeId in u

const parseCidrEntry = (raw: string): Either.Either<CidrRule, string> =>
  Either.map(Cidr.parse(raw.trim()), (range) => ({ cidr: raw.trim(), range }))

/**
 * Compiles a policy. It never fails: an entry that cannot be understood allows nothing and is listed in
 * `problems` (settings validation reports those, so a loaded configuration never has any).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): UrlPolicy => {
  const problems: Array<Problem> = []
  const allowHosts = options.allowHosts ?? []
  const allowCidrs = options.allowCidrs ?? []
  const allowPorts = options.allowPorts ?? []
  const hostRules: Array<HostRule> = []
  allowHosts.forEach((entry, index) => {
    Either.match(HostName.parseHostEntry(String(entry)), {
      onLeft: (message) => problems.push({ field: `allowHosts.${index}`, message }),
      onRight: (rule) => hostRules.push(rule)
    })
  })
  const cidrRules: Array<CidrRule> = []
  allowCidrs.forEach((entry, index) => {
    Either.match(parseCidrEntry(String(entry)), {
      onLeft: (message) => problems.push({ field: `allowCidrs.${index}`, message }),
      onRight: (rule) => cidrRules.push(rule)
    })
  })
  const ports = new Set([80, 443])
  allowPorts.forEach((port, index) => {
    if (HostName.isPort(port)) ports.add(port)
    else problems.push({ field: `allowPorts.${index}`, message: `${port} is not a port (an integer from 1 to 65535)` })
  })
  return { [TypeId]: TypeId, allowHosts, allowCidrs, allowPorts, hostRules, cidrRules, ports, problems }
}

/**
 * The policy of loaded settings (compiled once at load; settings built by hand are compiled here). It takes any
 * value with the settings' `urlPolicy` field, so this module does not depend on `Settings`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromSettings = (settings: { readonly urlPolicy: Options | UrlPolicy }): UrlPolicy =>
  isUrlPolicy(settings.urlPolicy) ? settings.urlPolicy : make(settings.urlPolicy)

const hostMatches = (rule: HostRule, host: string): boolean =>
  host === rule.host || (rule.wildcard && host.endsWith(`.${rule.host}`))

const matchHostRule = (self: UrlPolicy, host: string, port: number): HostRule | undefined =>
  self.hostRules.find((rule) => hostMatches(rule, host) && (rule.port === undefined || rule.port === port))

const inAllowedCidrs = (self: UrlPolicy, address: Address): boolean => {
  if (self.cidrRules.length === 0) return false
  // A mapped IPv6 address is the IPv4 host itself, so IPv4 blocks cover it.
  const ipv4 =
    address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? (address as ipaddr.IPv6).toIPv4Address()
      : undefined
  return self.cidrRules.some(
    (rule) => inBlock(address, rule.range) || (ipv4 !== undefined && inBlock(ipv4, rule.range))
  )
}

/**
 * Whether an IP literal lies inside one of the policy's `allowCidrs` (false for anything else).
 *
 * @since 0.1.0
 * @category guards
 */
export const isAllowedAddress: {
  (address: string): (self: UrlPolicy) => boolean
  (self: UrlPolicy, address: string): boolean
} = dual(2, (self: UrlPolicy, address: string): boolean => {
  const parsed = parseAddress(address)
  return parsed !== undefined && inAllowedCidrs(self, parsed)
})

// --- URLs ---------------------------------------------------------------------------------------------------

const preview = (s: string): string => (s.length > 120 ? `${s.slice(0, 117)}...` : s)

/**
 * Parses a URL with the WHATWG parser and applies the rules that do not depend on the host: http or https
 * only, no user name or password. Fails `RequestFailed/invalid_input` when the text is empty or not a URL, and
 * `RequestFailed/ssrf_rejected` for another scheme or credentials. The one place these rules live: request
 * normalisation and settings use it too. Never quotes a password.
 *
 * @since 0.1.0
 * @category guards
 */
export const parseHttpUrl = (url: string | URL): Either.Either<URL, WebSearchError.RequestFailed> => {
  let parsed: URL
  if (typeof url === "string") {
    const trimmed = url.trim()
    if (trimmed.length === 0) return Either.left(WebSearchError.requestFailed("invalid_input", "the URL is empty"))
    if (!URL.canParse(trimmed)) {
      return Either.left(WebSearchError.requestFailed("invalid_input", `"${preview(trimmed)}" is not a valid URL`))
    }
    parsed = new URL(trimmed)
  } else {
    // A copy, so that a caller mutating its URL later cannot change what was checked.
    parsed = new URL(url.href)
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    const shown = parsed.username !== "" || parsed.password !== "" ? `${parsed.protocol}...` : parsed.href
    return Either.left(
      WebSearchError.requestFailed(
        "ssrf_rejected",
        `"${preview(shown)}" uses ${parsed.protocol.slice(0, -1)}; only http and https URLs can be fetched`
      )
    )
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return Either.left(
      WebSearchError.requestFailed(
        "ssrf_rejected",
        `"${preview(`${parsed.host}${parsed.pathname}`)}" carries a user name or password; credentials in URLs are refused`
      )
    )
  }
  if (parsed.hostname === "") {
    return Either.left(WebSearchError.requestFailed("invalid_input", `"${preview(parsed.href)}" has no host`))
  }
  return Either.right(parsed)
}

/**
 * A URL that passed {@link checkUrl}.
 *
 * @since 0.1.0
 * @category models
 */
export interface CheckedUrl {
  /** The URL as the WHATWG parser serialises it. */
  readonly url: URL
  /** The host lower-cased, without brackets or trailing dots. */
  readonly host: string
  /** The port the connection goes to (80 or 443 when the URL names none). */
  readonly port: number
  /** Whether the host is an IP literal (every IPv4 spelling is normalised to dotted decimal by the parser). */
  readonly literal: boolean
  /** Whether the host matched `allowHosts`, or is a literal inside `allowCidrs`. */
  readonly allowlisted: boolean
}

const refused = (message: string) => WebSearchError.requestFailed("ssrf_rejected", message)

const describePorts = (self: UrlPolicy) => [...self.ports].sort((a, b) => a - b).join(", ")

const entryFor = (host: string, port: number) => (host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`)

/**
 * Checks a URL before anything is sent: the scheme, credentials, host and port rules of the module
 * documentation. Fails `RequestFailed/ssrf_rejected` naming what was refused (or `RequestFailed/invalid_input`
 * when the text is not a URL). A name that passes must still have every address it resolves to checked with
 * {@link checkAddress}.
 *
 * @since 0.1.0
 * @category guards
 */
export const checkUrl: {
  (url: string | URL): (self: UrlPolicy) => Either.Either<CheckedUrl, WebSearchError.RequestFailed>
  (self: UrlPolicy, url: string | URL): Either.Either<CheckedUrl, WebSearchError.RequestFailed>
} = dual(2, (self: UrlPolicy, input: string | URL): Either.Either<CheckedUrl, WebSearchError.RequestFailed> => {
  const parsed = parseHttpUrl(input)
  if (Either.isLeft(parsed)) return Either.left(parsed.left)
  const url = parsed.right
  const hostname = normalizeHost(url.hostname)
  const address = parseAddress(hostname)
  // The parser already writes IPv4 in dotted decimal, except behind extra trailing dots (`127.0.0.1..`).
  const host = address?.kind() === "ipv4" ? address.toString() : hostname
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port)
  const rule = matchHostRule(self, host, port)
  const allowlisted = rule !== undefined || (address !== undefined && inAllowedCidrs(self, address))
  const shown = `${url.protocol}//${url.host}`
  if (!allowlisted) {
    const how = `allow it with urlPolicy.allowHosts${address === undefined ? "" : " or urlPolicy.allowCidrs"}`
    if (address !== undefined) {
      const addressClass = AddressClasses.classifyParsed(address)
      if (addressClass !== "public") {
        return Either.left(
          refused(`${shown} is refused: ${host} is a ${AddressClasses.classNames[addressClass]} address (${how})`)
        )
      }
    } else {
      const local = localNameRule(host)
      if (local !== undefined) return Either.left(refused(`${shown} is refused: ${host} is ${local} (${how})`))
    }
  }
  // A matching allowHosts entry trusts either every port or exactly this one.
  if (!self.ports.has(port) && rule === undefined) {
    return Either.left(
      refused(
        `${shown} is refused: port ${port} is not allowed (allowed: ${describePorts(self)}; add it to urlPolicy.allowPorts, or trust "${entryFor(host, port)}" in urlPolicy.allowHosts)`
      )
    )
  }
  return Either.right({ url, host, port, literal: address !== undefined, allowlisted })
})

/**
 * Checks one address a checked URL's name resolved to (or its literal). Passes when the address is public, the
 * URL's host was allowlisted, or the address lies inside `allowCidrs`; fails `RequestFailed/ssrf_rejected`
 * otherwise, and for anything that is not an IP address. The message names the host, never the address: whoever
 * set the URL (a workspace admin through an API) must not learn what an internal name resolves to. A URL whose
 * host is the address itself is the caller's own text, and `checkUrl` names it.
 *
 * @since 0.1.0
 * @category guards
 */
export const checkAddress: {
  (checked: CheckedUrl, address: string): (self: UrlPolicy) => Either.Either<void, WebSearchError.RequestFailed>
  (self: UrlPolicy, checked: CheckedUrl, address: string): Either.Either<void, WebSearchError.RequestFailed>
} = dual(
  3,
  (self: UrlPolicy, checked: CheckedUrl, address: string): Either.Either<void, WebSearchError.RequestFailed> => {
    const parsed = parseAddress(address)
    if (parsed === undefined) {
      return Either.left(refused(`${checked.host} resolves to something that is not an IP address; refused`))
    }
    if (checked.allowlisted || inAllowedCidrs(self, parsed)) return Either.void
    const addressClass = AddressClasses.classifyParsed(parsed)
    if (addressClass === "public") return Either.void
    return Either.left(
      refused(
        `${checked.host} resolves to an address that is not public; refused (trust the host with ` +
          "urlPolicy.allowHosts, or its addresses with urlPolicy.allowCidrs)"
      )
    )
  }
)
