/**
 * The runs of the two whole-site capabilities up to the frontier: the provider resolved and checked once, the
 * start URL through the same gates as a fetched URL (URL policy, private-host guard, blacklist), the map's links
 * filtered to the site, its patterns, the policy and the blacklist whatever the provider did, and one crawl page
 * as a step through the per-input stages (`callGuard`: deadline, typed defects, secrets scrubbed, its span).
 *
 * A crawl's `Plan` is what a frontier needs, in memory (`crawlFrontier.ts`) or in a shared store (a job engine on
 * several replicas): the step and the admission of a found link.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as OutboundProxy from "../OutboundProxy.js"
import type {
  CrawledPage,
  CrawlItem,
  DriverContext,
  MapSiteOutput,
  ProviderDriver,
  SiteScope
} from "../ProviderDriver.js"
import type { ProviderId } from "../ProviderId.js"
import type { CrawlSiteRequest, MapSiteRequest } from "../SiteRequest.js"
import * as SiteResponse from "../SiteResponse.js"
import * as UrlPolicy from "../UrlPolicy.js"
import * as WebSearchError from "../WebSearchError.js"
import * as Blacklist from "./blacklist.js"
import * as Bm25 from "./bm25.js"
import * as Paging from "./paging.js"
import { driverContext, type Env } from "./pipelineEnv.js"
import { resolve, type Resolved } from "./resolution/check.js"
import * as SiteScopes from "./siteScope.js"
import { blacklistGate } from "./stages/blacklistGate.js"
import { callGuard } from "./stages/callGuard.js"
import { driverCall } from "./stages/driverCall.js"
import type { InputCall } from "./stages/inputCall.js"
import { privateHostGuard } from "./stages/privateHostGuard.js"
import { quota } from "./stages/quota.js"
import { urlGate } from "./stages/urlGate.js"

/** The refusal of a site's URL by the gates a fetched URL passes, if it is refused. */
const gate = (call: InputCall, policy: UrlPolicy.UrlPolicy): WebSearchError.RequestFailed | undefined => {
  const checked = urlGate(call, policy)
  return Either.isLeft(checked) ? checked.left : (privateHostGuard(call, checked.right) ?? blacklistGate(call))
}

type MapCall = (
  request: MapSiteRequest,
  ctx: DriverContext
) => Effect.Effect<MapSiteOutput, WebSearchError.WebSearchError>

/** The `mapSite` run: one call, then core's own filtering, dedupe, ranking and cut, whatever the provider did. */
export const runMap: (
  env: Env,
  request: MapSiteRequest
) => Effect.Effect<SiteResponse.MapSiteResponse, WebSearchError.WebSearchError> = Effect.fnUntraced(
  function* (env, request) {
    const resolved = yield* resolve<MapCall>(env, request.providerId, "mapSite", (driver) => driver.mapSite)
    const call: InputCall = { env, resolved, capability: "mapSite", input: request.url }
    const policy = UrlPolicy.fromSettings(env.settings)
    const refused = gate(call, policy)
    if (refused !== undefined) return yield* Effect.fail(refused)
    const ctx = driverContext(env, yield* env.registry.configure(resolved))
    const output = yield* callGuard(
      call,
      ctx.timeout,
      quota(
        call,
        driverCall(call, () => OutboundProxy.withProvider(ctx.provider)(resolved.call(request, ctx)))
      )
    )
    const scope = SiteScopes.of(request.url, request.includeSubdomains)
    const byKey = new Map<string, SiteResponse.SiteLink>()
    let dropped = 0
    for (const link of output.links) {
      const url = SiteScopes.parse(link.url)
      const admitted =
        url !== undefined &&
        SiteScopes.contains(scope, url) &&
        SiteScopes.kept(request, url) &&
        Either.isRight(UrlPolicy.checkUrl(policy, url.href)) &&
        Blacklist.isAllowed(env.settings.filter, url.href)
      if (!admitted) {
        dropped++
        continue
      }
      const key = SiteScopes.dedupeKey(url)
      const known = byKey.get(key)
      // The first sighting wins; a later one only fills in what the first did not know.
      if (known === undefined) byKey.set(key, { ...link, url: url.href })
      else if ((known.lastmod === undefined && link.lastmod) || (known.title === undefined && link.title)) {
        byKey.set(key, { ...known, lastmod: known.lastmod ?? link.lastmod, title: known.title ?? link.title })
      }
    }
    if (dropped > 0) {
      yield* Effect.logDebug(
        `websearch dropped ${dropped} link(s) of ${resolved.providerId}'s map off the site, its patterns, the URL policy or the blacklist`
      )
    }
    const links = rank(Array.from(byKey.values()), request.search)
    const cuts = [...output.cuts]
    if (links.length > request.limit) {
      cuts.push({
        reason: "limit",
        message: `${links.length} URLs were found; the first ${request.limit} are listed (limit)`
      })
    }
    yield* Effect.annotateCurrentSpan({ "websearch.results": Math.min(links.length, request.limit) })
    return {
      providerId: resolved.providerId,
      url: request.url,
      links: links.slice(0, request.limit),
      cuts,
      failures: (output.failures ?? []).map(([url, error]) =>
        WebSearchError.toInputFailure(url, WebSearchError.scrub(error, resolved.secrets))
      )
    }
  },
  Effect.withSpan("websearch.mapSite", { captureStackTrace: false, attributes: { "websearch.capability": "mapSite" } })
)

