/**
 * URL blacklists and allowlists for search and fetch results.
 *
 * Entries are WebExtension match patterns (`<scheme>://<host><path>`, or `<all_urls>`), `/regex/flags`
 * regular expressions, or bare hosts. A list is compiled once with {@link compile}; matching a URL never
 * re-parses an entry. The allowlist (include-only) is the dual of the blacklist: see {@link isAllowed}.
 *
 * Entry forms:
 *
 * - `<all_urls>` matches every http(s) URL.
 * - `<scheme>://<host><path>`: scheme is `*` (http or https), `http` or `https`; host is `*`, `*.example.com`
 *   (the apex `example.com` and every subdomain) or an exact host; the path is required, starts with `/` and
 *   `*` in it matches any run of characters. The path pattern is matched against the URL's path and query,
 *   never its fragment. Hosts compare case-insensitively in their punycode (ASCII) form, a trailing dot on a
 *   host is ignored, and URL ports are ignored (ports in patterns are invalid, as in the spec).
 * - `/source/flags`: a regular expression (at most 1000 characters) tested case-insensitively against the whole
 *   URL as serialized by the WHATWG URL parser (`href`). It runs on RE2 (the `re2js` port), whose matching time
 *   is linear in the URL whatever the pattern, so an entry such as `/(a+)+$/` cannot stall a request on a
 *   crafted URL. RE2 has no backreferences and no lookahead; an entry using them is reported as unsupported.
 *   The flags `i` (always on), `m`, `s` and `u` are accepted; `g` and `y` are rejected because they make
 *   matching stateful, and any other flag is reported.
 * - A bare host such as `example.com` or `*.example.com` (no scheme, no slash) is shorthand for
 *   `*://*.example.com/*`: the host and all of its subdomains, any scheme, any path.
 *
 * Entries are trimmed; empty and invalid entries are reported all together, never ignored.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import { dual } from "effect/Function"
import * as Schema from "effect/Schema"
import { RE2JS } from "re2js"

/**
 * A compiled list of entries. `test` is true when a URL matches at least one entry; a URL that cannot be
 * parsed, or is not http(s), matches nothing.
 *
 * @since 0.1.0
 * @category models
 */
export interface UrlMatcher {
  /** The entries this matcher was compiled from, as given. */
  readonly entries: ReadonlyArray<string>
  /** Whether the URL matches any entry; false for unparseable and non-http(s) URLs. */
  readonly test: (url: string) => boolean
  /** Like `test`, for callers that already hold a parsed URL. */
  readonly testUrl: (url: URL) => boolean
}

/**
 * An entry that failed to compile: its position in the input list, the entry as given and what is wrong.
 *
 * @since 0.1.0
 * @category models
 */
export interface InvalidEntry {
  readonly index: number
  readonly entry: string
  readonly message: string
}

/**
 * A blacklist and an allowlist applied together. An empty allowlist keeps everything.
 *
 * @since 0.1.0
 * @category models
 */
export interface UrlFilter {
  readonly blacklist: UrlMatcher
  readonly allowlist: UrlMatcher
}

type Scheme = "*" | "http" | "https"

// A path glob split on `*`: one segment means no wildcard (exact match).
type PathGlob = ReadonlyArray<string> | "any"

interface HostRule {
  readonly scheme: Scheme
  readonly path: PathGlob
}

type CompiledEntry =
  | { readonly _tag: "AllUrls" }
  | { readonly _tag: "Regex"; readonly regex: RE2JS }
  | {
      readonly _tag: "Pattern"
      readonly host: { readonly _tag: "Any" } | { readonly _tag: "Exact" | "Suffix"; readonly host: string }
      readonly rule: HostRule
    }

const MAX_REGEX_LENGTH = 1000

const stripTrailingDot = (host: string): string => (host.endsWith(".") ? host.slice(0, -1) : host)

const isHttp = (url: URL): boolean => url.protocol === "http:" || url.protocol === "https:"

