/**
 * Which API key each provider's next call takes: round-robin over its configured keys, one position per
 * provider, held in a `Ref` that the registry owns (so two registries, two applications, never share positions).
 */
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"

/** The rotation of one registry's providers. */
export interface KeyRotation {
  /** The position of the key to use now among `count` keys (`count` > 0), advancing the provider's position. */
  readonly next: (providerId: string, count: number) => Effect.Effect<number>
}

/** A rotation with every provider at its first key. */
export const make: Effect.Effect<KeyRotation> = Effect.map(Ref.make(HashMap.empty<string, number>()), (positions) => ({
  next: (providerId, count) =>
    Ref.modify(positions, (map) => {
      const position = Option.getOrElse(HashMap.get(map, providerId), () => 0) % count
      return [position, HashMap.set(map, providerId, (position + 1) % count)]
    })
}))
