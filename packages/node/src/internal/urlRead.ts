/**
 * The local fetcher's one read path, shared by `fetchUrls` and a crawl's `crawlPage`: the call's options (the
 * provider's, or an instance's laid over them), a GitHub `blob` link read as its raw file (not in a crawl, where
 * that would leave the site), robots.txt when respected (for the URL, and again where a redirect leads to another
 * origin), the transport's fetch (each hop checked; a crawl refuses redirects off its site), and the page read as
 * it came or rendered (`fetchedPage.ts`). The transport's answer is returned beside the result, for a caller that
 * reads more of it (a crawl, its links).
 */
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import type * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as BrowserRenderer from "../BrowserRenderer.js"
import * as FetchCall from "./fetchCall.js"
import * as FetchedPage from "./fetchedPage.js"
import * as GithubBlob from "./githubBlob.js"
import type * as RobotsCheck from "./robotsCheck.js"
import type * as TransportModel from "./transportModel.js"

/** What the read path is built from, once per driver. */
export interface Deps {
  readonly reader: FetchedPage.Reader
  readonly configured: FetchCall.PageOptions
  readonly robotsCheck: RobotsCheck.CheckAs
  readonly renderer: Option.Option<BrowserRenderer.BrowserRenderer.Service>
  readonly rawOrigin: string
}

/** How one URL is read besides its call's options. */
export interface ReadOptions {
  /** Refuses a redirect (the transport's `checkRedirect`): a crawl's, off its site. */
  readonly checkRedirect?: ((target: string) => WebSearchError.RequestFailed | undefined) | undefined
  /** Read a GitHub `blob` link as its raw file (another host); default true. */
  readonly rawBlobs?: boolean | undefined
}

/** A page read: the result, and the transport's answer it was read from. */
export interface Read {
  readonly result: ProviderDriver.DriverResult
  readonly response: TransportModel.Response
}

/** Reads one URL for a driver call. */
export type ReadUrl = (
  input: string,
  ctx: ProviderDriver.DriverContext<FetchCall.InstanceOptions>,
  options?: ReadOptions
) => Effect.Effect<Read, WebSearchError.WebSearchError>

const originOf = (url: string): string => new URL(url).origin

/** The call one driver call reads with: the provider's options, or an instance's own laid over them. */
export const callOf = (
  deps: Pick<Deps, "configured" | "robotsCheck">,
  ctx: ProviderDriver.DriverContext<FetchCall.InstanceOptions>
): FetchCall.Call =>
  FetchCall.make(deps.configured, ctx.provider.instanceOf === undefined ? undefined : ctx.options, deps.robotsCheck)

/** The read path over these parts. */
export const make =
  (deps: Deps): ReadUrl =>
  (input, ctx, options) =>
    Effect.gen(function* () {
      const call = callOf(deps, ctx)
      const { headers, render, robots } = call
      const instance = ctx.provider.instanceOf !== undefined
      if (render === "always" && Option.isNone(deps.renderer)) {
        return yield* FetchCall.missingRenderer(ctx.provider.id, instance)
      }
      // `never` reads pages as they come, whatever renderer is composed.
      const browser = render === "never" ? undefined : Option.getOrUndefined(deps.renderer)
      const target = options?.rawBlobs === false ? input : (GithubBlob.rawUrl(input, deps.rawOrigin) ?? input)
      if (target !== input) yield* Effect.annotateCurrentSpan("websearch.fetch.rewritten", target)
      if (robots !== undefined) yield* robots(target)
      const response = yield* deps.reader.transport.request({
        url: target,
        headers,
        checkRedirect: options?.checkRedirect
      })
      // A redirect may leave the origin whose robots.txt was read; the content is used only if the new one allows it.
      if (robots !== undefined && originOf(response.url) !== originOf(target)) yield* robots(response.url)
      const result = yield* FetchedPage.read(deps.reader, response, call, browser)
      return { result, response }
    }).pipe(Effect.withSpan("websearch.fetch.url", { captureStackTrace: false, attributes: { "url.full": input } }))
