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
import ipaddr from "ipaddr.js"
import type * as Settings from "./Settings.js"
import * as WebSearchError from "./WebSearchError.js"

// --- Address classification -------------------------------------------------------------------------------

/**
 * What kind of address an IP address is. Everything but `public` is refused unless allowlisted.
 *
 * @since 0.1.0
 * @category models
 */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "cgnat"
  | "link_local"
  | "metadata"
  | "unspecified"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved"
  | "unique_local"
  | "site_local"

type Address = ipaddr.IPv4 | ipaddr.IPv6

/**
 * An address block: its first address (as parsed by ipaddr.js) and prefix length.
 *
 * @since 0.1.0
 * @category models
 */
export interface AddressRange {
  readonly address: ipaddr.IPv4 | ipaddr.IPv6
  readonly bits: number
}

const range = (cidr: string): AddressRange => {
  const [address, bits] = ipaddr.parseCIDR(cidr)
  return { address, bits }
}

const inRange = (address: Address, r: AddressRange): boolean =>
  address.kind() === r.address.kind() && address.match(r.address, r.bits)

const table = (entries: ReadonlyArray<readonly [string, AddressClass]>) =>
  entries.map(([cidr, addressClass]) => ({ range: range(cidr), addressClass }))

// First match wins, so single addresses come before the blocks that contain them. ipaddr.js's own `range()`
// is too coarse here (one "reserved" for documentation, benchmarking and 240/4; no metadata addresses).
const ipv4Table = table([
  ["169.254.169.254/32", "metadata"], // AWS, GCP, Azure, OCI, DigitalOcean instance metadata
  ["100.100.100.200/32", "metadata"], // Alibaba Cloud
  ["168.63.129.16/32", "metadata"], // Azure wire server: a public-looking address that is really the host
  ["255.255.255.255/32", "broadcast"],
  ["0.0.0.0/8", "unspecified"], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "cgnat"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link_local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"], // IETF protocol assignments
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "reserved"], // former 6to4 relay anycast
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"], // also where fake-IP proxies map names: allowCidrs opens it
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"]
])

const ipv6Exact = table([
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["fd00:ec2::254/128", "metadata"] // AWS instance metadata over IPv6
])

const ipv6Table = table([
  ["fe80::/10", "link_local"],
  ["fec0::/10", "site_local"],
  ["fc00::/7", "unique_local"],
  ["ff00::/8", "multicast"],
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
  ["2001:2::/48", "benchmarking"],
  ["100::/64", "reserved"], // discard-only
  ["2001::/23", "reserved"] // IETF special purpose (Teredo, inside it, is handled before this table)
])

const globalUnicast = range("2000::/3")

type Bytes = ReadonlyArray<number>

const ipv4Of = (bytes: Bytes, at: readonly [number, number, number, number], invert = false): ipaddr.IPv4 =>
  new ipaddr.IPv4(at.map((i) => (invert ? bytes[i] ^ 0xff : bytes[i])))

/**
 * IPv6 prefixes that carry an IPv4 address. `special` prefixes are not globally reachable as such: an address
 * in them is non-public even when the IPv4 address it carries is public (classified `reserved`).
 */
const embedding: ReadonlyArray<{
  readonly range: AddressRange
  readonly special: boolean
  /** Every IPv4 address the IPv6 address may stand for; all must be public for the address to be public. */
  readonly extract: (bytes: Bytes) => ReadonlyArray<ipaddr.IPv4>
}> = [
  // IPv4-mapped, in dotted (::ffff:127.0.0.1) or hex (::ffff:7f00:1) form: the same host as the IPv4 address.
  { range: range("::ffff:0:0/96"), special: false, extract: (b) => [ipv4Of(b, [12, 13, 14, 15])] },
  // IPv4-compatible (::127.0.0.1): deprecated since RFC 4291; some stacks tunnel it, none should be asked to.
  { range: range("::/96"), special: true, extract: (b) => [ipv4Of(b, [12, 13, 14, 15])] },
  // IPv4-translated (SIIT, ::ffff:0:a.b.c.d): only meaningful inside a translator's network.
  { range: range("::ffff:0:0:0/96"), special: true, extract: (b) => [ipv4Of(b, [12, 13, 14, 15])] },
  // NAT64 well-known prefix: the translator reaches the IPv4 address.
  { range: range("64:ff9b::/96"), special: false, extract: (b) => [ipv4Of(b, [12, 13, 14, 15])] },
  // NAT64 local-use prefix (RFC 8215): the operator picks the prefix length, so every RFC 6052 layout that fits
  // inside the /48 is read, and the address is never public by itself (allow it with allowCidrs).
  {
    range: range("64:ff9b:1::/48"),
    special: true,
    extract: (b) => [
      ipv4Of(b, [12, 13, 14, 15]), // /96
      ipv4Of(b, [9, 10, 11, 12]), // /64
      ipv4Of(b, [7, 9, 10, 11]), // /56
      ipv4Of(b, [6, 7, 9, 10]) // /48
    ]
  },
  // 6to4: the IPv4 address follows the prefix.
  { range: range("2002::/16"), special: false, extract: (b) => [ipv4Of(b, [2, 3, 4, 5])] },
  // Teredo: the client's IPv4 address is the last 32 bits, inverted.
  { range: range("2001::/32"), special: false, extract: (b) => [ipv4Of(b, [12, 13, 14, 15], true)] }
]

