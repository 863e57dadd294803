import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import { pipe } from "effect/Function"
import * as Settings from "../src/Settings.js"
import * as UrlPolicy from "../src/UrlPolicy.js"
import type * as WebSearchError from "../src/WebSearchError.js"

type Class = UrlPolicy.AddressClass

// --- An independent oracle: plain numbers and bigints, no ipaddr.js ----------------------------------------

const v4 = (a: number, b: number, c: number, d: number): number => a * 2 ** 24 + b * 2 ** 16 + c * 2 ** 8 + d

const v4Block = (a: number, b: number, c: number, d: number, bits: number, cls: Class) =>
  [v4(a, b, c, d), v4(a, b, c, d) + 2 ** (32 - bits) - 1, cls] as const

/** First match wins. */
const ipv4Ranges: ReadonlyArray<readonly [number, number, Class]> = [
  v4Block(169, 254, 169, 254, 32, "metadata"),
  v4Block(100, 100, 100, 200, 32, "metadata"),
  v4Block(168, 63, 129, 16, 32, "metadata"),
  v4Block(255, 255, 255, 255, 32, "broadcast"),
  v4Block(0, 0, 0, 0, 8, "unspecified"),
  v4Block(10, 0, 0, 0, 8, "private"),
  v4Block(100, 64, 0, 0, 10, "cgnat"),
  v4Block(127, 0, 0, 0, 8, "loopback"),
  v4Block(169, 254, 0, 0, 16, "link_local"),
  v4Block(172, 16, 0, 0, 12, "private"),
  v4Block(192, 0, 0, 0, 24, "reserved"),
  v4Block(192, 0, 2, 0, 24, "documentation"),
  v4Block(192, 88, 99, 0, 24, "reserved"),
  v4Block(192, 168, 0, 0, 16, "private"),
  v4Block(198, 18, 0, 0, 15, "benchmarking"),
  v4Block(198, 51, 100, 0, 24, "documentation"),
  v4Block(203, 0, 113, 0, 24, "documentation"),
  v4Block(224, 0, 0, 0, 4, "multicast"),
  v4Block(240, 0, 0, 0, 4, "reserved")
]

const oracle4 = (n: number): Class => ipv4Ranges.find(([lo, hi]) => n >= lo && n <= hi)?.[2] ?? "public"

const dotted = (n: number): string => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".")

/** Eight 16-bit groups as one 128-bit number. */
const g = (...groups: ReadonlyArray<number>): bigint => groups.reduce((acc, x) => (acc << 16n) | BigInt(x), 0n)

const within = (n: bigint, prefix: bigint, bits: number): boolean =>
  n >> BigInt(128 - bits) === prefix >> BigInt(128 - bits)

const byteAt = (n: bigint, i: number): number => Number((n >> BigInt(8 * (15 - i))) & 0xffn)

const fromBytes = (n: bigint, indexes: ReadonlyArray<number>): number =>
  indexes.reduce((acc, i) => acc * 256 + byteAt(n, i), 0)

const embedded = (ipv4s: ReadonlyArray<number>, special: boolean): Class => {
  for (const ipv4 of ipv4s) {
    const cls = oracle4(ipv4)
    if (cls !== "public") return cls
  }
  return special ? "reserved" : "public"
}

const tail32 = (n: bigint): number => Number(n & 0xffffffffn)

