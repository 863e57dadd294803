/**
 * An in-memory `BackingPersistence` with a capacity: @effect/experimental's `layerMemory` only forgets an
 * expired entry when it is read again, so a long-running server caching many distinct queries would grow
 * without bound. Here each store keeps at most `capacity` entries and at most `maxBytes` of them (each entry
 * counted as about the length of its JSON, about its size in memory: fetched pages make entries of very different
 * sizes, so a count alone bounds nothing), evicting the least recently used, and drops expired entries as it meets
 * them. An entry over the whole budget is not kept. Expiry follows the Effect `Clock` (so tests can use the
 * TestClock).
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
  readonly bytes: number
}

/** One store's entries, oldest first, and the bytes they count. */
interface Held {
  readonly map: Map<string, Entry>
  bytes: number
}

/** The default byte budget of one store: 64 MiB. */
export const defaultMaxBytes = 64 * 1024 * 1024

// About the length of the value's JSON (what a shared store would hold): the length of every string and key, 8 for
// any other leaf. Walked with its own stack, so any depth is safe, and without writing the JSON, which for a
// fetched page would allocate a copy of several MiB on every write. It stops past `limit` (nothing over it is kept),
// which also ends the walk of a value that holds itself.
const sizeOf = (value: unknown, limit: number): number => {
  let size = 0
  const stack: Array<unknown> = [value]
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop()
    if (typeof item === "string") size += item.length + 2
    else if (Array.isArray(item)) {
      size += 2 + item.length
      for (const element of item) stack.push(element)
    } else if (typeof item === "object" && item !== null) {
      size += 2
      for (const [key, element] of Object.entries(item)) {
        size += key.length + 4
        stack.push(element)
      }
    } else size += 8
  }
  return size
}

const makeStore = (
  held: Held,
  capacity: number,
  maxBytes: number,
  clock: Clock.Clock
): Persistence.BackingPersistenceStore => {
  const { map } = held
  const drop = (key: string) => {
    const entry = map.get(key)
    if (entry === undefined) return
    map.delete(key)
    held.bytes -= entry.bytes
  }
  const read = (key: string): Option.Option<unknown> => {
    const entry = map.get(key)
    if (entry === undefined) return Option.none()
    if (entry.expires !== null && entry.expires <= clock.unsafeCurrentTimeMillis()) {
      drop(key)
      return Option.none()
    }
    // Re-inserting moves the entry to the young end of the Map's insertion order.
    map.delete(key)
    map.set(key, entry)
    return Option.some(entry.value)
  }
  const write = (key: string, value: unknown, ttl: Option.Option<Duration.Duration>) => {
    drop(key)
    const bytes = sizeOf(value, maxBytes)
    if (bytes > maxBytes) return
    map.set(key, {
      value,
      expires: Option.isNone(ttl) ? null : clock.unsafeCurrentTimeMillis() + Duration.toMillis(ttl.value),
      bytes
    })
    held.bytes += bytes
    while (map.size > capacity || held.bytes > maxBytes) {
      const oldest = map.keys().next()
      if (oldest.done === true) break
      drop(oldest.value)
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
    remove: (key) => Effect.sync(() => drop(key)),
    clear: Effect.sync(() => {
      map.clear()
      held.bytes = 0
    })
  }
}

/** A bounded in-memory backing store; every `make(storeId)` with the same id shares one map. */
export const layer = (
  capacity: number,
  maxBytes: number = defaultMaxBytes
): Layer.Layer<Persistence.BackingPersistence> =>
  Layer.sync(Persistence.BackingPersistence, () => {
    const stores = new Map<string, Held>()
    return Persistence.BackingPersistence.of({
      [Persistence.BackingPersistenceTypeId]: Persistence.BackingPersistenceTypeId,
      make: (storeId) =>
        Effect.map(Effect.clock, (clock) => {
          let held = stores.get(storeId)
          if (held === undefined) {
            held = { map: new Map(), bytes: 0 }
            stores.set(storeId, held)
          }
          return makeStore(held, capacity, maxBytes, clock)
        })
    })
  })
