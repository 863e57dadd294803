/**
 * The rules of `NO_PROXY` and of choosing a proxy from the environment, as properties over generated host names,
 * addresses, ports and lists.
 */
import { describe, expect, it } from "@effect/vitest"
import * as UrlPolicy from "@websearch/core/UrlPolicy"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Logger from "effect/Logger"
import * as NoProxy from "../src/internal/noProxy.js"
import * as ProxyEnvironment from "../src/internal/proxyEnvironment.js"
import * as ProxyRoute from "../src/internal/proxyRoute.js"

const label = FastCheck.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/)
// The last label starts with a letter, as every top-level domain does: names of numeric labels only ("0.0.0.0")
// are IPv4 addresses, which NO_PROXY matches as addresses, not as names with sub-domains (seed -696503410).
const topLabel = FastCheck.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/)
const domain = FastCheck.tuple(FastCheck.array(label, { maxLength: 3 }), topLabel).map(([labels, top]) =>
  [...labels, top].join(".")
)
const port = FastCheck.integer({ min: 1, max: 65535 })
const octet = FastCheck.integer({ min: 0, max: 255 })
const ipv4 = FastCheck.tuple(octet, octet, octet, octet)
const dotted = (parts: ReadonlyArray<number>) => parts.join(".")
const toInt = (parts: ReadonlyArray<number>) => parts.reduce((acc, part) => acc * 256 + part, 0)
/** A spelling of an entry for `name`: as is, with a leading dot, or with a leading `*.`; any case. */
const spelling = FastCheck.constantFrom("", ".", "*.")
const shout = FastCheck.boolean()

const under = (host: string, name: string) => host === name || host.endsWith(`.${name}`)

describe("NO_PROXY matching", () => {
  it.prop(
    "a name entry matches the name and every name under it, in any of its spellings and any case, and nothing else",
    [domain, domain, spelling, shout, port],
    ([host, name, prefix, upper, p]) => {
      const entry = `${prefix}${upper ? name.toUpperCase() : name}`
      expect(NoProxy.matches(NoProxy.parse(entry), host, p)).toBe(under(host, name))
      // A sub-domain of the entry always matches; a name that merely ends with the same letters never does.
      expect(NoProxy.matches(NoProxy.parse(entry), `sub.${name}`, p)).toBe(true)
      expect(NoProxy.matches(NoProxy.parse(entry), `x${name}`, p)).toBe(false)
      // The host's case and a trailing dot do not matter.
      expect(NoProxy.matches(NoProxy.parse(entry), `${host.toUpperCase()}.`, p)).toBe(under(host, name))
    }
  )

  it.prop("an entry with a port matches that port only", [domain, port, port], ([name, entryPort, p]) => {
    const list = NoProxy.parse(`${name}:${entryPort}`)
    expect(NoProxy.matches(list, name, p)).toBe(p === entryPort)
    expect(NoProxy.matches(NoProxy.parse(`[::1]:${entryPort}`), "[::1]", p)).toBe(p === entryPort)
  })

  it.prop(
    "`*` anywhere in the list sends every host direct",
    [FastCheck.array(domain), domain, port],
    ([names, host, p]) => {
      expect(NoProxy.matches(NoProxy.parse([...names, "*"].join(",")), host, p)).toBe(true)
      expect(NoProxy.matches(NoProxy.parse(""), host, p)).toBe(false)
    }
  )

  it.prop(
    "a list matches when one of its entries does, whatever the separators and order",
    [FastCheck.array(domain, { maxLength: 5 }), domain, port, FastCheck.constantFrom(",", ", ", " ", " ,\t")],
    ([names, host, p, separator]) => {
      const expected = names.some((name) => under(host, name))
      expect(NoProxy.matches(NoProxy.parse(names.join(separator)), host, p)).toBe(expected)
      expect(NoProxy.matches(NoProxy.parse([...names].reverse().join(",")), host, p)).toBe(expected)
    }
  )

  it.prop(
    "an address entry matches that address only; a CIDR block matches exactly the addresses inside it",
    [ipv4, ipv4, FastCheck.integer({ min: 0, max: 32 }), port],
    ([address, base, prefix, p]) => {
      expect(NoProxy.matches(NoProxy.parse(dotted(base)), dotted(address), p)).toBe(dotted(base) === dotted(address))
      const size = 2 ** (32 - prefix)
      const inside = Math.floor(toInt(address) / size) === Math.floor(toInt(base) / size)
      expect(NoProxy.matches(NoProxy.parse(`${dotted(base)}/${prefix}`), dotted(address), p)).toBe(inside)
      // An address never matches a name entry made of its digits' labels, nor a name an address entry.
      expect(NoProxy.matches(NoProxy.parse(`${dotted(base)}/${prefix}`), "example.com", p)).toBe(false)
    }
  )

  it("IPv6 entries and blocks compare addresses, not spellings; entries that are not entries are ignored", () => {
    expect(NoProxy.matches(NoProxy.parse("::1"), "[0:0::1]", 443)).toBe(true)
    expect(NoProxy.matches(NoProxy.parse("fd00::/8"), "[fd12:3456::1]", 80)).toBe(true)
    expect(NoProxy.matches(NoProxy.parse("fd00::/8"), "[fe80::1]", 80)).toBe(false)
    const junk = NoProxy.parse("exa*mple.com, host:notaport, 10.0.0.0/99, [::1, .")
    expect(junk.entries).toEqual([])
  })
})