const parseUrl = (url: string): URL | undefined => {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

// re2js' translation turns `\k<name>` into the literal text `k<name>`, which would silently change what the
// entry matches, so backreferences (`\1`…`\9`, `\k<name>`) outside a character class are refused here.
const hasBackreference = (source: string): boolean => {
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    if (char === "\\") {
      const next = source[i + 1] ?? ""
      if (!inClass && ((next >= "1" && next <= "9") || next === "k")) return true
      i++
    } else if (char === "[") inClass = true
    else if (char === "]") inClass = false
  }
  return false
}

const compileRegex = (entry: string): Either.Either<CompiledEntry, string> => {
  if (entry.length > MAX_REGEX_LENGTH) {
    return Either.left(`regex entries are limited to ${MAX_REGEX_LENGTH} characters (got ${entry.length})`)
  }
  const lastSlash = entry.lastIndexOf("/")
  if (lastSlash === 0) {
    return Either.left("a regex entry must be written /source/ with optional flags after the last slash")
  }
  const source = entry.slice(1, lastSlash)
  const flags = entry.slice(lastSlash + 1)
  if (source === "") {
    return Either.left("the regex is empty; use <all_urls> to match every URL")
  }
  if (flags.includes("g") || flags.includes("y")) {
    return Either.left("the regex flags g and y are not allowed (they make matching stateful)")
  }
  let engineFlags = RE2JS.CASE_INSENSITIVE
  for (const flag of flags) {
    if (flag === "m") engineFlags |= RE2JS.MULTILINE
    else if (flag === "s") engineFlags |= RE2JS.DOTALL
    else if (flag !== "i" && flag !== "u")
      return Either.left(`the regex flag '${flag}' is not supported (use i, m, s or u)`)
  }
  // JavaScript's own parser says first whether the source is a regular expression at all; RE2 then says whether
  // it has a linear-time form (no backreferences, no lookaround).
  try {
    void new RegExp(source, flags)
  } catch (error) {
    return Either.left(`invalid regular expression: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (hasBackreference(source)) {
    return Either.left(
      "unsupported regular expression (entries run on RE2): backreferences cannot match in linear time"
    )
  }
  try {
    return Either.right({ _tag: "Regex", regex: RE2JS.compile(RE2JS.translateRegExp(source), engineFlags) })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return Either.left(
      `unsupported regular expression (entries run on RE2: no backreferences or lookaround): ${reason}`
    )
  }
}

// Normalizes a pattern host through the WHATWG parser so it compares equal to URL hosts (lower case,
// punycode, canonical IPv4/IPv6 forms).
const normalizeHost = (raw: string): Either.Either<string, string> => {
  if (raw === "") return Either.left("the host is empty")
  const closing = raw.indexOf("]")
  // An unclosed IPv6 bracket is left for the URL parser to reject as an invalid host.
  const afterBracket = !raw.startsWith("[") ? raw : closing === -1 ? "" : raw.slice(closing + 1)
  if (afterBracket.includes(":")) {
    return Either.left("ports are not allowed in patterns (URL ports are ignored when matching)")
  }
  if (/[@\\?#\s]/.test(raw)) return Either.left(`invalid host '${raw}'`)
  const url = parseUrl(`http://${raw}/`)
  const host = url === undefined ? "" : stripTrailingDot(url.hostname)
  return host === "" ? Either.left(`invalid host '${raw}'`) : Either.right(host)
}

const compileHost = (raw: string): Either.Either<Extract<CompiledEntry, { _tag: "Pattern" }>["host"], string> => {
  if (raw === "*") return Either.right({ _tag: "Any" })
  const suffix = raw.startsWith("*.")
  const rest = suffix ? raw.slice(2) : raw
  if (rest.includes("*")) {
    return Either.left("'*' is only allowed as the whole host or as a leading '*.' (e.g. '*.example.com')")
  }
  return Either.map(normalizeHost(rest), (host) => ({ _tag: suffix ? "Suffix" : "Exact", host }))
}

const compilePath = (raw: string): Either.Either<PathGlob, string> => {
  if (raw.includes("#")) return Either.left("the fragment is never matched; remove '#' and what follows")
  if (raw === "/*") return Either.right("any")
  // Run the path through the URL parser so percent-encoding and dot segments agree with parsed URLs;
  // `*` is outside every percent-encode set, so the wildcards survive.
  const url = parseUrl(`http://h${raw}`)
  if (url === undefined) return Either.left(`invalid path '${raw}'`)
  return Either.right(`${url.pathname}${url.search}`.split("*"))
}

const compilePattern = (entry: string): Either.Either<CompiledEntry, string> => {
  if (entry === "<all_urls>") return Either.right({ _tag: "AllUrls" })
  const separator = entry.indexOf("://")
  if (separator === -1) {
    if (entry.includes("/")) return Either.left("missing scheme; write e.g. '*://example.com/path'")
    if (entry === "*") return Either.left("a bare '*' is ambiguous; use <all_urls> to match every URL")
    return compilePattern(entry.startsWith("*.") ? `*://${entry}/*` : `*://*.${entry}/*`)
  }
  const scheme = entry.slice(0, separator).toLowerCase()
  if (scheme !== "*" && scheme !== "http" && scheme !== "https") {
    return Either.left(`unsupported scheme '${entry.slice(0, separator)}'; use *, http or https`)
  }
  const rest = entry.slice(separator + 3)
  const slash = rest.indexOf("/")
  if (slash === -1) return Either.left("missing path; add '/*' to match every path")
  return Either.flatMap(compileHost(rest.slice(0, slash)), (host) =>
    Either.map(compilePath(rest.slice(slash)), (path) => ({ _tag: "Pattern", host, rule: { scheme, path } }))
  )
}

const compileEntry = (raw: string): Either.Either<CompiledEntry, string> => {
  const entry = raw.trim()
  if (entry === "") return Either.left("the entry is empty")
  return entry.startsWith("/") ? compileRegex(entry) : compilePattern(entry)
}

// Glob with `*` only: anchored first and last segments, middle segments found leftmost in order. Greedy
// leftmost placement is optimal for `*`-only globs, so this is linear-time with no backtracking.
const matchGlob = (glob: PathGlob, input: string): boolean => {
  if (glob === "any") return true
  if (glob.length === 1) return input === glob[0]
  const first = glob[0]
  const last = glob[glob.length - 1]
  if (input.length < first.length + last.length || !input.startsWith(first) || !input.endsWith(last)) return false
  const end = input.length - last.length
  let position = first.length
  for (let i = 1; i < glob.length - 1; i++) {
    const found = input.indexOf(glob[i], position)
    if (found === -1 || found + glob[i].length > end) return false
    position = found + glob[i].length
  }
  return true
}

const matchRules = (rules: ReadonlyArray<HostRule> | undefined, scheme: string, pathAndQuery: string): boolean => {
  if (rules === undefined) return false
  for (const rule of rules) {
    if ((rule.scheme === "*" || rule.scheme === scheme) && matchGlob(rule.path, pathAndQuery)) return true
  }
  return false
}

const push = (index: Map<string, Array<HostRule>>, host: string, rule: HostRule): void => {
  const rules = index.get(host)
  if (rules === undefined) index.set(host, [rule])
  else rules.push(rule)
}

// Patterns are indexed by host so matching costs one look-up per host label, not one test per entry.
const makeMatcher = (entries: ReadonlyArray<string>, compiled: ReadonlyArray<CompiledEntry>): UrlMatcher => {
  let allUrls = false
  const anyHost: Array<HostRule> = []
  const exact = new Map<string, Array<HostRule>>()
  const suffix = new Map<string, Array<HostRule>>()
  const regexes: Array<RE2JS> = []
  for (const entry of compiled) {
    if (entry._tag === "AllUrls") allUrls = true
    else if (entry._tag === "Regex") regexes.push(entry.regex)
    else if (entry.host._tag === "Any") anyHost.push(entry.rule)
    else push(entry.host._tag === "Exact" ? exact : suffix, entry.host.host, entry.rule)
  }
  const testUrl = (url: URL): boolean => {
    if (!isHttp(url)) return false
    if (allUrls) return true
    const scheme = url.protocol.slice(0, -1)
    const pathAndQuery = `${url.pathname}${url.search}`
    const host = stripTrailingDot(url.hostname)
    if (matchRules(anyHost, scheme, pathAndQuery) || matchRules(exact.get(host), scheme, pathAndQuery)) return true
    if (suffix.size > 0) {
      for (let candidate = host; ;) {
        if (matchRules(suffix.get(candidate), scheme, pathAndQuery)) return true
        const dot = candidate.indexOf(".")
        if (dot === -1) break
        candidate = candidate.slice(dot + 1)
      }
    }
    if (regexes.length > 0) {
      const href = url.href
      for (const regex of regexes) if (regex.test(href)) return true
    }
    return false
  }
  return {
    entries,
    testUrl,
    test: (url) => {
      const parsed = parseUrl(url)
      return parsed !== undefined && testUrl(parsed)
    }
  }
}

/**
 * Compiles a list of entries. Every invalid entry is reported, each with its index, the entry as given and
 * what is wrong with it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const compile = (entries: ReadonlyArray<string>): Either.Either<UrlMatcher, ReadonlyArray<InvalidEntry>> => {
  const compiled: Array<CompiledEntry> = []
  const invalid: Array<InvalidEntry> = []
  entries.forEach((entry, index) => {
    const result = compileEntry(entry)
    if (Either.isRight(result)) compiled.push(result.right)
    else invalid.push({ index, entry, message: result.left })
  })
  return invalid.length > 0 ? Either.left(invalid) : Either.right(makeMatcher([...entries], compiled))
}

/**
 * The matcher with no entries: matches nothing, so as a blacklist it drops nothing and as an allowlist it
 * keeps everything.
 *
 * @since 0.1.0
 * @category constructors
 */
export const empty: UrlMatcher = makeMatcher([], [])

/**
 * One line describing an invalid entry, e.g. `entry 2 ("foo.*.com"): '*' is only allowed ...`.
 *
 * @since 0.1.0
 * @category utils
 */
export const formatInvalidEntry = (invalid: InvalidEntry): string =>
  `entry ${invalid.index} (${JSON.stringify(invalid.entry)}): ${invalid.message}`

/**
 * Whether a URL passes the filter: it is a parseable http(s) URL, matches no blacklist entry and, when the
 * allowlist is non-empty, matches at least one allowlist entry.
 *
 * @since 0.1.0
 * @category combinators
 */
export const isAllowed = (filter: UrlFilter, url: string): boolean => {
  const parsed = parseUrl(url)
  if (parsed === undefined || !isHttp(parsed)) return false
  if (filter.blacklist.testUrl(parsed)) return false
  return filter.allowlist.entries.length === 0 || filter.allowlist.testUrl(parsed)
}

/**
 * Splits results into those the filter keeps and those it drops (including results whose URL cannot be
 * parsed or is not http(s)), preserving the input order in both.
 *
 * @since 0.1.0
 * @category combinators
 */
export const filterResults: {
  (
    filter: UrlFilter
  ): <A extends { readonly url: string }>(
    results: ReadonlyArray<A>
  ) => { readonly kept: ReadonlyArray<A>; readonly dropped: ReadonlyArray<A> }
  <A extends { readonly url: string }>(
    results: ReadonlyArray<A>,
    filter: UrlFilter
  ): { readonly kept: ReadonlyArray<A>; readonly dropped: ReadonlyArray<A> }
} = dual(
  2,
  <A extends { readonly url: string }>(
    results: ReadonlyArray<A>,
    filter: UrlFilter
  ): { readonly kept: ReadonlyArray<A>; readonly dropped: ReadonlyArray<A> } => {
    const kept: Array<A> = []
    const dropped: Array<A> = []
    for (const result of results) (isAllowed(filter, result.url) ? kept : dropped).push(result)
    return { kept, dropped }
  }
)

/**
 * One blacklist or allowlist entry, validated with the same compiler as {@link compile}; a failure carries
 * the compiler's message.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BlacklistEntry = Schema.String.pipe(
  Schema.filter((entry) => {
    const result = compileEntry(entry)
    return Either.isRight(result) || `invalid entry ${JSON.stringify(entry)}: ${result.left}`
  })
).annotations({ identifier: "BlacklistEntry" })
