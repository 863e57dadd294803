/**
 * robots.txt respect for the local fetcher: each origin's file read once through the transport, kept for the
 * driver's lifetime (a bounded number of origins), and a URL checked against the group for our product token.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Scope from "effect/Scope"
import * as HttpStatus from "./httpStatus.js"
import * as RobotsTxt from "./robotsTxt.js"
import type * as TransportModel from "./transportModel.js"

/** The product token of a User-Agent (`websearch` for `websearch/0.1.0 (+https://…)`): what robots.txt names. */
export const productToken = (userAgent: string): string => RobotsTxt.agentToken(userAgent) || "websearch"

const originOf = (url: string): string => new URL(url).origin

const pathOf = (url: string): string => {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

/** Succeeds when robots.txt allows the URL; `RequestFailed/robots_disallowed` (or why the file is unreadable). */
export type Check = (url: string) => Effect.Effect<void, WebSearchError.RequestFailed>

/** A check for any User-Agent (the local fetcher's own, or a provider instance's). */
export type CheckAs = (url: string, userAgent: string) => Effect.Effect<void, WebSearchError.RequestFailed>

/** Origins (per User-Agent) whose robots.txt is remembered; the oldest is forgotten beyond this. */
const maxOrigins = 10_000

/**
 * robots.txt per origin and User-Agent (the file is asked for with the User-Agent that will read the pages, and its
 * group for that agent's product token kept), for the driver's lifetime. A file that answers 2xx is parsed; 4xx
 * (except 429) means there is none (RFC 9309 §2.3.1.3); a robots.txt that redirects somewhere the policy refuses,
 * or is bigger than the body cap, is treated as absent too. A 429, 5xx or network failure is not cached and fails
 * the page, since the RFC says to assume everything is disallowed while the file is unreachable.
 */
export const make: (transport: TransportModel.Transport) => Effect.Effect<CheckAs, never, Scope.Scope> =
  Effect.fnUntraced(function* (transport: TransportModel.Transport) {
    const load = (origin: string, userAgent: string): Effect.Effect<RobotsTxt.Rules, WebSearchError.RequestFailed> =>
      transport
        .request({ url: `${origin}/robots.txt`, headers: { "user-agent": userAgent, accept: "text/plain" } })
        .pipe(
          Effect.flatMap((response) => {
            if (response.status >= 200 && response.status <= 299) {
              const text = new TextDecoder().decode(response.body.subarray(0, RobotsTxt.maxParsedBytes))
              return Effect.succeed(RobotsTxt.rulesFor(RobotsTxt.parse(text), productToken(userAgent)))
            }
            if (response.status >= 400 && response.status <= 499 && response.status !== 429) {
              return Effect.succeed(RobotsTxt.allowAll)
            }
            return Effect.as(HttpStatus.ensureOk(response), RobotsTxt.allowAll)
          }),
          Effect.catchIf(
            (error) =>
              error.reason === "ssrf_rejected" || error.reason === "redirect_rejected" || error.reason === "too_large",
            () => Effect.succeed(RobotsTxt.allowAll)
          ),
          Effect.mapError((error) =>
            WebSearchError.annotate(error, {
              message: `robots.txt of ${origin} could not be read, so nothing there is fetched while robots.txt is respected: ${error.message}`
            })
          ),
          Effect.withSpan("websearch.fetch.robots", {
            captureStackTrace: false,
            attributes: { "websearch.origin": origin }
          })
        )
    // Each origin's file is read by a fiber of the driver's scope that every asker joins: an asker that times
    // out or is interrupted stops waiting without cancelling the read the others wait for.
    const scope = yield* Effect.scope
    const entries = new Map<string, Deferred.Deferred<RobotsTxt.Rules, WebSearchError.RequestFailed>>()
    // The look-up and the claim of a missing entry happen in one synchronous step (the Deferred is made first), so
    // two askers of one origin never both start a read.
    const rulesOf = (origin: string, userAgent: string) =>
      Effect.flatMap(Deferred.make<RobotsTxt.Rules, WebSearchError.RequestFailed>(), (deferred) =>
        Effect.suspend(() => {
          // A User-Agent has no newline (it is a header value), so the key is the pair's alone.
          const key = `${userAgent}\n${origin}`
          const existing = entries.get(key)
          if (existing !== undefined) return Deferred.await(existing)
          entries.set(key, deferred)
          if (entries.size > maxOrigins) entries.delete(entries.keys().next().value as string)
          const read = Effect.exit(load(origin, userAgent)).pipe(
            Effect.flatMap((exit) => {
              // Failures are not kept: the next asker tries again.
              if (Exit.isFailure(exit) && entries.get(key) === deferred) entries.delete(key)
              return Deferred.done(deferred, exit)
            }),
            Effect.onInterrupt(() => Deferred.interrupt(deferred))
          )
          return Effect.zipRight(Effect.forkIn(read, scope), Deferred.await(deferred))
        })
      )
    return (url, userAgent) =>
      Effect.flatMap(rulesOf(originOf(url), userAgent), (rules) => {
        const token = productToken(userAgent)
        const rule = RobotsTxt.decidingRule(rules, pathOf(url))
        if (rule === undefined || rule.allow) return Effect.void
        return Effect.fail(
          WebSearchError.requestFailed(
            "robots_disallowed",
            `robots.txt of ${originOf(url)} disallows ${url} for "${token}" (Disallow: ${rule.pattern})`
          )
        )
      })
  })
