import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as Blacklist from "../src/internal/blacklist.js"

const compileOrThrow = (entries: ReadonlyArray<string>): Blacklist.UrlMatcher =>
  Either.getOrThrowWith(Blacklist.compile(entries), (invalid) => new Error(JSON.stringify(invalid)))

const blacklistOnly = (entries: ReadonlyArray<string>): Blacklist.UrlFilter => ({
  blacklist: compileOrThrow(entries),
  allowlist: Blacklist.empty
})

const allowlistOnly = (entries: ReadonlyArray<string>): Blacklist.UrlFilter => ({
  blacklist: Blacklist.empty,
  allowlist: compileOrThrow(entries)
})

// --- Generators and an independent oracle for match-pattern semantics -------------------------------------

interface GenUrl {
  readonly scheme: "http" | "https"
  readonly host: string
  readonly upper: boolean
  readonly trailingDot: boolean
  readonly port: string
  readonly path: string
  readonly query: string
  readonly fragment: string
}

type GenHost =
  | { readonly kind: "any" }
  | { readonly kind: "exact"; readonly host: string }
  | { readonly kind: "suffix"; readonly host: string }

interface GenPattern {
  readonly scheme: "*" | "http" | "https"
  readonly host: GenHost
  readonly upper: boolean
  readonly path: string
}

const label = FastCheck.constantFrom("a", "b", "example", "com", "xn--bcher-kva")
const host = FastCheck.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join("."))

const genUrl: FastCheck.Arbitrary<GenUrl> = FastCheck.record({
  scheme: FastCheck.constantFrom("http" as const, "https" as const),
  host,
  upper: FastCheck.boolean(),
  trailingDot: FastCheck.boolean(),
  port: FastCheck.constantFrom("", ":8080", ":443"),
  path: FastCheck.array(FastCheck.constantFrom("a", "b", "ab"), { maxLength: 3 }).map((s) => `/${s.join("/")}`),
  query: FastCheck.constantFrom("", "?q=a", "?b"),
  fragment: FastCheck.constantFrom("", "#a", "#q=a")
})

const genHost: FastCheck.Arbitrary<GenHost> = FastCheck.oneof(
  FastCheck.constant({ kind: "any" as const }),
  host.map((h) => ({ kind: "exact" as const, host: h })),
  host.map((h) => ({ kind: "suffix" as const, host: h }))
)

// No bare trailing `?` and no `.`: the URL parser would rewrite those, and the oracle matches raw strings.
const genPattern: FastCheck.Arbitrary<GenPattern> = FastCheck.record({
  scheme: FastCheck.constantFrom("*" as const, "http" as const, "https" as const),
  host: genHost,
  upper: FastCheck.boolean(),
  path: FastCheck.array(FastCheck.constantFrom("a", "b", "/", "*", "?q=", "="), { maxLength: 5 }).map(
    (s) => `/${s.join("")}`
  )
})

const urlString = (u: GenUrl): string =>
  `${u.scheme}://${u.upper ? u.host.toUpperCase() : u.host}${u.trailingDot ? "." : ""}${u.port}${u.path}${u.query}${u.fragment}`

const patternString = (p: GenPattern): string => {
  const h = p.host.kind === "any" ? "*" : p.host.kind === "exact" ? p.host.host : `*.${p.host.host}`
  return `${p.scheme}://${p.upper ? h.toUpperCase() : h}${p.path}`
}

const globToRegExp = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .split("*")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
    "s"
  )

const oracleMatches = (p: GenPattern, u: GenUrl): boolean => {
  const schemeOk = p.scheme === "*" || p.scheme === u.scheme
  const hostOk =
    p.host.kind === "any" || u.host === p.host.host || (p.host.kind === "suffix" && u.host.endsWith(`.${p.host.host}`))
  return schemeOk && hostOk && globToRegExp(p.path).test(`${u.path}${u.query}`)
}

const garbage = FastCheck.constantFrom(
  "",
  "not a url",
  "ftp://example.com/",
  "mailto:a@example.com",
  "javascript:alert(1)",
  "http://",
  "https://exa mple.com/"
)

type Result = { readonly id: number; readonly url: string; readonly parseable: boolean }

const genResults: FastCheck.Arbitrary<ReadonlyArray<Result>> = FastCheck.array(
  FastCheck.oneof(
    { arbitrary: genUrl.map((u) => ({ url: urlString(u), parseable: true })), weight: 4 },
    { arbitrary: garbage.map((url) => ({ url, parseable: false })), weight: 1 }
  ),
  { maxLength: 12 }
).map((rs) => rs.map((r, id) => ({ ...r, id })))

const genEntries = FastCheck.array(
  FastCheck.oneof(
    { arbitrary: genPattern.map(patternString), weight: 8 },
    { arbitrary: host, weight: 1 },
    { arbitrary: FastCheck.constantFrom("/EXAMPLE\\.com/", "/^https:/", "/[?]q=/", "<all_urls>"), weight: 1 }
  ),
  { minLength: 1, maxLength: 4 }
)

