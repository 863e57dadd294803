/**
 * The class of an IP address (public, loopback, private, metadata, ...), by the special-purpose registries and
 * the IPv4 address an IPv6 address embeds. See `UrlPolicy.classifyAddress`.
 */
import ipaddr from "ipaddr.js"
import { type Address, type Block, inBlock, parseAddress } from "./ipAddress.js"

/** What kind of address an IP address is. Everything but `public` is refused unless allowlisted. */
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

const range = (cidr: string): Block => {
  const [address, bits] = ipaddr.parseCIDR(cidr)
  return { address, bits }
}

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
  readonly range: Block
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
  ipv4Table.find((entry) => inBlock(address, entry.range))?.addressClass ?? "public"

const classifyIPv6 = (address: ipaddr.IPv6): AddressClass => {
  const exact = ipv6Exact.find((entry) => inBlock(address, entry.range))
  if (exact !== undefined) return exact.addressClass
  const embedded = embedding.find((entry) => inBlock(address, entry.range))
  if (embedded !== undefined) {
    const bytes = address.toByteArray()
    for (const ipv4 of embedded.extract(bytes)) {
      const addressClass = classifyIPv4(ipv4)
      if (addressClass !== "public") return addressClass
    }
    return embedded.special ? "reserved" : "public"
  }
  const listed = ipv6Table.find((entry) => inBlock(address, entry.range))
  if (listed !== undefined) return listed.addressClass
  return inBlock(address, globalUnicast) ? "public" : "reserved"
}

export const classifyParsed = (address: Address): AddressClass =>
  address.kind() === "ipv4" ? classifyIPv4(address as ipaddr.IPv4) : classifyIPv6(address as ipaddr.IPv6)

/** The class of an IP literal; `undefined` when the text is not one. */
export const classifyAddress = (address: string): AddressClass | undefined => {
  const parsed = parseAddress(address)
  return parsed === undefined ? undefined : classifyParsed(parsed)
}

/** How a refusal names each class. */
export const classNames: Record<AddressClass, string> = {
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
