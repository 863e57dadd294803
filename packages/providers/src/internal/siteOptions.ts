/**
 * What the hosted site providers (Firecrawl, Tavily) share when they translate a `mapSite` or `crawlSite` request:
 * the refusal of a field a provider cannot honour, made before any request, and websearch's path patterns and
 * site host as the regular expressions those providers take.
 */
import * as PathPattern from "@websearch/core/internal/pathPattern"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import { type Call, requestFailed } from "./providerCall.js"

/**
 * `RequestFailed/invalid_input` naming the field the provider cannot honour, and why.
 */
export const unhonoured = (c: Call, field: string, why: string): WebSearchError.RequestFailed =>
  requestFailed(c, "invalid_input", `${c.providerName} cannot honour ${field}: ${why}`)

/**
 * Path patterns as regular expression sources (anchored at the path's start), or nothing for none.
 */
export const pathRegexes = (patterns: ReadonlyArray<string>): ReadonlyArray<string> | undefined =>
  patterns.length === 0 ? undefined : patterns.map(PathPattern.toRegExpSource)

/**
 * The site's host as one anchored regular expression (its subdomains too when asked): the host's dots escaped, so
 * `example.com` never matches `exampleXcom` or `example.com.evil.test`.
 */
export const hostRegex = (siteUrl: string, includeSubdomains: boolean): string => {
  const host = new URL(siteUrl).hostname.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")
  return includeSubdomains ? `^(?:[^/]+\\.)?${host}$` : `^${host}$`
}

/**
 * The same-origin path of a provider's "next page" link: the part after the call's endpoint, or undefined for a
 * link elsewhere (which is never followed: the key would go with it).
 */
export const nextPath = (endpoint: string, next: string | null | undefined): string | undefined => {
  if (next === null || next === undefined) return undefined
  let url: URL
  let base: URL
  try {
    url = new URL(next)
    base = new URL(endpoint)
  } catch {
    return undefined
  }
  if (url.origin !== base.origin || url.username !== "" || url.password !== "") return undefined
  const prefix = base.pathname.replace(/\/+$/, "")
  if (prefix !== "" && !url.pathname.startsWith(`${prefix}/`)) return undefined
  return `${url.pathname.slice(prefix.length)}${url.search}`
}