const ipv6Blocks: ReadonlyArray<readonly [bigint, number, Class]> = [
  [g(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10, "link_local"],
  [g(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10, "site_local"],
  [g(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7, "unique_local"],
  [g(0xff00, 0, 0, 0, 0, 0, 0, 0), 8, "multicast"],
  [g(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32, "documentation"],
  [g(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20, "documentation"],
  [g(0x2001, 2, 0, 0, 0, 0, 0, 0), 48, "benchmarking"],
  [g(0x100, 0, 0, 0, 0, 0, 0, 0), 64, "reserved"],
  [g(0x2001, 0, 0, 0, 0, 0, 0, 0), 23, "reserved"]
]

const oracle6 = (n: bigint): Class => {
  if (n === 0n) return "unspecified"
  if (n === 1n) return "loopback"
  if (n === g(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254)) return "metadata"
  if (within(n, g(0, 0, 0, 0, 0, 0xffff, 0, 0), 96)) return embedded([tail32(n)], false)
  if (within(n, 0n, 96)) return embedded([tail32(n)], true)
  if (within(n, g(0, 0, 0, 0, 0xffff, 0, 0, 0), 96)) return embedded([tail32(n)], true)
  if (within(n, g(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96)) return embedded([tail32(n)], false)
  if (within(n, g(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48)) {
    const layouts = [
      [12, 13, 14, 15],
      [9, 10, 11, 12],
      [7, 9, 10, 11],
      [6, 7, 9, 10]
    ]
    return embedded(
      layouts.map((indexes) => fromBytes(n, indexes)),
      true
    )
  }
  if (within(n, g(0x2002, 0, 0, 0, 0, 0, 0, 0), 16)) return embedded([Number((n >> 80n) & 0xffffffffn)], false)
  if (within(n, g(0x2001, 0, 0, 0, 0, 0, 0, 0), 32)) return embedded([(tail32(n) ^ 0xffffffff) >>> 0], false)
  const block = ipv6Blocks.find(([prefix, bits]) => within(n, prefix, bits))
  if (block !== undefined) return block[2]
  return within(n, g(0x2000, 0, 0, 0, 0, 0, 0, 0), 3) ? "public" : "reserved"
}

// --- Generators ---------------------------------------------------------------------------------------------

const ipv4Arb: FastCheck.Arbitrary<number> = FastCheck.oneof(
  FastCheck.integer({ min: 0, max: 0xffffffff }),
  FastCheck.constantFrom(
    ...ipv4Ranges.flatMap(([lo, hi]) => [lo - 1, lo, hi, hi + 1]).filter((n) => n >= 0 && n <= 0xffffffff)
  ),
  FastCheck.tuple(FastCheck.constantFrom(...ipv4Ranges), FastCheck.integer({ min: 0, max: 0xffffffff })).map(
    ([[lo, hi], k]) => lo + (k % (hi - lo + 1))
  )
)

const nonPublicIpv4 = ipv4Arb.filter((n) => oracle4(n) !== "public")
const publicIpv4 = ipv4Arb.filter((n) => oracle4(n) === "public")

const random128 = FastCheck.array(FastCheck.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }).map(
  (groups) => g(...groups)
)

const mask = (bits: number): bigint => (1n << BigInt(128 - bits)) - 1n

const interestingPrefixes: ReadonlyArray<readonly [bigint, number]> = [
  [0n, 96],
  [g(0, 0, 0, 0, 0, 0xffff, 0, 0), 96],
  [g(0, 0, 0, 0, 0xffff, 0, 0, 0), 96],
  [g(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96],
  [g(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48],
  [g(0x2002, 0, 0, 0, 0, 0, 0, 0), 16],
  [g(0x2001, 0, 0, 0, 0, 0, 0, 0), 32],
  [g(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254), 120],
  [g(0x2000, 0, 0, 0, 0, 0, 0, 0), 3],
  [g(0x2600, 0, 0, 0, 0, 0, 0, 0), 12],
  [g(0x5f00, 0, 0, 0, 0, 0, 0, 0), 16],
  ...ipv6Blocks.map(([prefix, bits]) => [prefix, bits] as const)
]

const ipv6Arb: FastCheck.Arbitrary<bigint> = FastCheck.oneof(
  random128,
  FastCheck.tuple(FastCheck.constantFrom(...interestingPrefixes), random128).map(
    ([[prefix, bits], r]) => (prefix & ~mask(bits)) | (r & mask(bits))
  ),
  // An IPv4 address (often a special one) in the last 32 bits of an embedding prefix.
  FastCheck.tuple(FastCheck.constantFrom(...interestingPrefixes.slice(0, 7)), ipv4Arb).map(
    ([[prefix], ipv4]) => (prefix & ~0xffffffffn) | BigInt(ipv4)
  ),
  FastCheck.constantFrom(0n, 1n, 2n, g(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254), (1n << 128n) - 1n)
)

const groupsOf = (n: bigint): Array<number> =>
  Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(16 * (7 - i))) & 0xffffn))

/** RFC 5952-style compression of the longest run (at least two) of zero groups. */
const compress = (groups: ReadonlyArray<number>): string => {
  let best = -1
  let bestLength = 1
  for (let i = 0; i < groups.length;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < groups.length && groups[j] === 0) j++
    if (j - i > bestLength) {
      best = i
      bestLength = j - i
    }
    i = j
  }
  const hex = groups.map((x) => x.toString(16))
  return best < 0 ? hex.join(":") : `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`
}

type Spelling6 = "full" | "padded" | "compressed" | "dotted" | "upper" | "bracketed" | "zone"

const spell6 = (n: bigint, how: Spelling6): string => {
  const groups = groupsOf(n)
  switch (how) {
    case "full":
      return groups.map((x) => x.toString(16)).join(":")
    case "padded":
      return groups.map((x) => x.toString(16).padStart(4, "0")).join(":")
    case "compressed":
      return compress(groups)
    case "dotted": {
      const head = compress(groups.slice(0, 6))
      return `${head}${head.endsWith("::") ? "" : ":"}${dotted(tail32(n))}`
    }
    case "upper":
      return compress(groups).toUpperCase()
    case "bracketed":
      return `[${compress(groups)}]`
    case "zone":
      return `${compress(groups)}%eth0`
  }
}

const spelling6 = FastCheck.constantFrom<Spelling6>(
  "full",
  "padded",
  "compressed",
  "dotted",
  "upper",
  "bracketed",
  "zone"
)

/** inet_aton spellings of an IPv4 address: dotted, one 32-bit number, `a.b.c` and `a.b` short forms, octal, hex. */
type Radix = "dec" | "oct" | "hex"

const part = (value: number, radix: Radix, upper: boolean): string =>
  radix === "dec"
    ? String(value)
    : radix === "oct"
      ? `0${value.toString(8)}`
      : `${upper ? "0X" : "0x"}${upper ? value.toString(16).toUpperCase() : value.toString(16)}`

const spell4 = (n: number, parts: number, radixes: ReadonlyArray<Radix>, upper: boolean): string => {
  const bytes = dotted(n).split(".").map(Number)
  const lead = bytes.slice(0, parts - 1)
  const rest = bytes.slice(parts - 1).reduce((acc, b) => acc * 256 + b, 0)
  return [...lead, rest].map((value, i) => part(value, radixes[i % radixes.length], upper)).join(".")
}

const spelling4 = FastCheck.record({
  parts: FastCheck.integer({ min: 1, max: 4 }),
  radixes: FastCheck.array(FastCheck.constantFrom<Radix>("dec", "oct", "hex"), { minLength: 4, maxLength: 4 }),
  upper: FastCheck.boolean()
})

const fullWidth = (s: string): string =>
  Array.from(s, (ch) => {
    const code = ch.charCodeAt(0)
    return code >= 0x21 && code <= 0x7e ? String.fromCharCode(code - 0x21 + 0xff01) : ch
  }).join("")

const percentEncode = (s: string): string =>
  Array.from(new TextEncoder().encode(s), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("")

/** A WHATWG host spelling of an IPv4 address: inet_aton forms, then some characters full-width or %-encoded. */
const whatwgHost = (n: number) =>
  FastCheck.tuple(
    spelling4,
    FastCheck.boolean(),
    FastCheck.array(FastCheck.constantFrom("plain", "full", "percent", "fullPercent"), {
      minLength: 40,
      maxLength: 40
    })
  ).map(([s, trailingDot, treatments]) => {
    const ascii = `${spell4(n, s.parts, s.radixes, s.upper)}${trailingDot ? "." : ""}`
    return Array.from(ascii, (ch, i) => {
      switch (treatments[i % treatments.length]) {
        case "full":
          return fullWidth(ch)
        case "percent":
          return percentEncode(ch)
        case "fullPercent":
          return percentEncode(fullWidth(ch))
        default:
          return ch
      }
    }).join("")
  })

const urlAround = (host: string) =>
  FastCheck.tuple(
    FastCheck.constantFrom("http", "https", "HTTP"),
    FastCheck.constantFrom("", ":80", ":443"),
    FastCheck.webPath()
  ).map(([scheme, port, path]) => `${scheme}://${host}${port}${path.startsWith("/") ? path : `/${path}`}`)

const defaultPolicy = UrlPolicy.make()

const expectRejected = (result: Either.Either<unknown, WebSearchError.RequestFailed>, reason: string) => {
  if (Either.isRight(result)) throw new Error(`expected ${reason}, got a pass: ${JSON.stringify(result.right)}`)
  expect(result.left.reason).toBe(reason)
  return result.left
}

const passed = <A>(result: Either.Either<A, WebSearchError.RequestFailed>): A => {
  if (Either.isLeft(result)) throw new Error(`expected a pass, got ${result.left.reason}: ${result.left.message}`)
  return result.right
}

// --- Classification -------------------------------------------------------------------------------------------

describe("UrlPolicy.classifyAddress", () => {
  it.prop("random IPv4 addresses classify as the independent range table says", [ipv4Arb], ([n]) => {
    expect(UrlPolicy.classifyAddress(dotted(n))).toBe(oracle4(n))
    expect(UrlPolicy.isPublicAddress(dotted(n))).toBe(oracle4(n) === "public")
  })

  it.prop(
    "every inet_aton spelling of an IPv4 address classifies as the address it denotes",
    [ipv4Arb, spelling4],
    ([n, s]) => {
      expect(UrlPolicy.classifyAddress(spell4(n, s.parts, s.radixes, s.upper))).toBe(oracle4(n))
    }
  )

  it.prop(
    "random IPv6 addresses, in every spelling, classify as the independent range table says",
    [ipv6Arb, spelling6],
    ([n, how]) => {
      const text = spell6(n, how)
      expect(UrlPolicy.classifyAddress(text), text).toBe(oracle6(n))
      expect(UrlPolicy.isPublicAddress(text), text).toBe(oracle6(n) === "public")
    },
    { fastCheck: { numRuns: 500 } }
  )

  const forms = (n: number, extra: number) => {
    const [hi, lo] = [Math.floor(n / 65536), n % 65536].map((x) => x.toString(16))
    const inverted = (0xffffffff - n) >>> 0
    const [ihi, ilo] = [Math.floor(inverted / 65536), inverted % 65536].map((x) => x.toString(16))
    const r = (extra % 0xffff).toString(16)
    return {
      mappedDotted: `::ffff:${dotted(n)}`,
      mappedHex: `::ffff:${hi}:${lo}`,
      mappedFull: `0:0:0:0:0:ffff:${hi}:${lo}`,
      nat64: `64:ff9b::${dotted(n)}`,
      nat64Hex: `64:ff9b::${hi}:${lo}`,
      sixToFour: `2002:${hi}:${lo}:${r}::${r}`,
      teredo: `2001:0:4136:e378:8000:${r}:${ihi}:${ilo}`,
      // The prefixes that are not globally reachable by themselves.
      compatible: `::${dotted(n)}`,
      translated: `::ffff:0:${dotted(n)}`,
      nat64Local: `64:ff9b:1::${dotted(n)}`
    }
  }

  it.prop(
    "every IPv4-embedding IPv6 form of a non-public IPv4 address is non-public (and of the same class)",
    [nonPublicIpv4, FastCheck.integer({ min: 0, max: 0xffff })],
    ([n, extra]) => {
      const cls = oracle4(n)
      for (const [name, text] of Object.entries(forms(n, extra))) {
        const got = UrlPolicy.classifyAddress(text)
        expect(UrlPolicy.isPublicAddress(text), `${name} ${text}`).toBe(false)
        // ::0.0.0.0 and ::0.0.0.1 are the IPv6 unspecified and loopback addresses themselves.
        if (!(name === "compatible" && n <= 1)) expect(got, `${name} ${text}`).toBe(cls)
        const url = UrlPolicy.checkUrl(defaultPolicy, `http://[${text}]/`)
        expectRejected(url, "ssrf_rejected")
      }
    }
  )

  it.prop(
    "embedding forms of a public IPv4 address are public, except under prefixes that are not globally reachable",
    [publicIpv4, FastCheck.integer({ min: 0, max: 0xffff })],
    ([n, extra]) => {
      const all = forms(n, extra)
      for (const name of ["mappedDotted", "mappedHex", "mappedFull", "nat64", "nat64Hex", "sixToFour", "teredo"]) {
        const text = all[name as keyof typeof all]
        expect(UrlPolicy.classifyAddress(text), `${name} ${text}`).toBe("public")
        expect(passed(UrlPolicy.checkUrl(defaultPolicy, `https://[${text}]/`)).literal).toBe(true)
      }
      for (const name of ["compatible", "translated"] as const) {
        expect(UrlPolicy.classifyAddress(all[name]), `${name} ${all[name]}`).toBe("reserved")
      }
      // Local-use NAT64: every RFC 6052 layout is read, and the prefix is never public by itself.
      expect(UrlPolicy.isPublicAddress(all.nat64Local), all.nat64Local).toBe(false)
    }
  )

  it("names the special addresses (metadata, zone ids, brackets) and refuses what is not an address", () => {
    const cases: ReadonlyArray<readonly [string, Class | undefined]> = [
      ["169.254.169.254", "metadata"],
      ["100.100.100.200", "metadata"],
      ["168.63.129.16", "metadata"],
      ["fd00:ec2::254", "metadata"],
      ["[fd00:ec2::254]", "metadata"],
      ["::ffff:169.254.169.254", "metadata"],
      ["64:ff9b::a9fe:a9fe", "metadata"],
      ["2002:a9fe:a9fe::1", "metadata"],
      ["2001:0:4136:e378:8000:63bf:5601:5601", "metadata"],
      ["fe80::1%eth0", "link_local"],
      ["fe80::1%25", "link_local"],
      ["[::1]", "loopback"],
      ["::", "unspecified"],
      ["0.0.0.0", "unspecified"],
      ["255.255.255.255", "broadcast"],
      ["100::1", "reserved"],
      ["2001:db8::1", "documentation"],
      ["3fff:fff::1", "documentation"],
      ["2001:2::5", "benchmarking"],
      ["fec0::1", "site_local"],
      ["fc00::1", "unique_local"],
      ["ff02::1", "multicast"],
      ["5f00::1", "reserved"],
      ["8.8.8.8", "public"],
      ["2606:4700:4700::1111", "public"],
      ["example.com", undefined],
      ["", undefined],
      ["[127.0.0.1]", undefined],
      ["1.2.3.4.5", undefined],
      ["256.0.0.1", undefined],
      ["::1::2", undefined],
      ["fe80::1%", undefined],
      ["::ffff:1.2.3", undefined],
      ["http://127.0.0.1/", undefined]
    ]
    for (const [address, expected] of cases) expect(UrlPolicy.classifyAddress(address), address).toBe(expected)
    expect(UrlPolicy.isPublicAddress("example.com")).toBe(false)
  })
})

// --- URLs -----------------------------------------------------------------------------------------------------

describe("UrlPolicy.checkUrl", () => {
  it.prop(
    "every WHATWG spelling of a non-public IPv4 address is refused with ssrf_rejected and never passes",
    [
      nonPublicIpv4.chain((n) => FastCheck.tuple(FastCheck.constant(n), whatwgHost(n).chain(urlAround))),
      FastCheck.array(FastCheck.integer({ min: 1, max: 65535 }), { maxLength: 3 })
    ],
    ([[n, url], allowPorts]) => {
      // The spelling really denotes the address (so a refusal is not just an unparseable URL).
      expect(new URL(url).hostname, url).toBe(dotted(n))
      const policy = UrlPolicy.make({ allowHosts: ["example.com", "*.example.org"], allowPorts })
      const error = expectRejected(UrlPolicy.checkUrl(policy, url), "ssrf_rejected")
      expect(error.message).toContain(dotted(n))
      expectRejected(UrlPolicy.checkUrl(policy, new URL(url)), "ssrf_rejected")
    },
    { fastCheck: { numRuns: 300 } }
  )

  it.prop(
    "the same spellings of a public IPv4 address pass, as a literal with the dotted host",
    [publicIpv4.chain((n) => FastCheck.tuple(FastCheck.constant(n), whatwgHost(n).chain(urlAround)))],
    ([[n, url]]) => {
      const checked = passed(UrlPolicy.checkUrl(defaultPolicy, url))
      expect([checked.host, checked.literal, checked.allowlisted]).toEqual([dotted(n), true, false])
    }
  )

  it.prop(
    "a public name passes on exactly the ports 80, 443 and allowPorts",
    [
      FastCheck.integer({ min: 1, max: 65535 }),
      FastCheck.array(FastCheck.integer({ min: 1, max: 65535 }), { maxLength: 3 }),
      FastCheck.constantFrom("http", "https")
    ],
    ([port, allowPorts, scheme]) => {
      const policy = UrlPolicy.make({ allowPorts })
      const result = UrlPolicy.checkUrl(policy, `${scheme}://news.example.com:${port}/a`)
      const allowed = port === 80 || port === 443 || allowPorts.includes(port)
      expect(Either.isRight(result)).toBe(allowed)
      if (Either.isRight(result)) expect(result.right.port).toBe(port)
      else expect(result.left.message).toContain(`port ${port}`)
    }
  )

  const localSuffixes = ["localhost", "local", "internal", "home.arpa", "localdomain", "lan", "intranet", "private"]

  it.prop(
    "names under a local suffix are refused unless allowlisted; other multi-label names pass",
    [FastCheck.domain(), FastCheck.constantFrom(...localSuffixes, "corp", "home"), FastCheck.boolean()],
    ([domain, suffix, trailingDot]) => {
      const local = `${domain.split(".")[0]}.${suffix}${trailingDot ? "." : ""}`
      const error = expectRejected(UrlPolicy.checkUrl(defaultPolicy, `https://${local}/`), "ssrf_rejected")
      expect(error.message).toContain("local name")
      expect(passed(UrlPolicy.checkUrl(UrlPolicy.make({ allowHosts: [local] }), `https://${local}/`)).allowlisted).toBe(
        true
      )
      const tld = domain.split(".").at(-1) ?? ""
      const isLocal = [...localSuffixes, "corp", "home"].some((s) => domain === s || domain.endsWith(`.${s}`))
      expect(Either.isRight(UrlPolicy.checkUrl(defaultPolicy, `https://${domain}/`)), domain).toBe(
        !isLocal && domain.includes(".") && tld !== ""
      )
    }
  )

  it("refuses every scheme but http and https, and URLs with credentials, without quoting the password", () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://files.example.com/a",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "gopher://example.com/",
      "ws://example.com/socket",
      "ftp://user:hunter2@files.example.com/"
    ]) {
      const error = expectRejected(UrlPolicy.checkUrl(defaultPolicy, url), "ssrf_rejected")
      expect(error.message).toContain("only http and https")
      expect(error.message).not.toContain("hunter2")
    }
    for (const url of [
      "https://user:hunter2@example.com/",
      "https://user@example.com/",
      "http://:hunter2@example.com/"
    ]) {
      const error = expectRejected(UrlPolicy.checkUrl(defaultPolicy, url), "ssrf_rejected")
      expect(error.message).toContain("credentials in URLs are refused")
      expect(error.message).not.toContain("hunter2")
    }
    for (const url of ["", "   ", "not a url", "http://[fe80::1%25eth0]/", "http://[fe80::1%eth0]/", "http://a b/"]) {
      expectRejected(UrlPolicy.checkUrl(defaultPolicy, url), "invalid_input")
    }
  })

  it("refuses local names, however spelled, and single-label names", () => {
    for (const host of [
      "localhost",
      "LOCALHOST.",
      "localhost..",
      "ｌｏｃａｌｈｏｓｔ",
      "loc%61lhost",
      "app.localhost",
      "printer.local",
      "metadata.google.internal",
      "router.home.arpa",
      "box.localdomain",
      "nas.lan",
      "searxng",
      "metadata"
    ]) {
      const error = expectRejected(UrlPolicy.checkUrl(defaultPolicy, `http://${host}/`), "ssrf_rejected")
      expect(error.message).toContain("allowHosts")
    }
    for (const host of ["example.com", "reader.internal.example", "local.example.com", "internal.example"]) {
      expect(passed(UrlPolicy.checkUrl(defaultPolicy, `https://${host}/`)).host).toBe(host)
    }
  })

  it("normalises the host and reports the effective port", () => {
    const checked = passed(UrlPolicy.checkUrl(defaultPolicy, "HTTPS://News.Example.COM./a?b#c"))
    expect(checked).toMatchObject({ host: "news.example.com", port: 443, literal: false, allowlisted: false })
    expect(checked.url.href).toBe("https://news.example.com./a?b#c")
    expect(passed(UrlPolicy.checkUrl(defaultPolicy, "http://[2606:4700::1111]:443/")).host).toBe("2606:4700::1111")
    expect(passed(UrlPolicy.checkUrl(defaultPolicy, "http://8.8.8.8/")).port).toBe(80)
    expect(passed(UrlPolicy.checkUrl(defaultPolicy, "https://8.8.8.8:80/")).port).toBe(80)
    // A URL object is copied: mutating it afterwards does not change what was checked.
    const url = new URL("https://example.com/")
    const copy = passed(UrlPolicy.checkUrl(defaultPolicy, url))
    url.hostname = "127.0.0.1"
    expect(copy.url.hostname).toBe("example.com")
    // Extra trailing dots do not hide a literal.
    expectRejected(UrlPolicy.checkUrl(defaultPolicy, "http://127.0.0.1../"), "ssrf_rejected")
    expectRejected(UrlPolicy.checkUrl(defaultPolicy, "http://0x7f.1../"), "ssrf_rejected")
  })

  it("is dual: data-first and data-last agree", () => {
    const policy = UrlPolicy.make({ allowHosts: ["127.0.0.1:8080"] })
    expect(pipe(policy, UrlPolicy.checkUrl("http://127.0.0.1:8080/"))).toEqual(
      UrlPolicy.checkUrl(policy, "http://127.0.0.1:8080/")
    )
    const checked = passed(UrlPolicy.checkUrl(policy, "https://example.com/"))
    expect(pipe(policy, UrlPolicy.checkAddress(checked, "10.0.0.1"))).toEqual(
      UrlPolicy.checkAddress(policy, checked, "10.0.0.1")
    )
  })
})

// --- Allowlist ------------------------------------------------------------------------------------------------

describe("UrlPolicy allowlist", () => {
  it("a host entry without a port trusts that host on any port; with a port, on that port only", () => {
    const policy = UrlPolicy.make({ allowHosts: ["searxng", "127.0.0.1:8080", "[::1]:9000", "LocalHost."] })
    expect(policy.problems).toEqual([])
    expect(passed(UrlPolicy.checkUrl(policy, "http://searxng:8888/search"))).toMatchObject({
      host: "searxng",
      port: 8888,
      allowlisted: true
    })
    expect(passed(UrlPolicy.checkUrl(policy, "http://localhost:3000/")).allowlisted).toBe(true)
    expect(passed(UrlPolicy.checkUrl(policy, "http://127.0.0.1:8080/")).allowlisted).toBe(true)
    expect(passed(UrlPolicy.checkUrl(policy, "http://[::1]:9000/")).allowlisted).toBe(true)
    // The same hosts on another port, including the default one, are not trusted.
    for (const url of ["http://127.0.0.1:8081/", "http://127.0.0.1/", "http://[::1]:9001/", "http://[::1]/"]) {
      const error = expectRejected(UrlPolicy.checkUrl(policy, url), "ssrf_rejected")
      expect(error.message).toContain("loopback")
    }
  })

  it("*.domain trusts the domain and every name under it, nothing else", () => {
    const policy = UrlPolicy.make({ allowHosts: ["*.corp.example", "*.svc.internal:8443"] })
    expect(passed(UrlPolicy.checkUrl(policy, "https://corp.example:7000/")).allowlisted).toBe(true)
    expect(passed(UrlPolicy.checkUrl(policy, "https://a.b.corp.example/")).allowlisted).toBe(true)
    expect(passed(UrlPolicy.checkUrl(policy, "https://api.svc.internal:8443/")).allowlisted).toBe(true)
    expect(passed(UrlPolicy.checkUrl(policy, "https://xcorp.example/")).allowlisted).toBe(false)
    expectRejected(UrlPolicy.checkUrl(policy, "https://xcorp.example:7000/"), "ssrf_rejected")
    expectRejected(UrlPolicy.checkUrl(policy, "https://api.svc.internal/"), "ssrf_rejected")
  })

  it("allowCidrs trusts literals and resolved addresses inside a block (198.18.0.0/15 fake-IP proxy), not ports", () => {
    const policy = UrlPolicy.make({ allowCidrs: ["198.18.0.0/15", "fd00::/8"] })
    expect(passed(UrlPolicy.checkUrl(policy, "http://198.19.255.255/"))).toMatchObject({
      literal: true,
      allowlisted: true
    })
    expect(passed(UrlPolicy.checkUrl(policy, "http://[fd12::1]/")).allowlisted).toBe(true)
    expectRejected(UrlPolicy.checkUrl(policy, "http://198.20.0.1:8080/"), "ssrf_rejected")
    expectRejected(UrlPolicy.checkUrl(policy, "http://198.18.0.1:8080/"), "ssrf_rejected")
    expectRejected(UrlPolicy.checkUrl(policy, "http://10.0.0.1/"), "ssrf_rejected")
    // A name behind a fake-IP proxy resolves into the block: the address passes; others still do not.
    const name = passed(UrlPolicy.checkUrl(policy, "https://news.example.com/"))
    expect(name.allowlisted).toBe(false)
    expect(Either.isRight(UrlPolicy.checkAddress(policy, name, "198.18.3.4"))).toBe(true)
    expect(Either.isRight(UrlPolicy.checkAddress(policy, name, "::ffff:198.18.3.4"))).toBe(true)
    expectRejected(UrlPolicy.checkAddress(defaultPolicy, name, "198.18.3.4"), "ssrf_rejected")
    expectRejected(UrlPolicy.checkAddress(policy, name, "192.168.1.1"), "ssrf_rejected")
    expectRejected(UrlPolicy.checkAddress(policy, name, "10.0.0.1"), "ssrf_rejected")
    expect(UrlPolicy.isAllowedAddress(policy, "198.18.0.0")).toBe(true)
    expect(UrlPolicy.isAllowedAddress(policy, "not an address")).toBe(false)
  })

  it("entries that cannot be understood allow nothing and are reported with their field", () => {
    const policy = UrlPolicy.make({
      allowHosts: ["*", "*.127.0.0.1", "a/b", "host:0", "host:99999", "user@host", "[::1", "  ", "ok.example"],
      allowCidrs: ["10.0.0.0/33", "10.0.0.0", "example.com/8", "fd00::/129", "10.0.0.0/8"],
      allowPorts: [0, 70000, 1.5, 8080]
    })
    expect(policy.problems.map((p) => p.field)).toEqual([
      "allowHosts.0",
      "allowHosts.1",
      "allowHosts.2",
      "allowHosts.3",
      "allowHosts.4",
      "allowHosts.5",
      "allowHosts.6",
      "allowHosts.7",
      "allowCidrs.0",
      "allowCidrs.1",
      "allowCidrs.2",
      "allowCidrs.3",
      "allowPorts.0",
      "allowPorts.1",
      "allowPorts.2"
    ])
    expect(policy.hostRules).toEqual([{ host: "ok.example", wildcard: false, port: undefined }])
    expect(policy.cidrRules.map((r) => r.cidr)).toEqual(["10.0.0.0/8"])
    expect([...policy.ports].sort((a, b) => a - b)).toEqual([80, 443, 8080])
    expectRejected(UrlPolicy.checkUrl(policy, "http://127.0.0.1/"), "ssrf_rejected")
  })
})

// --- Addresses ------------------------------------------------------------------------------------------------

describe("UrlPolicy.checkAddress", () => {
  const checked = passed(UrlPolicy.checkUrl(defaultPolicy, "https://news.example.com/"))

  it.prop("an answer passes exactly when it is public", [ipv6Arb, spelling6], ([n, how]) => {
    const text = spell6(n, how)
    expect(Either.isRight(UrlPolicy.checkAddress(defaultPolicy, checked, text)), text).toBe(oracle6(n) === "public")
  })

  it.prop(
    "names the host it refuses, never the address or its class; refuses what is not an address",
    [
      FastCheck.constantFrom(
        "169.254.169.254",
        "127.0.0.1",
        "10.1.2.3",
        "::1",
        "::ffff:127.0.0.1",
        "fd00::5",
        "100.64.0.1"
      )
    ],
    ([address]) => {
      const error = expectRejected(UrlPolicy.checkAddress(defaultPolicy, checked, address), "ssrf_rejected")
      expect(error.message).toContain("news.example.com")
      expect(error.message).toContain("not public")
      expect(error.message).not.toContain(address)
      expect(error.message).not.toMatch(/loopback|private|metadata|link-local|unique local|shared/i)
      expect(error.retryable).toBe(false)
    }
  )

  it("refuses what is not an address, without quoting it", () => {
    expectRejected(UrlPolicy.checkAddress(defaultPolicy, checked, "fe80::1%eth0"), "ssrf_rejected")
    const odd = expectRejected(UrlPolicy.checkAddress(defaultPolicy, checked, "internal.corp"), "ssrf_rejected")
    expect(odd.message).not.toContain("internal.corp")
    expect(Either.isRight(UrlPolicy.checkAddress(defaultPolicy, checked, "93.184.215.14"))).toBe(true)
  })

  it("an allowlisted host passes whatever it resolves to", () => {
    const policy = UrlPolicy.make({ allowHosts: ["searxng"] })
    const searxng = passed(UrlPolicy.checkUrl(policy, "http://searxng:8080/"))
    expect(Either.isRight(UrlPolicy.checkAddress(policy, searxng, "172.18.0.5"))).toBe(true)
    expect(Either.isRight(UrlPolicy.checkAddress(policy, searxng, "::1"))).toBe(true)
    expectRejected(UrlPolicy.checkAddress(policy, searxng, "not-an-ip"), "ssrf_rejected")
  })
})

// --- Settings -------------------------------------------------------------------------------------------------

describe("UrlPolicy.fromSettings", () => {
  it.effect("loaded settings carry the compiled policy; a hand-built service is compiled on demand", () =>
    Effect.gen(function* () {
      const settings = yield* Settings.make({ urlPolicy: { allowHosts: ["127.0.0.1:8080"], allowPorts: [8443] } })
      const policy = UrlPolicy.fromSettings(settings)
      expect(UrlPolicy.isUrlPolicy(policy)).toBe(true)
      expect(policy).toBe(UrlPolicy.fromSettings(settings))
      expect(passed(UrlPolicy.checkUrl(policy, "http://127.0.0.1:8080/")).allowlisted).toBe(true)
      expect(Either.isRight(UrlPolicy.checkUrl(policy, "https://example.com:8443/"))).toBe(true)
      const handBuilt = UrlPolicy.fromSettings({
        ...settings,
        urlPolicy: { allowHosts: ["searxng"], allowCidrs: [], allowPorts: [] }
      })
      expect(passed(UrlPolicy.checkUrl(handBuilt, "http://searxng:8080/")).allowlisted).toBe(true)
    })
  )

  it.effect("settings refuse allowlist entries the policy cannot understand, naming the field", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Settings.make({ urlPolicy: { allowHosts: ["ok.example", "*", "a/b"] } }))
      expect(error.reason).toBe("invalid_config")
      expect(error.message).toContain("urlPolicy.allowHosts.1")
      expect(error.message).toContain("urlPolicy.allowHosts.2")
    })
  )
})
