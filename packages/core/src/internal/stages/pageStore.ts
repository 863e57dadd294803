/**
 * Stage around the result cache for `fetchUrls`: when no result cache serves fetches, every page fetched is kept
 * in the application's bounded page store, and a request that reads on (`startIndex` past 0) is served from it,
 * so reading a page in pages costs one fetch. A request from 0 always fetches afresh (and replaces what is kept).
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Paging from "../../Paging.js"
import type { DriverContext, DriverResult } from "../../ProviderDriver.js"
import * as ResultCache from "../../ResultCache.js"
import type * as WebSearchError from "../../WebSearchError.js"
import { type InputCall, scopeOf } from "./inputCall.js"

/** Whether the result cache keeps fetched pages, in which case it is what reading on is served from. */
const cached = (call: InputCall): boolean =>
  Option.isSome(call.env.registry.services.resultCache) && !Duration.isZero(call.env.settings.cache.fetchUrls)

export const pageStore = (
  call: InputCall,
  ctx: DriverContext,
  window: Paging.Window,
  effect: Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>
): Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError> => {
  const store = call.env.pages
  if (call.capability !== "fetchUrls" || store === undefined || cached(call)) return effect
  // The result cache's key: the same provider, endpoint and normalised URL give the same page.
  const key = ResultCache.key({
    providerId: call.resolved.providerId,
    ...scopeOf(call),
    capability: "fetchUrls",
    input: call.input,
    maxResults: ctx.maxResults,
    apiHost: ctx.apiHost,
    engines: call.resolved.provider.engines
  })
  const fetchAndKeep = Effect.tap(effect, (results) => store.set(key, results))
  if (window.startIndex === 0) return fetchAndKeep
  return Effect.flatMap(
    store.get(key),
    Option.match({
      onNone: () => Effect.zipRight(Effect.annotateCurrentSpan("websearch.pages", "miss"), fetchAndKeep),
      onSome: (results) => Effect.as(Effect.annotateCurrentSpan("websearch.pages", "hit"), results)
    })
  )
}
