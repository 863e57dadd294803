/**
 * Looking a provider up, without side effects: the instance a call names (its `CallInstances`, consulted first),
 * else a composed provider or a settings instance; then its entry for the capability asked.
 */
import * as Either from "effect/Either"
import type { Capability } from "../../Capability.js"
import type * as Preset from "../../Preset.js"
import type { ResolvedProvider } from "../../ProviderConfig.js"
import type { AnyProviderDriver } from "../../ProviderDriver.js"
import type { ProviderId } from "../../ProviderId.js"
import type * as ProviderInstance from "../../ProviderInstance.js"
import * as WebSearchError from "../../WebSearchError.js"
import type * as Instances from "./instances.js"

/** A provider found, with its entry for one capability. */
export interface Capable extends Instances.Entry {
  readonly entry: Preset.PresetCapability
}

// A workspace may hold thousands of instances: the message names the first ones and counts the rest.
const maxListed = 40

const listed = (ids: ReadonlyArray<string>): string =>
  ids.length === 0
    ? "none"
    : ids.length <= maxListed
      ? ids.join(", ")
      : `${ids.slice(0, maxListed).join(", ")} and ${ids.length - maxListed} more`

/** The `Unavailable/unknown_provider` error for an id no composed provider has, listing the composed ids. */
export const unknownProvider = (
  id: string,
  composed: ReadonlyArray<string>,
  capability?: Capability
): WebSearchError.Unavailable =>
  WebSearchError.unavailable(
    "unknown_provider",
    `unknown provider "${id}": no composed provider has this id (composed: ${listed(composed)})`,
    { providerId: id, capability }
  )

/** What a registry looks providers up in. */
export interface Known {
  readonly ids: ReadonlyArray<ProviderId>
  readonly drivers: ReadonlyMap<ProviderId, AnyProviderDriver>
  readonly providers: ReadonlyMap<ProviderId, ResolvedProvider>
  readonly callInstances: Instances.Cache
}

/** Finds the provider a call may name: a call instance first, else a composed provider or settings instance. */
export const find = (
  known: Known,
  id: ProviderId,
  instances?: ProviderInstance.CallInstances.Service | undefined
): Either.Either<Instances.Entry, WebSearchError.Unavailable> => {
  const called = instances === undefined ? undefined : known.callInstances.find(instances, id)
  if (called !== undefined) return called
  const provider = known.providers.get(id)
  const driver = known.drivers.get(id)
  if (provider === undefined || driver === undefined) {
    const named = instances?.instances.map((instance) => instance.id) ?? []
    return Either.left(unknownProvider(id, [...known.ids, ...named]))
  }
  return Either.right({ provider, driver, stateKey: id })
}

/** A found provider's entry for `capability`, or `Unavailable/unsupported_capability` naming what it supports. */
export const capable = (
  found: Either.Either<Instances.Entry, WebSearchError.Unavailable>,
  id: ProviderId,
  capability: Capability
): Either.Either<Capable, WebSearchError.Unavailable> => {
  if (Either.isLeft(found)) return Either.left(WebSearchError.annotate(found.left, { capability }))
  const { driver, provider, stateKey } = found.right
  const entry = provider.capabilities.find((c) => c.feature === capability)
  if (entry === undefined) {
    return Either.left(
      WebSearchError.unavailable(
        "unsupported_capability",
        `${provider.name} (${id}) does not support ${capability}; it supports ${provider.capabilities
          .map((c) => c.feature)
          .join(", ")}`,
        { providerId: id, capability }
      )
    )
  }
  // Named fields, not `{ ...found, entry }`: on Node 20 a key added after a spread costs about a microsecond.
  return Either.right({ provider, driver, stateKey, entry })
}
