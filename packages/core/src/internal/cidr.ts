/**
 * CIDR blocks (`198.18.0.0/15`, `fd00::/8`): the one parser behind the URL policy's `allowCidrs`, the settings'
 * validation of them and the CLI's `--allow-cidr`, so that each reads a block the same way.
 *
 * The address is an IPv4 address in four decimal parts or an IPv6 address (a dotted IPv4 tail allowed), without
 * brackets or a zone. The short and octal IPv4 forms a URL accepts (`127.1`, `0177.0.0.1`) are refused here, as is
 * a part with a leading zero (`010.0.0.0`, octal to some readers and decimal to others): a block is configuration,
 * and configuration that two readers would understand differently is refused rather than guessed.
 *
 * @example
 * ```ts
 * import * as Cidr from "@websearch/core/internal/cidr"
 * import * as Either from "effect/Either"
 *
 * Either.isRight(Cidr.parse("198.18.0.0/15")) // true
 * Cidr.parse("10.0.0.0/33") // Either.left('"10.0.0.0/33" is not a CIDR block (198.18.0.0/15, fd00::/8)')
 * ```
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type ipaddr from "ipaddr.js"
import { parseAddress } from "./ipAddress.js"

/**
 * An address block: its first address (as parsed by ipaddr.js) and prefix length.
 *
 * @since 0.2.0
 * @category models
 */
export interface AddressRange {
  readonly address: ipaddr.IPv4 | ipaddr.IPv6
  readonly bits: number
}

const fourPartDecimal = /^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/

/**
 * Reads a CIDR block, or says why the text is not one.
 *
 * @since 0.2.0
 * @category encoding
 */
export const parse = (text: string): Either.Either<AddressRange, string> => {
  const invalid = Either.left(`"${text}" is not a CIDR block (198.18.0.0/15, fd00::/8)`)
  const parts = text.split("/")
  if (parts.length !== 2 || !/^\d{1,3}$/.test(parts[1])) return invalid
  const [written, prefix] = parts
  const isIPv6 = written.includes(":")
  if (isIPv6 ? /[[\]%]/.test(written) : !fourPartDecimal.test(written)) return invalid
  const address = parseAddress(written)
  const bits = Number(prefix)
  if (address === undefined || bits > (address.kind() === "ipv4" ? 32 : 128)) return invalid
  return Either.right({ address, bits })
}

/**
 * A string that is a CIDR block, for settings schemas; its message is `parse`'s.
 *
 * @since 0.2.0
 * @category schemas
 */
export const CidrString: Schema.filter<typeof Schema.String> = Schema.String.pipe(
  Schema.filter((text) => Either.match(parse(text), { onLeft: (message) => message, onRight: () => true })),
  Schema.annotations({ identifier: "Cidr" })
)
