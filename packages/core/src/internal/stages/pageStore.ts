/**
 * Stage around the result cache for `fetchUrls`: when no result cache serves fetches, every page fetched is kept
 * in the application's bounded page store, and a request that reads on (`startIndex` past 0) is served from it,
 * so reading a page in pages costs one fetch. A request from 0 always fetches afresh (and replaces what is kept).
 * Pages are kept under the result cache's key, so one workspace never reads on from a page another fetched.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Paging from "../paging.js"
import type { DriverContext, DriverResult } from "../../ProviderDriver.js"
import * as ResultCache from "../../ResultCache.js"
import type * as WebSearchError from "../../WebSearchError.js"
import { type InputCall, requestOf } from "./inputCall.js"

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
  // The result cache's key: the same provider, endpoint, configuration, workspace and normalised URL give the same
  // page (a fetch's count and search options are not part of its answer).
  return Effect.flatMap(requestOf({ ...call, capability: "fetchUrls" }, ctx), (request) => {
    const key = ResultCache.key(request)
    const fetchAndKeep = Effect.tap(effect, (results) => store.set(key, results))
    if (window.startIndex === 0) return fetchAndKeep
    return Effect.flatMap(
      store.get(key),
      Option.match({
        onNone: () => Effect.zipRight(Effect.annotateCurrentSpan("websearch.pages", "miss"), fetchAndKeep),
        onSome: (results) => Effect.as(Effect.annotateCurrentSpan("websearch.pages", "hit"), results)
      })
    )
  })
}