// Ranks by the search term over each URL's words and title, best first; ties (and no term) keep the found order.
const rank = (links: Array<SiteResponse.SiteLink>, search: string | undefined): Array<SiteResponse.SiteLink> => {
  if (search === undefined) return links
  const scores = Bm25.score(
    search,
    links.map((link) => `${decodeSafe(new URL(link.url).pathname).replace(/[/._-]+/g, " ")} ${link.title ?? ""}`)
  )
  return links
    .map((link, index) => ({ link, index, score: scores[index] ?? 0 }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ link }) => link)
}

const decodeSafe = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Why a URL found by a crawl is not read. */
export type SkipReason = keyof SiteResponse.CrawlDone["skipped"]

/** No skips: the counts a crawl starts from. */
export const noSkips: SiteResponse.CrawlDone["skipped"] = {
  offSite: 0,
  excluded: 0,
  duplicate: 0,
  depth: 0,
  policy: 0,
  robots: 0
}

/** The outcome of one crawl step. */
export type StepOutcome =
  | {
      readonly _tag: "Page"
      readonly event: SiteResponse.CrawlPage
      /** The links it holds (absolute), to be admitted. */
      readonly links: ReadonlyArray<string>
      /** The dedupe keys the page answers for: the URL it ended at, and its canonical link on the site. */
      readonly keys: ReadonlyArray<string>
    }
  | {
      readonly _tag: "Failed"
      readonly event: SiteResponse.CrawlFailure
      readonly error: WebSearchError.WebSearchError
    }
  | { readonly _tag: "Skipped"; readonly reason: SkipReason }

/** What a found link becomes: a URL to read (with its dedupe key), or a skip. */
export type Admission =
  | { readonly _tag: "Read"; readonly url: string; readonly key: string }
  | { readonly _tag: "Skip"; readonly reason: SkipReason }

type PageCall = (
  url: string,
  site: SiteScope,
  ctx: DriverContext
) => Effect.Effect<CrawledPage, WebSearchError.WebSearchError>
type HostedCall = (
  request: CrawlSiteRequest,
  ctx: DriverContext
) => Stream.Stream<CrawlItem, WebSearchError.WebSearchError>

/** A crawl's method: websearch's own frontier over the driver's `crawlPage`, or the provider's hosted crawl. */
export type Method =
  { readonly _tag: "Own"; readonly page: PageCall } | { readonly _tag: "Hosted"; readonly crawl: HostedCall }

/** A crawl, prepared: the provider resolved and the start URL checked, before any page is read. */
export interface Plan {
  readonly providerId: ProviderId
  readonly request: CrawlSiteRequest
  readonly scope: SiteScope
  readonly startKey: string
  readonly secrets: ReadonlyArray<string>
  /** Where a found link goes: read (with its dedupe key) or skipped. */
  readonly admit: (raw: string) => Admission
  /** Whether the URL policy and the blacklist let a URL through (a hosted crawler's pages are checked after). */
  readonly allowed: (url: string) => boolean
  /** The kind of crawl: `step` for websearch's frontier, `hosted` for a provider's own crawler. */
  readonly method:
    | {
        readonly _tag: "Own"
        readonly step: (url: string, depth: number) => Effect.Effect<StepOutcome, WebSearchError.Aborted>
      }
    | { readonly _tag: "Hosted"; readonly stream: Stream.Stream<CrawlItem, WebSearchError.WebSearchError> }
  /** One page (a hosted crawler's, or a step's) served with the request's window and its `sourceInput`. */
  readonly serve: (url: string, depth: number | undefined, result: CrawledPage["result"]) => SiteResponse.CrawlPage
}

const pickMethod = (driver: ProviderDriver): Method | undefined => {
  if (driver.crawlPage !== undefined) return { _tag: "Own", page: driver.crawlPage }
  if (driver.crawlSite !== undefined) return { _tag: "Hosted", crawl: driver.crawlSite }
  return undefined
}

