/**
 * What the hosted site providers (Firecrawl, Tavily) share: the `mapSite`/`crawlSite` driver methods around a
 * call's context, the refusal of a field a provider cannot honour (made before any request), websearch's path
 * patterns and site host as the regular expressions those providers take, a same-origin `next` link, a hosted
 * map's links as websearch keeps them, and a job's cancellation. Internal, so the public API does not grow with
 * them (issue 37's export limit).
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as PathPattern from "@websearch/core/internal/pathPattern"
import type * as Preset from "@websearch/core/Preset"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as SiteRequest from "@websearch/core/SiteRequest"
import type * as SiteResponse from "@websearch/core/SiteResponse"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { type Call, call, endpoint, requestFailed, requireKey } from "./providerCall.js"
import * as Fields from "./resultFields.js"
import { send } from "./send.js"

/**
 * A `mapSite` method: `run` gets the call's context (its `input` is the site's URL) and the decoded request.
 */
export const mapSite =
  <Options = unknown>(
    preset: Preset.Preset,
    run: (
      c: Call,
      request: SiteRequest.MapSiteRequest,
      ctx: ProviderDriver.DriverContext<Options>
    ) => Effect.Effect<ProviderDriver.MapSiteOutput, WebSearchError.WebSearchError>
  ) =>
  (
    request: SiteRequest.MapSiteRequest,
    ctx: ProviderDriver.DriverContext<Options>
  ): Effect.Effect<ProviderDriver.MapSiteOutput, WebSearchError.WebSearchError> =>
    Effect.suspend(() => run(call(preset, "mapSite", request.url, ctx), request, ctx))

/**
 * A hosted `crawlSite` method: `run` gets the call's context (its `input` is the start URL) and the decoded
 * request; nothing runs until the stream is.
 */
export const crawlSite =
  <Options = unknown>(
    preset: Preset.Preset,
    run: (
      c: Call,
      request: SiteRequest.CrawlSiteRequest,
      ctx: ProviderDriver.DriverContext<Options>
    ) => Stream.Stream<ProviderDriver.CrawlItem, WebSearchError.WebSearchError>
  ) =>
  (
    request: SiteRequest.CrawlSiteRequest,
    ctx: ProviderDriver.DriverContext<Options>
  ): Stream.Stream<ProviderDriver.CrawlItem, WebSearchError.WebSearchError> =>
    Stream.suspend(() => run(call(preset, "crawlSite", request.url, ctx), request, ctx))

/**
 * `DELETE {endpoint}{path}` with the call's key as a Bearer token (a hosted job's cancellation); the answer's body
 * is not read beyond the capped read, its refusal is the usual websearch error.
 */
export const deleteWithKey = (
  client: HttpClient.HttpClient,
  c: Call,
  path: string
): Effect.Effect<void, WebSearchError.WebSearchError> =>
  Effect.gen(function* () {
    const base = yield* endpoint(c)
    const key = yield* requireKey(c)
    const request = HttpClientRequest.del(`${base}${path}`).pipe(
      HttpClientRequest.bearerToken(key),
      HttpClientRequest.acceptJson
    )
    yield* send(client, c, request)
  })

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
  // Trailing slashes dropped by a loop: `/\/+$/` backtracks quadratically on a long run of them.
  let end = base.pathname.length
  while (end > 0 && base.pathname[end - 1] === "/") end--
  const prefix = base.pathname.slice(0, end)
  if (prefix !== "" && !url.pathname.startsWith(`${prefix}/`)) return undefined
  return `${url.pathname.slice(prefix.length)}${url.search}`
}

/**
 * A hosted map's links as websearch keeps them: http(s) URLs only (the others dropped and logged), a title where
 * the provider gave a non-empty one, at most `mapLimits.max` of them (core lists no more), a longer answer cut
 * and said so.
 */
export const providerLinks = (
  c: Call,
  items: ReadonlyArray<{ readonly url: string; readonly title?: string | null | undefined }>
): Effect.Effect<ProviderDriver.MapSiteOutput> => {
  const keep = SiteRequest.mapLimits.max
  const links: Array<SiteResponse.SiteLink> = []
  let dropped = 0
  let more = false
  for (const item of items) {
    const url = Fields.httpUrl(item.url)
    if (url === undefined) {
      dropped++
      continue
    }
    if (links.length >= keep) {
      more = true
      break
    }
    const title = Fields.tidy(item.title ?? "")
    links.push(title === "" ? { url, source: "provider" } : { url, source: "provider", title })
  }
  const output: ProviderDriver.MapSiteOutput = {
    links,
    cuts: more
      ? [{ reason: "limit", message: `${c.providerName} listed more than ${keep} links; the first ${keep} are kept` }]
      : []
  }
  return dropped === 0
    ? Effect.succeed(output)
    : Effect.as(
        Effect.logDebug(`websearch ${c.providerId} dropped ${dropped} link(s) without an http(s) URL`).pipe(
          Effect.annotateLogs({ providerId: c.providerId, input: c.input })
        ),
        output
      )
}
