/**
 * The errors of a provider that lacks what a call needs (an API key, an endpoint), worded in this one place: by
 * the resolution, which checks every request before any input is sent (`check.ts`), and by the driver context's
 * accessors (`context.ts`), which a driver reaches only where the preset
 * cannot say it (a key that one capability requires and the preset marks optional) or when it is called directly,
 * without the resolution.
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 */
import type { Capability } from "../../Capability.js"
import type { ResolvedProvider } from "../../ProviderConfig.js"
import * as WebSearchError from "../../WebSearchError.js"
import * as Variables from "./variables.js"

/** Where a field missing from a provider is set, when its settings say more than the defaults below. */
export type Where = (field: string) => string

/** Where a provider's keys are set: its settings field and its variable. */
export const keySettings = (id: string): string => `providers.${id}.apiKeys or ${Variables.apiKey(id)}`

/** The request's resolution: the provider's preset requires a key and none is configured. */
export const credentials = (
  provider: ResolvedProvider,
  providerId: string,
  capability: Capability,
  where: Where | undefined
): WebSearchError.Unavailable =>
  WebSearchError.unavailable(
    "missing_credentials",
    `${provider.name} (${providerId}) needs an API key: ${where?.("apiKeys") ?? `set ${Variables.apiKey(providerId)} or providers.${providerId}.apiKeys`}`,
    { providerId, capability }
  )

/** The request's resolution: the provider's capability has no endpoint. */
export const endpoint = (
  provider: ResolvedProvider,
  providerId: string,
  capability: Capability,
  where: Where | undefined
): WebSearchError.Unavailable =>
  WebSearchError.unavailable(
    "invalid_config",
    `${provider.name} (${providerId}) has no endpoint for ${capability}: ${where?.(`capabilities.${capability}.apiHost`) ?? `set providers.${providerId}.capabilities.${capability}.apiHost or ${Variables.apiHostFor(provider, capability)}`}`,
    { providerId, capability }
  )

// A driver names its errors by its type's id (the pipeline renames them for an instance a caller named).
const typeId = (provider: ResolvedProvider): string => provider.instanceOf ?? provider.id

/** A driver's context without the key its call needs; `name` is who the message names (a driver: its preset's). */
export const contextKey = (
  provider: ResolvedProvider,
  capability: Capability,
  name: string = provider.name
): WebSearchError.Unavailable =>
  WebSearchError.unavailable("missing_credentials", `${name} needs an API key: set ${keySettings(typeId(provider))}`, {
    providerId: typeId(provider),
    capability
  })

/** A driver's context without the endpoint its call needs; `name` as for `contextKey`. */
export const contextEndpoint = (
  provider: ResolvedProvider,
  capability: Capability,
  name: string = provider.name
): WebSearchError.Unavailable =>
  WebSearchError.unavailable(
    "invalid_config",
    `${name} has no endpoint for ${capability}: set providers.${typeId(provider)}.capabilities.${capability}.apiHost`,
    { providerId: typeId(provider), capability }
  )
