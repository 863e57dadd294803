/**
 * The domains of `includeDomains` / `excludeDomains`: how one is read (IDN to punycode, case, a trailing dot)
 * and how a result's URL is matched against them. Providers that take domains natively match loosely (some by
 * substring, some ignore subdomains), so the pipeline applies these rules to every result after every call.
 */

// Labels of letters, digits and inner hyphens; the last label starts with a letter, so no IP address passes.
const hostname = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/

// What would make the text more than a host once parsed as a URL's authority: a scheme, path, port, user, query,
// fragment, percent-escape, brackets or white space.
const notBare = /[\s/\\:@?#%[\]]/u

/** The longest domain text read: a host name is at most 253 characters, even an IDN rarely four times that. */
export const maxDomainText = 1000

/**
 * A domain as the caller wrote it, as compared: trimmed, IDN converted to punycode, lower-cased, one trailing dot
 * dropped; `undefined` when it is not a bare host name (a URL, an IP address, a port, an empty label).
 */
export const toAsciiDomain = (raw: string): string | undefined => {
  const text = raw.trim()
  if (text === "" || text.length > maxDomainText || notBare.test(text)) return undefined
  let host: string
  try {
    // The WHATWG host parser is the one every URL goes through: it maps IDN to punycode and lower-cases as the
    // results' hosts are, so a domain and a result's host are compared in one form.
    host = new URL(`http://${text}/`).hostname
  } catch {
    return undefined
  }
  if (host.endsWith(".")) host = host.slice(0, -1)
  return hostname.test(host) ? host : undefined
}

/** The host of a result's URL as compared (punycode, lower case, no trailing dot), or `undefined` if none. */
export const hostOf = (url: string): string | undefined => {
  let host: string
  try {
    host = new URL(url.trim()).hostname
  } catch {
    return undefined
  }
  if (host.endsWith(".")) host = host.slice(0, -1)
  return host === "" ? undefined : host
}

/** A domain matches itself and its subdomains, on whole labels: `example.com` matches `a.example.com`, not `badexample.com`. */
export const matches = (host: string, domain: string): boolean =>
  host === domain ||
  (host.length > domain.length && host.endsWith(domain) && host[host.length - domain.length - 1] === ".")

/** The domain options of one search, as read. */
export interface DomainFilter {
  readonly includeDomains?: ReadonlyArray<string> | undefined
  readonly excludeDomains?: ReadonlyArray<string> | undefined
}

/** Whether the filter restricts anything. */
export const isActive = (filter: DomainFilter): boolean =>
  (filter.includeDomains?.length ?? 0) > 0 || (filter.excludeDomains?.length ?? 0) > 0

/**
 * Whether a result's URL passes: on one of `includeDomains` (when any is given) and on none of `excludeDomains`.
 * A URL without a host cannot be shown to pass either, so it does not.
 */
export const allows = (filter: DomainFilter, url: string): boolean => {
  const host = hostOf(url)
  if (host === undefined) return false
  const include = filter.includeDomains ?? []
  if (include.length > 0 && !include.some((domain) => matches(host, domain))) return false
  return !(filter.excludeDomains ?? []).some((domain) => matches(host, domain))
}
