/**
 * The checks of a new or changed instance before it is stored: the registry resolves it as a call naming it
 * would (`ProviderRegistry.checkInstance`: a composed type, an id no composed provider has, settings and options
 * the type accepts, endpoints the URL policy allows), so a bad instance fails when it is written, naming the
 * field, rather than at its first search. For the API that is the caller's input at fault: `invalid_input`.
 */
import type * as ProviderInstance from "@websearch/core/ProviderInstance"
import type * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"

/** Refuses an instance the registry could not use, with the registry's own words (every field at fault). */
export const check = (
  registry: ProviderRegistry.ProviderRegistry.Service,
  instance: ProviderInstance.ProviderInstance
): Effect.Effect<void, WebSearchError.RequestFailed> =>
  Either.match(registry.checkInstance(instance), {
    onLeft: (error) => Effect.fail(WebSearchError.requestFailed("invalid_input", error.message)),
    onRight: () => Effect.void
  })
