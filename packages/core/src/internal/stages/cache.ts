/**
 * Stage around the quota: the result cache, when one is composed. A hit is served without the quota or the
 * driver; what is stored was scrubbed by the quota stage inside. Entries are the call's workspace's own.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ListCapability } from "../../Capability.js"
import type { DriverContext, DriverResult } from "../../ProviderDriver.js"

import type * as WebSearchError from "../../WebSearchError.js"
import { type InputCall, requestOf } from "./inputCall.js"

// The cache policy of a capability from the settings' TTLs.
const policyFor = (
  ttls: { readonly [C in ListCapability]: Duration.Duration } & { readonly failures: Duration.Duration },
  capability: ListCapability
) => ({ success: ttls[capability], failure: ttls.failures })

/** Serves the call from the cache, or runs `effect` and keeps its outcome as the cache's policy says. */
export const cache = (
  call: InputCall & { readonly capability: ListCapability },
  ctx: DriverContext,
  effect: Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>
): Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError> => {
  const store = Option.getOrUndefined(call.env.registry.services.resultCache)
  if (store === undefined) return effect
  return Effect.flatMap(requestOf(call, ctx), (request) =>
    store.serve(request, policyFor(call.env.settings.cache, call.capability), effect)
  )
}
