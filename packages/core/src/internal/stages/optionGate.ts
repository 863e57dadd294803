/**
 * Before any call: a search option the request sets that the provider cannot apply natively is refused, since
 * silently dropping it would answer another question than the one asked. The domain options are never refused:
 * the pipeline enforces them on the results (`domainFilter`).
 */
import type { Capability } from "../../Capability.js"
import type * as SearchOptions from "../../SearchOptions.js"
import * as OptionsSet from "../searchOptionsSet.js"
import * as WebSearchError from "../../WebSearchError.js"
import type { Resolved } from "../resolution/check.js"

const listed = (names: ReadonlyArray<string>): string =>
  names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`

/** The refusal of the options the resolved provider cannot apply, if the request sets any. */
export const optionGate = (
  resolved: Resolved<unknown>,
  capability: Capability,
  options: SearchOptions.SearchOptions
): WebSearchError.RequestFailed | undefined => {
  const refused = OptionsSet.unsupported(options, resolved.nativeOptions)
  if (refused.length === 0) return undefined
  return WebSearchError.requestFailed(
    "invalid_input",
    `${resolved.providerId} cannot apply ${listed(refused)}; choose another provider or drop the option${refused.length === 1 ? "" : "s"} (${resolved.provider.name} applies ${resolved.nativeOptions.length === 0 ? "no search option" : listed(resolved.nativeOptions)} natively; includeDomains and excludeDomains work on every provider)`,
    { providerId: resolved.providerId, capability }
  )
}

/** How the provider's search applies the options the request sets: natively, and on its results after the call. */
export const appliedOptions = (resolved: Resolved<unknown>, options: SearchOptions.SearchOptions) => {
  const set = OptionsSet.setOptions(options)
  return {
    providerId: resolved.providerId,
    native: set.filter((name) => resolved.nativeOptions.includes(name)),
    local: set.filter((name) => OptionsSet.enforcedLocally.includes(name))
  }
}
