/**
 * Stage around the checked driver call: the provider's quota (rate limit, Retry-After hold-off). A cache hit never
 * reaches it, so it spends nothing. Its failures are scrubbed here, since the cache outside may store them and a
 * store may outlive this process.
 */
import * as Effect from "effect/Effect"
import * as ProviderQuota from "../../ProviderQuota.js"
import * as WebSearchError from "../../WebSearchError.js"
import type { InputCall } from "./inputCall.js"

/** Runs `effect` within the provider's quota. */
export const quota = <A>(
  call: InputCall,
  effect: Effect.Effect<A, WebSearchError.WebSearchError>
): Effect.Effect<A, WebSearchError.WebSearchError> => {
  const { provider, providerId, secrets, stateKey } = call.resolved
  return ProviderQuota.limit(
    call.env.registry.quota,
    // A local fetcher's Retry-After is one site's, not the provider's.
    {
      providerId,
      // A call instance's budget and hold-off are its workspace's and revision's own.
      ...(stateKey === providerId ? {} : { key: stateKey }),
      rateLimit: provider.rateLimit,
      retryAfterHoldsProvider: provider.type !== "local"
    },
    effect
    // `mapError`'s meaning in an error-only handler, which costs nothing when the call succeeds.
  ).pipe(Effect.catchAll((error) => Effect.fail(WebSearchError.scrub(error, secrets))))
}
