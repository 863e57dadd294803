/**
 * Resolving the provider for a capability and checking it can serve it, before any input is sent anywhere.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Capability } from "../Capability.js"
import { toEnvName as capabilityEnvName } from "../Capability.js"
import type { ProviderDriver } from "../ProviderDriver.js"
import * as ProviderId from "../ProviderId.js"
import * as ProviderInstance from "../ProviderInstance.js"
import type { ResolvedProvider } from "../ProviderConfig.js"
import * as ProviderRegistry from "../ProviderRegistry.js"
import type { SearchOption } from "../SearchOptions.js"
import * as WebSearchError from "../WebSearchError.js"
import type { Env } from "./pipelineEnv.js"

/** The provider a request runs on, and the driver's method for its capability. */
export interface Resolved<Call> {
  readonly providerId: ProviderId.ProviderId
  readonly provider: ResolvedProvider
  /** The key of the provider's call state (cache, quota, key rotation): see `ProviderRegistry.Found.stateKey`. */
  readonly stateKey: string
  /** The driver's method for the capability, picked by the capability service. */
  readonly call: Call
  readonly secrets: ReadonlyArray<string>
  /** The search options the driver applies natively (`ProviderDriver.searchOptions`; none when it declares none). */
  readonly nativeOptions: ReadonlyArray<SearchOption>
}

/** Resolves and checks the provider for a capability, before any input is sent anywhere. */
export const resolve = <Call>(
  env: Pick<Env, "registry">,
  requested: ProviderId.ProviderId | undefined,
  capability: Capability,
  method: (driver: ProviderDriver) => Call | undefined
): Effect.Effect<Resolved<Call>, WebSearchError.Unavailable> =>
  Effect.flatMap(ProviderInstance.CallInstances, (instances) => {
    const providerId = requested ?? env.registry.defaults[capability]
    if (providerId === null) {
      return Effect.fail(
        WebSearchError.unavailable(
          "no_default_provider",
          `no provider was given and there is no default for ${capability}: pass providerId, or set defaults.${capability} in the settings (WEBSEARCH_DEFAULT_${capabilityEnvName(capability)}_PROVIDER)`,
          { capability }
        )
      )
    }
    const ctx = { providerId, capability }
    const found = env.registry.lookup(providerId, capability, instances)
    if (Either.isLeft(found)) return Effect.fail(found.left)
    const { driver, entry, provider, stateKey } = found.right
    const where = setWhere(provider, stateKey)
    const call = method(driver)
    if (call === undefined) {
      return Effect.fail(
        WebSearchError.unavailable(
          "unsupported_capability",
          `the registered ${provider.name} driver does not implement ${capability}`,
          ctx
        )
      )
    }
    if (provider.credentials === "required" && provider.apiKeys.length === 0) {
      return Effect.fail(
        WebSearchError.unavailable(
          "missing_credentials",
          `${provider.name} (${providerId}) needs an API key: ${where?.("apiKeys") ?? `set ${ProviderId.toEnvName(providerId)}_API_KEY or providers.${providerId}.apiKeys`}`,
          ctx
        )
      )
    }
    if (entry.apiHost === undefined && provider.type !== "local") {
      return Effect.fail(
        WebSearchError.unavailable(
          "invalid_config",
          `${provider.name} (${providerId}) has no endpoint for ${capability}: ${where?.(`capabilities.${capability}.apiHost`) ?? `set providers.${providerId}.capabilities.${capability}.apiHost or ${ProviderId.toEnvName(providerId)}_${provider.capabilities.length === 1 ? "" : `${capabilityEnvName(capability)}_`}API_HOST`}`,
          ctx
        )
      )
    }
    const secrets = ProviderRegistry.secretsOf(provider)
    return Effect.succeed({ providerId, provider, stateKey, call, secrets, nativeOptions: driver.searchOptions ?? [] })
  })

// Where an instance's missing field is set (a composed provider's answer names its settings and variables).
const setWhere = (provider: ResolvedProvider, stateKey: string): ((field: string) => string) | undefined => {
  if (provider.instanceOf === undefined) return undefined
  if (stateKey === provider.id) return (field) => `set instances.${provider.id}.${field} in the settings`
  return (field) =>
    field === "apiKeys"
      ? `set the credentials of the provider instance "${provider.id}"`
      : `set settings.${field} of the provider instance "${provider.id}"`
}
