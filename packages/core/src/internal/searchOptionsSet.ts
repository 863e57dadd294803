/**
 * Which of a search's options are set, and which a provider cannot apply: the option gate's arithmetic, shared by
 * the single-provider and the fused pipeline.
 */
import * as SearchOptions from "../SearchOptions.js"

/**
 * The options a search sets, in the fixed order of `SearchOption` (an empty domain list counts as unset).
 */
export const setOptions = (options: SearchOptions.SearchOptions): ReadonlyArray<SearchOptions.SearchOption> =>
  SearchOptions.SearchOption.literals.filter((name) => {
    const value = options[name]
    return Array.isArray(value) ? value.length > 0 : value !== undefined
  })

/**
 * The options websearch enforces itself on every provider's results after the call, whether or not the
 * provider also takes them natively: providers match domains loosely.
 */
export const enforcedLocally: ReadonlyArray<SearchOptions.SearchOption> = ["includeDomains", "excludeDomains"]

/**
 * The options a search sets that a provider declaring `native` cannot apply (the domain options never count:
 * they are enforced locally). A non-empty answer means the search is refused before any call.
 */
export const unsupported = (
  options: SearchOptions.SearchOptions,
  native: ReadonlyArray<SearchOptions.SearchOption>
): ReadonlyArray<SearchOptions.SearchOption> =>
  setOptions(options).filter((name) => !native.includes(name) && !enforcedLocally.includes(name))
