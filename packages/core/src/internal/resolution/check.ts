/**
 * The request's resolution, once per request before any input is sent anywhere: the provider named (or the
 * capability's default) looked up, then checked to serve the capability (its driver implements it), to have a key
 * where its preset requires one, and an endpoint where its type needs one. Each input then only takes the next key
 * in rotation (`rotate.ts`), so the context a driver receives has the key and the endpoint this checked.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Capability } from "../../Capability.js"
import { toEnvName as capabilityEnvName } from "../../Capability.js"
import type { ProviderDriver } from "../../ProviderDriver.js"
import type * as ProviderId from "../../ProviderId.js"
import * as ProviderInstance from "../../ProviderInstance.js"
import type { ResolvedProvider } from "../../ProviderConfig.js"
import * as ProviderRegistry from "../../ProviderRegistry.js"
import type { SearchOption } from "../../SearchOptions.js"
import * as WebSearchError from "../../WebSearchError.js"
import type { Env } from "../pipelineEnv.js"
import * as Lookup from "./lookup.js"
import * as Missing from "./missing.js"

/** The provider a request runs on, checked, and the driver's method for its capability. */
export interface Resolved<Call> extends ProviderRegistry.ProviderRegistry.Capable {
  readonly providerId: ProviderId.ProviderId
  /** The driver's method for the capability, picked by the capability service. */
  readonly call: Call
  readonly secrets: ReadonlyArray<string>
  /** The search options the driver applies natively (`ProviderDriver.searchOptions`; none when it declares none). */
  readonly nativeOptions: ReadonlyArray<SearchOption>
}

/** Resolves and checks the provider for a capability, before any input is sent anywhere. */
export const resolve: <Call>(
  env: Pick<Env, "registry">,
  requested: ProviderId.ProviderId | undefined,
  capability: Capability,
  method: (driver: ProviderDriver) => Call | undefined
) => Effect.Effect<Resolved<Call>, WebSearchError.Unavailable> = Effect.fnUntraced(function* <Call>(
  env: Pick<Env, "registry">,
  requested: ProviderId.ProviderId | undefined,
  capability: Capability,
  method: (driver: ProviderDriver) => Call | undefined
) {
  const providerId = requested ?? env.registry.defaults[capability]
  if (providerId === null) {
    return yield* Effect.fail(
      WebSearchError.unavailable(
        "no_default_provider",
        `no provider was given and there is no default for ${capability}: pass providerId, or set defaults.${capability} in the settings (WEBSEARCH_DEFAULT_${capabilityEnvName(capability)}_PROVIDER)`,
        { capability }
      )
    )
  }
  const instances = yield* ProviderInstance.CallInstances
  const found = Lookup.capable(env.registry.find(providerId, instances), providerId, capability)
  if (Either.isLeft(found)) return yield* Effect.fail(found.left)
  const { driver, entry, provider, stateKey } = found.right
  const call = method(driver)
  if (call === undefined) {
    return yield* Effect.fail(
      WebSearchError.unavailable(
        "unsupported_capability",
        `the registered ${provider.name} driver does not implement ${capability}`,
        { providerId, capability }
      )
    )
  }
  const where = setWhere(provider, stateKey)
  if (provider.credentials === "required" && provider.apiKeys.length === 0) {
    return yield* Effect.fail(Missing.credentials(provider, providerId, capability, where))
  }
  if (entry.apiHost === undefined && provider.type !== "local") {
    return yield* Effect.fail(Missing.endpoint(provider, providerId, capability, where))
  }
  const resolved: Resolved<Call> = {
    providerId,
    provider,
    driver,
    stateKey,
    entry,
    call,
    secrets: ProviderRegistry.secretsOf(provider),
    nativeOptions: driver.searchOptions ?? []
  }
  return resolved
})

// Where an instance's missing field is set (a composed provider's answer names its settings and variables).
const setWhere = (provider: ResolvedProvider, stateKey: string): Missing.Where | undefined => {
  if (provider.instanceOf === undefined) return undefined
  if (stateKey === provider.id) return (field) => `set instances.${provider.id}.${field} in the settings`
  return (field) =>
    field === "apiKeys"
      ? `set the credentials of the provider instance "${provider.id}"`
      : `set settings.${field} of the provider instance "${provider.id}"`
}