/** Resolves the provider and checks the start URL; nothing is read yet. */
export const prepare: (env: Env, request: CrawlSiteRequest) => Effect.Effect<Plan, WebSearchError.WebSearchError> =
  Effect.fnUntraced(function* (env, request) {
    const resolved: Resolved<Method> = yield* resolve(env, request.providerId, "crawlSite", pickMethod)
    const policy = UrlPolicy.fromSettings(env.settings)
    const start: InputCall = { env, resolved, capability: "crawlSite", input: request.url }
    const refused = gate(start, policy)
    if (refused !== undefined) return yield* Effect.fail(refused)
    const scope = SiteScopes.of(request.url, request.includeSubdomains)
    const window: Paging.Window =
      request.maxLength === undefined ? Paging.defaultWindow : { startIndex: 0, maxLength: request.maxLength }
    const serve: Plan["serve"] = (url, depth, result) =>
      new SiteResponse.CrawlPage({
        url,
        ...(depth === undefined ? {} : { depth }),
        result: Paging.apply(Object.assign({}, result, { sourceInput: url }), window)
      })
    const admit = (raw: string): Admission => {
      const url = SiteScopes.parse(raw)
      if (url === undefined || !SiteScopes.contains(scope, url)) return { _tag: "Skip", reason: "offSite" }
      if (!SiteScopes.kept(request, url)) return { _tag: "Skip", reason: "excluded" }
      return { _tag: "Read", url: url.href, key: SiteScopes.dedupeKey(url) }
    }
    const configured = Effect.map(env.registry.configure(resolved), (config) => driverContext(env, config))
    const method: Plan["method"] =
      resolved.call._tag === "Hosted"
        ? { _tag: "Hosted", stream: hostedStream(start, resolved.call.crawl, request, configured) }
        : { _tag: "Own", step: ownStep(env, resolved, resolved.call.page, policy, scope, serve) }
    return {
      providerId: resolved.providerId,
      request,
      scope,
      startKey: SiteScopes.dedupeKey(new URL(request.url)),
      secrets: resolved.secrets,
      admit,
      allowed: (url) =>
        Either.isRight(UrlPolicy.checkUrl(policy, url)) && Blacklist.isAllowed(env.settings.filter, url),
      method,
      serve
    }
  })

// A hosted crawl is one long provider call: it takes a quota permit (and waits out a Retry-After hold-off) when it
// starts, every request it makes goes through the provider's proxy, and whatever it fails with is made typed,
// named and scrubbed, as `callGuard` does for one call (a defect is the driver's: `ResponseInvalid/parse_failed`).
const hostedStream = (
  call: InputCall,
  crawl: HostedCall,
  request: CrawlSiteRequest,
  configured: Effect.Effect<DriverContext>
): Stream.Stream<CrawlItem, WebSearchError.WebSearchError> => {
  const { resolved } = call
  const attach = (error: WebSearchError.WebSearchError) =>
    WebSearchError.scrub(
      WebSearchError.annotate(error, { providerId: resolved.providerId, capability: "crawlSite", input: call.input }),
      resolved.secrets
    )
  const driverFailed = (what: unknown) => {
    const error = attach(
      WebSearchError.responseInvalid(
        "parse_failed",
        `the ${resolved.provider.name} driver failed unexpectedly crawling "${call.input}": ${describe(what)}`
      )
    )
    return Stream.fromEffect(
      Effect.zipRight(Effect.logError(`websearch driver defect: ${error.message}`), Effect.fail(error))
    )
  }
  const started = quota(
    call,
    Effect.flatMap(configured, (ctx) =>
      // The proxy the provider's call would have, read once and provided to the whole stream.
      OutboundProxy.withProvider(ctx.provider)(
        Effect.map(OutboundProxy.CallProxy, (proxy) =>
          Stream.provideService(
            Stream.suspend(() => crawl(request, ctx)),
            OutboundProxy.CallProxy,
            proxy
          )
        )
      )
    )
  )
  return Stream.unwrap(started).pipe(
    Stream.catchAllCause((cause) => {
      if (Cause.isInterruptedOnly(cause)) return Stream.failCause(cause)
      const failure = Cause.failureOption(cause)
      if (Option.isSome(failure)) {
        return WebSearchError.isWebSearchError(failure.value)
          ? Stream.fail(attach(failure.value))
          : driverFailed(failure.value)
      }
      return driverFailed(Option.getOrUndefined(Cause.dieOption(cause)))
    }),
    Stream.withSpan("websearch.provider.crawlSite", {
      captureStackTrace: false,
      attributes: { "websearch.provider": resolved.providerId, "websearch.capability": "crawlSite" }
    })
  )
}

// A defect may be anything, including a value whose conversion to text throws.
const describe = (value: unknown): string => {
  try {
    return String(value instanceof Error ? value.message : value)
  } catch {
    return "a value that cannot be shown"
  }
}