const classifyIPv4 = (address: ipaddr.IPv4): AddressClass =>
  ipv4Table.find((entry) => inRange(address, entry.range))?.addressClass ?? "public"

const classifyIPv6 = (address: ipaddr.IPv6): AddressClass => {
  const exact = ipv6Exact.find((entry) => inRange(address, entry.range))
  if (exact !== undefined) return exact.addressClass
  const embedded = embedding.find((entry) => inRange(address, entry.range))
  if (embedded !== undefined) {
    const bytes = address.toByteArray()
    for (const ipv4 of embedded.extract(bytes)) {
      const addressClass = classifyIPv4(ipv4)
      if (addressClass !== "public") return addressClass
    }
    return embedded.special ? "reserved" : "public"
  }
  const listed = ipv6Table.find((entry) => inRange(address, entry.range))
  if (listed !== undefined) return listed.addressClass
  return inRange(address, globalUnicast) ? "public" : "reserved"
}

const classifyParsed = (address: Address): AddressClass =>
  address.kind() === "ipv4" ? classifyIPv4(address as ipaddr.IPv4) : classifyIPv6(address as ipaddr.IPv6)

const ipv4Chars = /^[0-9a-fx.]+$/i

/**
 * Parses an IP literal: IPv6 with or without brackets and with an optional zone (`fe80::1%eth0`, dropped), or
 * IPv4 in any form `inet_aton` reads (`127.0.0.1`, `127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`).
 */
