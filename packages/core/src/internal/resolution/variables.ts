/**
 * The environment variables of a provider's common fields, named from its id in this one place: what the
 * environment is read from (`environment.ts`) and what every message that tells a user where to set something
 * names (`missing.ts`).
 *
 * @internal Shared by the websearch packages, not part of the public API: it may change in any release.
 */
import * as Capability from "../../Capability.js"
import * as ProviderId from "../../ProviderId.js"

/** A provider's variable for a common field (`ENGINES`, `MODEL`, …): `<ID>_<FIELD>`. */
export const field = (id: string, name: string): string => `${ProviderId.toEnvName(id)}_${name}`

/** The variable of a provider's API keys (comma-separated to rotate): `<ID>_API_KEY`. */
export const apiKey = (id: string): string => field(id, "API_KEY")

/** The variable that sets every capability's endpoint: `<ID>_API_HOST`. */
export const apiHost = (id: string): string => field(id, "API_HOST")

/** The variable that sets one capability's endpoint, and wins over `<ID>_API_HOST`: `<ID>_<CAPABILITY>_API_HOST`. */
export const capabilityApiHost = (id: string, capability: Capability.Capability): string =>
  field(id, `${Capability.toEnvName(capability)}_API_HOST`)

/**
 * The variable a message names for one capability's endpoint: the provider-wide one for a provider of a single
 * capability, else the capability's own.
 */
export const apiHostFor = (
  preset: { readonly id: string; readonly capabilities: ReadonlyArray<unknown> },
  capability: Capability.Capability
): string => (preset.capabilities.length === 1 ? apiHost(preset.id) : capabilityApiHost(preset.id, capability))
