/**
 * Which API key each provider's next call takes: round-robin over its configured keys, one position per
 * provider, held by the registry (so two registries, two applications, never share positions).
 *
 * Positions are kept per call-state key, and a call instance's key names its workspace and revision, so every
 * change to every workspace's instances makes a new one: the positions are bounded, the least recently used
 * dropped first. A dropped position only starts that provider's rotation at its first key again.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ProviderConfig } from "../../ProviderConfig.js"
import * as SearchOptions from "../../SearchOptions.js"
import type * as Settings from "../../Settings.js"
import type { Capable } from "./lookup.js"

/** The rotation of one registry's providers. */
export interface KeyRotation {
  /** The position of the key to use now among `count` keys (`count` > 0), advancing the provider's position. */
  readonly next: (providerId: string, count: number) => Effect.Effect<number>
  /** How many positions are held (at most the bound). */
  readonly size: () => number
}

/** The most positions a rotation holds by default. */
export const defaultBound = 4096

/** A rotation with every provider at its first key, holding at most `bound` positions. */
export const makeBounded = (bound: number = defaultBound): Effect.Effect<KeyRotation> =>
  Effect.sync(() => {
    // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
    const positions = new Map<string, number>()
    return {
      next: (providerId, count) =>
        Effect.sync(() => {
          const position = (positions.get(providerId) ?? 0) % count
          positions.delete(providerId)
          positions.set(providerId, (position + 1) % count)
          if (positions.size > bound) positions.delete(positions.keys().next().value as string)
          return position
        }),
      size: () => positions.size
    }
  })

/** A rotation with every provider at its first key. */
export const make: Effect.Effect<KeyRotation> = makeBounded()

/** What a call may set of its configuration: its result count and search options (the settings' otherwise). */
export interface CallOptions {
  readonly maxResults?: number | undefined
  readonly searchOptions?: SearchOptions.SearchOptions | undefined
}

/**
 * The configuration of one call on a provider's capability, found and checked: its endpoint, the next API key in
 * the provider's rotation (one step per call), its limits.
 */
export const configure = (
  rotation: KeyRotation,
  settings: Pick<Settings.Settings.Service, "maxResults" | "timeouts">,
  found: Capable,
  options?: CallOptions
): Effect.Effect<ProviderConfig> => {
  const { entry, provider, stateKey } = found
  const keyIndex =
    provider.apiKeys.length === 0
      ? Effect.succeed(Option.none<number>())
      : Effect.map(rotation.next(stateKey, provider.apiKeys.length), Option.some)
  return Effect.map(keyIndex, (apiKeyIndex) => ({
    provider,
    capability: entry.feature,
    apiHost: Option.fromNullable(entry.apiHost),
    apiKey: Option.map(apiKeyIndex, (index) => provider.apiKeys[index]),
    apiKeyIndex,
    maxResults: options?.maxResults ?? settings.maxResults,
    searchOptions: options?.searchOptions ?? SearchOptions.none,
    timeout: settings.timeouts[entry.feature]
  }))
}