const ids = (rs: ReadonlyArray<Result>): ReadonlyArray<number> => rs.map((r) => r.id)

// --- Properties -------------------------------------------------------------------------------------------

describe("Blacklist properties", () => {
  it.prop(
    "the blacklist drops exactly the URLs that match an entry (oracle)",
    [FastCheck.array(genPattern, { maxLength: 4 }), FastCheck.array(genUrl, { maxLength: 10 })],
    ([patterns, urls]) => {
      const filter = blacklistOnly(patterns.map(patternString))
      const results = urls.map((gen) => ({ url: urlString(gen), gen }))
      const { dropped, kept } = Blacklist.filterResults(results, filter)
      expect(kept.length + dropped.length).toBe(results.length)
      for (const r of kept)
        expect(
          patterns.some((p) => oracleMatches(p, r.gen)),
          r.url
        ).toBe(false)
      for (const r of dropped)
        expect(
          patterns.some((p) => oracleMatches(p, r.gen)),
          r.url
        ).toBe(true)
    },
    { fastCheck: { numRuns: 500 } }
  )

  it.prop(
    "blacklist and allowlist with the same entries partition the parseable results",
    [genEntries, genResults],
    ([entries, results]) => {
      const blKept = ids(Blacklist.filterResults(results, blacklistOnly(entries)).kept)
      const alKept = ids(Blacklist.filterResults(results, allowlistOnly(entries)).kept)
      const parseable = ids(results.filter((r) => r.parseable))
      expect(blKept.filter((id) => alKept.includes(id))).toEqual([])
      expect([...blKept, ...alKept].sort((a, b) => a - b)).toEqual(parseable)
    }
  )

  it.prop(
    "filtering keeps the input order and splits results into kept and dropped",
    [genEntries, FastCheck.array(genPattern.map(patternString), { maxLength: 3 }), genResults],
    ([blacklist, allowlist, results]) => {
      const filter: Blacklist.UrlFilter = { blacklist: compileOrThrow(blacklist), allowlist: compileOrThrow(allowlist) }
      const split = Blacklist.filterResults(filter)(results)
      expect(split).toEqual(Blacklist.filterResults(results, filter))
      expect(ids(split.kept)).toEqual(ids(results.filter((r) => Blacklist.isAllowed(filter, r.url))))
      expect(ids(split.dropped)).toEqual(ids(results.filter((r) => !Blacklist.isAllowed(filter, r.url))))
      for (const r of results.filter((r) => !r.parseable)) expect(ids(split.dropped)).toContain(r.id)
    }
  )
})

// --- Examples ---------------------------------------------------------------------------------------------

