/**
 * robots.txt (RFC 9309): parsing into groups, choosing the group that applies to a product token, and deciding
 * whether a path may be fetched, and the sitemaps it names. Pure; the fetch provider fetches and caches the files.
 */
import * as PathPattern from "@websearch/core/internal/pathPattern"

/** One Allow or Disallow line, with its path pattern normalised for comparison. */
export interface Rule {
  readonly allow: boolean
  readonly pattern: string
}

/** The rules that apply to one crawler: every group naming its token, else every `*` group, combined. */
export interface Rules {
  readonly rules: ReadonlyArray<Rule>
}

/** No robots.txt (or one the RFC says to treat as absent): everything may be fetched. */
export const allowAll: Rules = { rules: [] }

/** RFC 9309 lets a crawler stop parsing after 500 KiB; a hostile file must not cost more than that. */
export const maxParsedBytes = 512 * 1024

export interface Group {
  readonly agents: Array<string>
  readonly rules: Array<Rule>
}

const unreserved = /[A-Za-z0-9\-._~]/

/**
 * Brings a path (from a URL or a robots.txt line) to one spelling, so that `/a%7eb`, `/a~b` and `/a%7Eb` compare
 * equal: percent-escapes of unreserved characters are decoded, the rest upper-cased, and characters outside
 * US-ASCII percent-encoded as UTF-8.
 */
export const normalizePath = (path: string): string => {
  let out = ""
  for (let i = 0; i < path.length; i++) {
    const char = path[i]
    if (char === "%" && /^[0-9A-Fa-f]{2}$/.test(path.slice(i + 1, i + 3))) {
      const decoded = String.fromCharCode(parseInt(path.slice(i + 1, i + 3), 16))
      out += unreserved.test(decoded) ? decoded : `%${path.slice(i + 1, i + 3).toUpperCase()}`
      i += 2
    } else if (char.charCodeAt(0) > 0x7e || char.charCodeAt(0) < 0x21) {
      const codePoint = path.codePointAt(i) ?? 0
      const text = String.fromCodePoint(codePoint)
      for (const byte of new TextEncoder().encode(text)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
      i += text.length - 1
    } else out += char
  }
  return out
}

/** The product token a robots.txt `User-agent` value names: its leading letters, `_` and `-`, lower-cased. */
export const agentToken = (value: string): string => (/^[A-Za-z_-]*/.exec(value.trim())?.[0] ?? "").toLowerCase()

/** Parses a robots.txt body (already decoded as UTF-8). Unknown lines and lines outside a group are ignored. */
export const parse = (text: string): ReadonlyArray<Group> => {
  const groups: Array<Group> = []
  let current: Group | undefined
  let lastWasAgent = false
  for (const rawLine of text.slice(0, maxParsedBytes).split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim()
    const colon = line.indexOf(":")
    if (colon <= 0) continue
    const key = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (key === "user-agent") {
      // Consecutive User-agent lines share one group; one after a rule starts the next group.
      if (current === undefined || !lastWasAgent) {
        current = { agents: [], rules: [] }
        groups.push(current)
      }
      current.agents.push(value === "*" ? "*" : agentToken(value))
      lastWasAgent = true
    } else if (key === "allow" || key === "disallow") {
      lastWasAgent = false
      // An empty Disallow allows everything, which is what no rule at all does.
      if (current === undefined || value === "") continue
      current.rules.push({ allow: key === "allow", pattern: normalizePath(value) })
    }
    // Other records (sitemap, crawl-delay, host, …) neither start nor end a group.
  }
  return groups
}

/** The most `Sitemap:` lines read from one file. */
export const maxSitemaps = 50

/**
 * The sitemaps a robots.txt names (`Sitemap:` lines, which belong to no group), absolute URLs as written, in
 * order, without repeats, at most `max`.
 */
export const sitemaps = (text: string, max = maxSitemaps): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const rawLine of text.slice(0, maxParsedBytes).split(/\r\n|\r|\n/)) {
    if (found.length >= max) break
    const colon = rawLine.indexOf(":")
    if (colon <= 0 || rawLine.slice(0, colon).trim().toLowerCase() !== "sitemap") continue
    // A URL may hold a `#` (its fragment); the comment of a Sitemap line starts with white space before it.
    const value =
      rawLine
        .slice(colon + 1)
        .trim()
        .split(/\s/)[0] ?? ""
    if (value !== "" && !found.includes(value)) found.push(value)
  }
  return found
}

/** The rules for a product token: the groups naming it, combined; else the `*` groups; else none. */
export const rulesFor = (groups: ReadonlyArray<Group>, token: string): Rules => {
  const wanted = token.toLowerCase()
  const own = groups.filter((group) => group.agents.includes(wanted))
  const chosen = own.length > 0 ? own : groups.filter((group) => group.agents.includes("*"))
  return { rules: chosen.flatMap((group) => group.rules) }
}

/** Whether a robots.txt path pattern matches a path (core's one matcher, shared with a crawl's path patterns). */
export const matches: (pattern: string, path: string) => boolean = PathPattern.matches

/**
 * The rule that decides a path (with its query): the longest matching pattern, Allow winning a tie; none when no
 * pattern matches or the path is `/robots.txt`, which is always allowed.
 */
export const decidingRule = (rules: Rules, pathAndQuery: string): Rule | undefined => {
  const path = normalizePath(pathAndQuery)
  if (path === "/robots.txt") return undefined
  let best: Rule | undefined
  for (const rule of rules.rules) {
    if (!matches(rule.pattern, path)) continue
    if (
      best === undefined ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow)
    ) {
      best = rule
    }
  }
  return best
}

/** Whether a path (with its query) may be fetched under these rules. */
export const isAllowed = (rules: Rules, pathAndQuery: string): boolean =>
  decidingRule(rules, pathAndQuery)?.allow ?? true