describe("the environment's proxy for a target", () => {
  const proxyA = "http://a.proxy.example:3128"
  const proxyB = "http://b.proxy.example:3128"

  it.prop(
    "lower case first; https targets fall back to the http proxy; NO_PROXY hosts go direct",
    // A name ending in letters: a URL reads an all-digit host (`0`, `1.2`) as an IPv4 address.
    [
      domain.map((name) => `${name}.test`),
      FastCheck.constantFrom("http:", "https:"),
      FastCheck.boolean(),
      FastCheck.boolean()
    ],
    ([host, scheme, withHttps, excluded]) => {
      const env = {
        HTTP_PROXY: proxyB,
        http_proxy: proxyA,
        ...(withHttps ? { HTTPS_PROXY: "http://c.proxy.example:8080" } : {}),
        ...(excluded ? { NO_PROXY: host } : { no_proxy: "elsewhere.invalid" })
      }
      const chosen = ProxyRoute.forTarget(ProxyRoute.fromEnv(env), new URL(`${scheme}//${host}/`))
      const expected = excluded
        ? undefined
        : scheme === "https:" && withHttps
          ? { field: "HTTPS_PROXY", url: "http://c.proxy.example:8080" }
          : { field: "http_proxy", url: proxyA }
      expect(chosen).toEqual(expected)
    }
  )
})

describe("NO_PROXY entries that mean nothing", () => {
  const junk = FastCheck.constantFrom("10.*", "host:99999", "10.0.0.0/33", "a*b.example", "[::1")

  it.prop(
    "are exactly the ones said at start, in order; every readable entry is kept",
    [FastCheck.array(FastCheck.oneof(domain, ipv4.map(dotted), junk), { maxLength: 12 })],
    ([entries]) => {
      const text = entries.join(", ")
      const bad = entries.filter((entry) => NoProxy.parse(entry).entries.length === 0)
      expect(NoProxy.unreadable(text)).toEqual(bad.slice(0, 20))
      expect(NoProxy.parse(text).entries).toHaveLength(entries.length - bad.length)
    }
  )

  it.effect("are logged as a warning naming the variable when the environment is checked", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const logger = Logger.make(({ message }) => lines.push(String(message)))
      yield* ProxyEnvironment.validate(UrlPolicy.make({}), { NO_PROXY: "intranet.example, 10.*, host:99999" }).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, logger))
      )
      expect(lines).toEqual([expect.stringContaining('NO_PROXY: ignored "10.*", "host:99999"')])
      lines.length = 0
      yield* ProxyEnvironment.validate(UrlPolicy.make({}), { NO_PROXY: "intranet.example, 10.0.0.0/8" }).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, logger))
      )
      expect(lines).toEqual([])
    })
  )
})