const ownStep =
  (
    env: Env,
    resolved: Resolved<Method>,
    page: PageCall,
    policy: UrlPolicy.UrlPolicy,
    scope: SiteScope,
    serve: Plan["serve"]
  ) =>
  (url: string, depth: number): Effect.Effect<StepOutcome, WebSearchError.Aborted> => {
    const call: InputCall = { env, resolved, capability: "crawlSite", input: url }
    const refused = gate(call, policy)
    if (refused !== undefined) return Effect.succeed({ _tag: "Skipped", reason: "policy" })
    return env.registry.configure(resolved).pipe(
      Effect.flatMap((config) => {
        const ctx = driverContext(env, config)
        // Each page has `fetchUrls`' timeout; `timeouts.crawlSite` bounds the whole crawl.
        return callGuard(
          call,
          env.settings.timeouts.fetchUrls,
          quota(
            call,
            driverCall(call, () => OutboundProxy.withProvider(ctx.provider)(page(url, scope, ctx)))
          )
        )
      }),
      Effect.matchEffect({
        onFailure: (error): Effect.Effect<StepOutcome, WebSearchError.Aborted> => {
          if (error._tag === "Aborted") return Effect.fail(error)
          if (error.reason === "robots_disallowed") return Effect.succeed({ _tag: "Skipped", reason: "robots" })
          return Effect.succeed({
            _tag: "Failed",
            error,
            event: new SiteResponse.CrawlFailure({ url, depth, failure: WebSearchError.toInputFailure(url, error) })
          })
        },
        onSuccess: (crawled) => Effect.succeed(pageOutcome(scope, url, depth, crawled, serve))
      })
    )
  }

const pageOutcome = (
  scope: SiteScope,
  url: string,
  depth: number,
  crawled: CrawledPage,
  serve: Plan["serve"]
): StepOutcome => {
  const served = serveSafely(serve, url, depth, crawled.result)
  if (served._tag === "ResponseInvalid") {
    const failure = WebSearchError.toInputFailure(url, served)
    return { _tag: "Failed", error: served, event: new SiteResponse.CrawlFailure({ url, depth, failure }) }
  }
  const keys: Array<string> = []
  const final = SiteScopes.parse(crawled.result.url)
  if (final !== undefined) keys.push(SiteScopes.dedupeKey(final))
  const canonical =
    crawled.canonical === undefined ? undefined : SiteScopes.parse(crawled.canonical, crawled.result.url)
  if (canonical !== undefined && SiteScopes.contains(scope, canonical)) keys.push(SiteScopes.dedupeKey(canonical))
  // A driver's links are remote data: only strings are kept, at most as many as a page may hold.
  const links = Array.isArray(crawled.links)
    ? crawled.links.slice(0, maxLinks).filter((link): link is string => typeof link === "string")
    : []
  return { _tag: "Page", event: served, links, keys }
}

/** The most links of one page a crawl follows (the local fetcher reads at most 5,000). */
const maxLinks = 10_000

/**
 * A page served as its event, or, when the driver's result is outside the response schema (a foreign driver's
 * bad field), that page's `ResponseInvalid/decode_failed` instead of a defect: the crawl goes on without it.
 */
export const serveSafely = (
  serve: Plan["serve"],
  url: string,
  depth: number | undefined,
  result: CrawledPage["result"]
): SiteResponse.CrawlPage | WebSearchError.ResponseInvalid => {
  try {
    return serve(url, depth, result)
  } catch (error) {
    return WebSearchError.responseInvalid(
      "decode_failed",
      `the page of ${url} is outside the result contract: ${describe(error).slice(0, 300)}`
    )
  }
}

/** The longest a Retry-After may pause a host and still be honoured (seconds); a longer one fails the page. */
const maxRetryAfter = 60

/** A page answered 429 with a Retry-After a crawl can wait for: that wait in seconds; otherwise undefined. */
export const retryAfter = (outcome: StepOutcome): number | undefined => {
  if (outcome._tag !== "Failed") return undefined
  const { error } = outcome
  const limited = error._tag === "RequestFailed" && (error.reason === "http_429" || error.reason === "rate_limited")
  return limited && error.retryAfter !== undefined && error.retryAfter >= 0 && error.retryAfter <= maxRetryAfter
    ? error.retryAfter
    : undefined
}

/** Why a crawl fails when its start page was not read: the page's own error, or its skip as an error. */
export const startError = (
  plan: Pick<Plan, "providerId" | "request">,
  outcome: Exclude<StepOutcome, { readonly _tag: "Page" }>
): WebSearchError.WebSearchError => {
  if (outcome._tag === "Failed") return outcome.error
  const robots = outcome.reason === "robots"
  return WebSearchError.requestFailed(
    robots ? "robots_disallowed" : "blacklisted",
    `the crawl's start page ${plan.request.url} was not read (${robots ? "robots.txt disallows it" : "the URL policy or blacklist refuses it"})`,
    { providerId: plan.providerId, capability: "crawlSite", input: plan.request.url }
  )
}
