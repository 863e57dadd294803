/**
 * An in-memory `BackingPersistence` with a capacity: @effect/experimental's `layerMemory` only forgets an
 * expired entry when it is read again, so a long-running server caching many distinct queries would grow
 * without bound. Here each store keeps at most `capacity` entries, evicting the least recently used, and
 * drops expired entries as it meets them. Expiry follows the Effect `Clock` (so tests can use the TestClock).
 */
import * as Persistence from "@effect/experimental/Persistence"
import type * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

interface Entry {
  readonly value: unknown
  readonly expires: number | null
}

const makeStore = (
  map: Map<string, Entry>,
  capacity: number,
  clock: Clock.Clock
): Persistence.BackingPersistenceStore => {
  const read = (key: string): Option.Option<unknown> => {
    const entry = map.get(key)
    if (entry === undefined) return Option.none()
    if (entry.expires !== null && entry.expires <= clock.unsafeCurrentTimeMillis()) {
      map.delete(key)
      return Option.none()
    }
    // Re-inserting moves the entry to the young end of the Map's insertion order.
    map.delete(key)
    map.set(key, entry)
    return Option.some(entry.value)
  }
  const write = (key: string, value: unknown, ttl: Option.Option<Duration.Duration>) => {
    map.delete(key)
    map.set(key, {
      value,
      expires: Option.isNone(ttl) ? null : clock.unsafeCurrentTimeMillis() + Duration.toMillis(ttl.value)
    })
    while (map.size > capacity) {
      const oldest = map.keys().next()
      if (oldest.done === true) break
      map.delete(oldest.value)
    }
  }
  return {
    get: (key) => Effect.sync(() => read(key)),
    getMany: (keys) => Effect.sync(() => keys.map(read)),
    set: (key, value, ttl) => Effect.sync(() => write(key, value, ttl)),
    setMany: (entries) =>
      Effect.sync(() => {
        for (const [key, value, ttl] of entries) write(key, value, ttl)
      }),
    remove: (key) => Effect.sync(() => void map.delete(key)),
    clear: Effect.sync(() => map.clear())
  }
}

/** A bounded in-memory backing store; every `make(storeId)` with the same id shares one map. */
export const layer = (capacity: number): Layer.Layer<Persistence.BackingPersistence> =>
  Layer.sync(Persistence.BackingPersistence, () => {
    const stores = new Map<string, Map<string, Entry>>()
    return Persistence.BackingPersistence.of({
      [Persistence.BackingPersistenceTypeId]: Persistence.BackingPersistenceTypeId,
      make: (storeId) =>
        Effect.map(Effect.clock, (clock) => {
          let map = stores.get(storeId)
          if (map === undefined) {
            map = new Map()
            stores.set(storeId, map)
          }
          return makeStore(map, capacity, clock)
        })
    })
  })
