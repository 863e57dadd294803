/**
 * IP literals as the URL policy reads them (ipaddr.js underneath): parsing every spelling it accepts, and matching
 * an address against a block.
 */
import ipaddr from "ipaddr.js"

/** A parsed IP address. */
export type Address = ipaddr.IPv4 | ipaddr.IPv6

/** An address block: its first address and prefix length. */
export interface Block {
  readonly address: Address
  readonly bits: number
}

/** Whether an address lies inside a block of its own family. */
export const inBlock = (address: Address, block: Block): boolean =>
  address.kind() === block.address.kind() && address.match(block.address, block.bits)

const ipv4Chars = /^[0-9a-fx.]+$/i

/**
 * Parses an IP literal: IPv6 with or without brackets and with an optional zone (`fe80::1%eth0`, dropped), or
 * IPv4 in any form `inet_aton` reads (`127.0.0.1`, `127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`).
 */
export const parseAddress = (raw: string): Address | undefined => {
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
