/**
 * What a driver reads from its context where it needs it: the call's API key and its capability's endpoint. The
 * request's resolution checks both once, before any input is sent (`check.ts`): a provider whose preset requires
 * a key has one, and a remote provider has an endpoint for the capability; each call then gets the next key in
 * rotation. Through the pipeline these accessors never fail for such a provider, so no driver checks again; they
 * fail typed, worded in `missing.ts`, for a call without one: a key one capability requires where the preset marks
 * keys optional, or a driver called directly with a context that holds none.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { ProviderConfig } from "../../ProviderConfig.js"
import type * as WebSearchError from "../../WebSearchError.js"
import * as Missing from "./missing.js"

/** The call's API key, or `Unavailable/missing_credentials` naming where to set one. */
export const apiKey = (
  ctx: ProviderConfig,
  name: string = ctx.provider.name
): Effect.Effect<Redacted.Redacted<string>, WebSearchError.Unavailable> =>
  Option.isSome(ctx.apiKey)
    ? Effect.succeed(ctx.apiKey.value)
    : Effect.fail(Missing.contextKey(ctx.provider, ctx.capability, name))

/**
 * The capability's endpoint without trailing slashes (a driver appends its paths), or `Unavailable/invalid_config`
 * naming the setting.
 */
export const apiHost = (
  ctx: ProviderConfig,
  name: string = ctx.provider.name
): Effect.Effect<string, WebSearchError.Unavailable> =>
  Option.isSome(ctx.apiHost)
    ? Effect.succeed(withoutTrailingSlashes(ctx.apiHost.value))
    : Effect.fail(Missing.contextEndpoint(ctx.provider, ctx.capability, name))

// A loop, not `/\/+$/`: that regular expression retries from every slash of a long run (quadratic).
const withoutTrailingSlashes = (url: string): string => {
  let end = url.length
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--
  return end === url.length ? url : url.slice(0, end)
}
