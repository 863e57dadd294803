/**
 * What belongs to a site and when two URLs are the same page: the rules a map and a crawl apply to every URL,
 * whichever provider found it. Linear in the URL; no regular expression over remote input.
 */
import type { SiteScope } from "../ProviderDriver.js"
import * as PathPattern from "./pathPattern.js"

/** The scope of a start URL (already normalised by the request's schema). */
export const of = (start: string, includeSubdomains: boolean): SiteScope => ({
  host: hostOf(new URL(start).hostname),
  includeSubdomains
})

// `www.` is the same site for every purpose a map or crawl has: example.com and www.example.com are one site.
const hostOf = (hostname: string): string => (hostname.startsWith("www.") ? hostname.slice(4) : hostname)

/** Whether a URL (parsed) is on the site: its host, `www.` or not, and its subdomains when asked. */
export const contains = (scope: SiteScope, url: URL): boolean => {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false
  const host = hostOf(url.hostname)
  return host === scope.host || (scope.includeSubdomains && host.endsWith(`.${scope.host}`))
}

/** The path patterns of a request. */
export interface Patterns {
  readonly includePaths: ReadonlyArray<string>
  readonly excludePaths: ReadonlyArray<string>
}

/** Whether the path patterns keep a URL: an include pattern matches (or there is none) and no exclude does. */
export const kept = (patterns: Patterns, url: URL): boolean => {
  const path = `${url.pathname}${url.search}`
  if (patterns.includePaths.length > 0 && !patterns.includePaths.some((p) => PathPattern.matches(p, path))) return false
  return !patterns.excludePaths.some((p) => PathPattern.matches(p, path))
}

/**
 * The key two URLs of one page share: no fragment, no default port (the WHATWG parser drops it), the host
 * without `www.`, `http` and `https` alike, a trailing `/` and `index.html` dropped from the path, the query's
 * parameters sorted and the usual tracking ones (`utm_*`, `fbclid`, `gclid`) removed. Only for deduplication:
 * the URL fetched is always the one found.
 */
export const dedupeKey = (url: URL): string => {
  let path = url.pathname
  if (path.endsWith("/index.html") || path.endsWith("/index.htm")) path = path.slice(0, path.lastIndexOf("/") + 1)
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1)
  const params = [...url.searchParams].filter(([name]) => !tracking(name))
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const query = params.length === 0 ? "" : `?${new URLSearchParams(params).toString()}`
  return `${hostOf(url.hostname)}${url.port === "" ? "" : `:${url.port}`}${path}${query}`
}

const tracking = (name: string): boolean =>
  name.startsWith("utm_") || name === "fbclid" || name === "gclid" || name === "mc_cid" || name === "mc_eid"

/** The longest URL a map or crawl keeps (as a start URL may be): a longer link is not one a site means to be read. */
export const maxUrlLength = 8192

/** Parses a URL, absolute or relative to `base`; undefined when it is not one, not http(s), or over 8,192 characters. */
export const parse = (raw: string, base?: string): URL | undefined => {
  if (raw.length > maxUrlLength) return undefined
  try {
    const url = new URL(raw, base)
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
    url.hash = ""
    return url
  } catch {
    return undefined
  }
}