describe("Blacklist examples", () => {
  it("*://*.example.com/* matches the apex and subdomains but not lookalikes", () => {
    const m = compileOrThrow(["*://*.example.com/*"])
    expect(m.test("https://example.com/")).toBe(true)
    expect(m.test("http://a.b.example.com/x?y#z")).toBe(true)
    expect(m.test("https://example.com:8443/x")).toBe(true)
    expect(m.test("https://notexample.com/")).toBe(false)
    expect(m.test("https://example.com.evil.net/")).toBe(false)
  })

  it("matches scheme and path (with query) exactly", () => {
    const m = compileOrThrow(["https://example.com/a*"])
    expect(m.test("https://example.com/a")).toBe(true)
    expect(m.test("https://example.com/abc?x=1")).toBe(true)
    expect(m.test("http://example.com/a")).toBe(false)
    expect(m.test("https://example.com/b/a")).toBe(false)
    expect(m.test("https://sub.example.com/a")).toBe(false)
    const q = compileOrThrow(["*://example.com/search?q=*"])
    expect(q.test("https://example.com/search?q=effect")).toBe(true)
    expect(q.test("https://example.com/search#q=effect")).toBe(false)
    const exact = compileOrThrow(["*://example.com/"])
    expect(exact.test("https://example.com")).toBe(true)
    expect(exact.test("https://example.com/x")).toBe(false)
  })

  it("percent-encodes the pattern path like URL paths", () => {
    const m = compileOrThrow(["*://example.com/a b/*"])
    expect(m.test("https://example.com/a%20b/c")).toBe(true)
    expect(m.test("https://example.com/a b/c")).toBe(true)
  })

  it("<all_urls> matches every http(s) URL only", () => {
    const m = compileOrThrow(["<all_urls>"])
    expect(m.test("http://a/")).toBe(true)
    expect(m.test("https://[::1]:8080/x")).toBe(true)
    expect(m.test("ftp://a/")).toBe(false)
    expect(m.test("nope")).toBe(false)
  })

  it("/regex/ entries are case-insensitive and test the whole URL", () => {
    const m = compileOrThrow(["/tracking\\.[a-z]+\\/pixel/", "/^HTTP:/m"])
    expect(m.test("https://TRACKING.example/pixel")).toBe(true)
    expect(m.test("http://anything.org/")).toBe(true)
    expect(m.test("https://example.org/tracking")).toBe(false)
  })

  it("a bare host means the host and its subdomains on any scheme and path", () => {
    const m = compileOrThrow(["  example.com  ", "*.other.org"])
    expect(m.entries).toEqual(["  example.com  ", "*.other.org"])
    expect(m.test("http://example.com/x")).toBe(true)
    expect(m.test("https://www.example.com/")).toBe(true)
    expect(m.test("https://other.org/")).toBe(true)
    expect(m.test("https://a.other.org/b?c")).toBe(true)
    expect(m.test("https://notexample.com/")).toBe(false)
  })

  it("compares hosts case-insensitively and in punycode form", () => {
    const m = compileOrThrow(["*://BÜCHER.Example/*", "https://Example.ORG/*"])
    expect(m.test("https://xn--bcher-kva.example/")).toBe(true)
    expect(m.test("https://bücher.example/")).toBe(true)
    expect(m.test("https://Bücher.EXAMPLE/")).toBe(true)
    expect(m.test("https://EXAMPLE.org/")).toBe(true)
    const puny = compileOrThrow(["xn--bcher-kva.example"])
    expect(puny.test("https://www.bücher.example/")).toBe(true)
  })

  it("ignores a trailing dot on hosts", () => {
    const m = compileOrThrow(["https://example.com/*", "*://*.dot.org./*"])
    expect(m.test("https://example.com./x")).toBe(true)
    expect(m.test("https://dot.org/")).toBe(true)
    expect(m.test("https://a.dot.org./")).toBe(true)
  })

  it("reports every invalid entry at once with its index", () => {
    const result = Blacklist.compile([
      "example.com",
      "/(unclosed/",
      "ftp://example.com/*",
      "https://example.com",
      "https://example.com:8080/*",
      "*://foo.*.com/*",
      "   ",
      `/${"a".repeat(1001)}/`,
      "/a/g",
      "example.com/path",
      "*://exa mple.com/*",
      "https://example.com/#top"
    ])
    expect(Either.isLeft(result)).toBe(true)
    const invalid = Either.isLeft(result) ? result.left : []
    expect(invalid.map((e) => e.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    const messages = invalid.map((e) => e.message)
    expect(messages[0]).toMatch(/invalid regular expression/)
    expect(messages[1]).toMatch(/unsupported scheme 'ftp'/)
    expect(messages[2]).toMatch(/missing path/)
    expect(messages[3]).toMatch(/ports are not allowed/)
    expect(messages[4]).toMatch(/leading '\*\.'/)
    expect(messages[5]).toMatch(/empty/)
    expect(messages[6]).toMatch(/1000 characters/)
    expect(messages[7]).toMatch(/flags g and y/)
    expect(messages[8]).toMatch(/missing scheme/)
    expect(messages[9]).toMatch(/invalid host/)
    expect(messages[10]).toMatch(/fragment/)
    expect(invalid[1].entry).toBe("ftp://example.com/*")
    expect(Blacklist.formatInvalidEntry(invalid[4])).toBe(
      `entry 5 ("*://foo.*.com/*"): '*' is only allowed as the whole host or as a leading '*.' (e.g. '*.example.com')`
    )
  })

  it("drops results whose URL is unparseable or not http(s)", () => {
    const results = [{ url: "https://ok.org/" }, { url: "::bad::" }, { url: "file:///etc/passwd" }, { url: "" }]
    const none: Blacklist.UrlFilter = { blacklist: Blacklist.empty, allowlist: Blacklist.empty }
    const { dropped, kept } = Blacklist.filterResults(results, none)
    expect(kept).toEqual([{ url: "https://ok.org/" }])
    expect(dropped).toEqual([{ url: "::bad::" }, { url: "file:///etc/passwd" }, { url: "" }])
  })

  it("an allowlist keeps only matching results; an empty one keeps everything", () => {
    const results = [{ url: "https://docs.effect.website/a" }, { url: "https://example.com/" }]
    expect(Blacklist.filterResults(results, allowlistOnly(["effect.website"])).kept).toEqual([results[0]])
    expect(Blacklist.filterResults(results, allowlistOnly([])).kept).toEqual(results)
    const both: Blacklist.UrlFilter = {
      blacklist: compileOrThrow(["https://docs.effect.website/a"]),
      allowlist: compileOrThrow(["effect.website"])
    }
    expect(Blacklist.isAllowed(both, results[0].url)).toBe(false)
  })

  it("BlacklistEntry decodes valid entries and reports the compiler's message", () => {
    const decode = Schema.decodeUnknownEither(Schema.Array(Blacklist.BlacklistEntry))
    expect(decode(["example.com", "/a/i", "<all_urls>"])).toEqual(Either.right(["example.com", "/a/i", "<all_urls>"]))
    const failure = decode(["example.com", "https://example.com:1/*"])
    expect(Either.isLeft(failure)).toBe(true)
    if (Either.isLeft(failure)) expect(failure.left.message).toMatch(/\[1\][\s\S]*ports are not allowed/)
  })
})