const parseAddress = (raw: string): Address | undefined => {
  let text = raw.trim()
  if (text.startsWith("[") && text.endsWith("]")) {
    text = text.slice(1, -1)
    if (!text.includes(":")) return undefined
  }
  if (text.includes(":")) {
    const zone = text.indexOf("%")
    if (zone !== -1) {
      if (zone === text.length - 1) return undefined
      text = text.slice(0, zone)
    }
    // ipaddr.js reads `::a.b.c.d` as IPv4-mapped rather than IPv4-compatible, so a dotted tail is turned into
    // two hex groups here and ipaddr.js only ever sees hex.
    if (text.includes(".")) {
      const cut = text.lastIndexOf(":")
      const tail = text.slice(cut + 1)
      if (!ipaddr.IPv4.isValidFourPartDecimal(tail)) return undefined
      const [a, b, c, d] = ipaddr.IPv4.parse(tail).octets
      text = `${text.slice(0, cut + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
    }
    return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : undefined
  }
  return ipv4Chars.test(text) && ipaddr.IPv4.isValid(text) ? ipaddr.IPv4.parse(text) : undefined
}

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
 * @category classification
 */
export const classifyAddress = (address: string): AddressClass | undefined => {
  const parsed = parseAddress(address)
  return parsed === undefined ? undefined : classifyParsed(parsed)
}

/**
 * Whether an IP literal is a public address; false for anything that is not an IP literal.
 *
 * @since 0.1.0
 * @category classification
 */
export const isPublicAddress = (address: string): boolean => classifyAddress(address) === "public"

const classNames: Record<AddressClass, string> = {
  public: "public",
  loopback: "loopback",
  private: "private",
  cgnat: "carrier-grade NAT (shared)",
  link_local: "link-local",
  metadata: "cloud metadata",
  unspecified: "unspecified (this network)",
  multicast: "multicast",
  broadcast: "broadcast",
  documentation: "documentation",
  benchmarking: "benchmarking",
  reserved: "reserved",
  unique_local: "unique local",
  site_local: "site-local"
}

// --- Names --------------------------------------------------------------------------------------------------

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

/**
 * Normalises a host as the policy compares it: lower-cased, brackets removed, trailing dots removed.
 *
 * @since 0.1.0
 * @category normalisation
 */
export const normalizeHost = (host: string): string => {
  let out = host.trim().toLowerCase()
  if (out.startsWith("[") && out.endsWith("]")) out = out.slice(1, -1)
  return out.replace(/\.+$/, "")
}

/**
 * The local-name rule a host name breaks, or `undefined` when the name may be public: `localhost`, a name under
 * one of the local suffixes (`*.local`, `*.internal`, ...), or a single-label name.
 *
 * @since 0.1.0
 * @category classification
 */
export const localNameRule = (host: string): string | undefined => {
  const name = normalizeHost(host)
  if (name === "") return "an empty host"
  const suffix = localSuffixes.find((s) => name === s || name.endsWith(`.${s}`))
  if (suffix !== undefined) return name === suffix ? "a local name" : `a local name (*.${suffix})`
  if (!name.includes(".") && parseAddress(name) === undefined) return "a single-label name, resolved only locally"
  return undefined
}

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
 *
 * @since 0.1.0
 * @category models
 */
export interface Problem {
  readonly field: string
  readonly message: string
}

/**
 * A compiled `allowHosts` entry.
 *
 * @since 0.1.0
 * @category models
 */
export interface HostRule {
  /** The host as the policy compares it (see {@link normalizeHost}); for a wildcard, the part after `*.`. */
  readonly host: string
  readonly wildcard: boolean
  /** The only port this entry trusts; `undefined` trusts every port. */
  readonly port: number | undefined
}

/**
 * A compiled `allowCidrs` entry.
 *
 * @since 0.1.0
 * @category models
 */
export interface CidrRule {
  readonly cidr: string
  readonly range: AddressRange
}

const TypeId: unique symbol = Symbol.for("@websearch/core/UrlPolicy")

/**
 * @since 0.1.0
 * @category type ids
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

const portText = /^\d{1,5}$/

const isPort = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65535

const parseHostEntry = (raw: string): Either.Either<HostRule, string> => {
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

const parseCidrEntry = (raw: string): Either.Either<CidrRule, string> => {
  const text = raw.trim()
  const invalid = Either.left(`"${raw}" is not a CIDR block (198.18.0.0/15, fd00::/8)`)
  const parts = text.split("/")
  if (parts.length !== 2 || !/^\d{1,3}$/.test(parts[1])) return invalid
  const address = parseAddress(parts[0])
  const bits = Number(parts[1])
  if (address === undefined || bits > (address.kind() === "ipv4" ? 32 : 128)) return invalid
  return Either.right({ cidr: text, range: { address, bits } })
}

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
    Either.match(parseHostEntry(String(entry)), {
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
    if (isPort(port)) ports.add(port)
    else problems.push({ field: `allowPorts.${index}`, message: `${port} is not a port (an integer from 1 to 65535)` })
  })
  return { [TypeId]: TypeId, allowHosts, allowCidrs, allowPorts, hostRules, cidrRules, ports, problems }
}

/**
 * The policy of loaded settings (compiled once at load; settings built by hand are compiled here).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromSettings = (settings: Settings.Service): UrlPolicy =>
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
    (rule) => inRange(address, rule.range) || (ipv4 !== undefined && inRange(ipv4, rule.range))
  )
}

/**
 * Whether an IP literal lies inside one of the policy's `allowCidrs` (false for anything else).
 *
 * @since 0.1.0
 * @category checks
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
 * @category checks
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
 * @category checks
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
      const addressClass = classifyParsed(address)
      if (addressClass !== "public") {
        return Either.left(refused(`${shown} is refused: ${host} is a ${classNames[addressClass]} address (${how})`))
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
 * naming the host and the address otherwise, and for anything that is not an IP address.
 *
 * @since 0.1.0
 * @category checks
 */
export const checkAddress: {
  (checked: CheckedUrl, address: string): (self: UrlPolicy) => Either.Either<void, WebSearchError.RequestFailed>
  (self: UrlPolicy, checked: CheckedUrl, address: string): Either.Either<void, WebSearchError.RequestFailed>
} = dual(
  3,
  (self: UrlPolicy, checked: CheckedUrl, address: string): Either.Either<void, WebSearchError.RequestFailed> => {
    const parsed = parseAddress(address)
    if (parsed === undefined) {
      return Either.left(refused(`${checked.host} resolved to "${preview(address)}", which is not an IP address`))
    }
    if (checked.allowlisted || inAllowedCidrs(self, parsed)) return Either.void
    const addressClass = classifyParsed(parsed)
    if (addressClass === "public") return Either.void
    return Either.left(
      refused(
        `${checked.host} resolved to ${address}, a ${classNames[addressClass]} address; refused (allow the host with urlPolicy.allowHosts or the address with urlPolicy.allowCidrs)`
      )
    )
  }
)
