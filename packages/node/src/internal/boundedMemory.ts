/**
 * An in-memory `BackingPersistence` with a capacity: @effect/experimental's `layerMemory` only forgets an
 * expired entry when it is read again, so a long-running server caching many distinct queries would grow
 * without bound. Here each store keeps at most `capacity` entries and at most `maxBytes` of them (each entry
 * counted at about what it costs in V8's heap, see `entryBytes`: fetched pages make entries of very different
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

/** The default byte budget of one store: 32 MiB (see `ResultCacheStore.defaultMaxBytes`). */
export const defaultMaxBytes = 32 * 1024 * 1024

// What a value costs in V8's heap on a 64-bit Node (no pointer compression), about: a flat string is a 16-byte
// header and its characters at one byte each when they all fit in one, two otherwise (V8 may hold a narrow text two
// bytes wide; the extractor hands its markdown over narrow, see @websearch/extract's compactText); an object a
// 24-byte header and an 8-byte slot a property (its key is shared with every object of its shape); an array 48 bytes
// and a slot an element; any other leaf a slot. Counting the JSON's length instead let a full 64 MiB budget hold
// about 130 MiB of heap in the hostile bench (two-byte markdown). Walked with its own stack, so any depth is safe,
// and without writing anything. It stops past `limit` (nothing over it is kept), which also ends the walk of a
// value that holds itself.
const wide = /[^\x00-\xff]/

const heapBytes = (value: unknown, limit: number): number => {
  let size = 0
  const stack: Array<unknown> = [value]
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop()
    if (typeof item === "string") size += 16 + (wide.test(item) ? 2 : 1) * item.length
    else if (Array.isArray(item)) {
      size += 48 + 8 * item.length
      for (const element of item) stack.push(element)
    } else if (typeof item === "object" && item !== null) {
      size += 24
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue
        size += 8
        stack.push((item as Record<string, unknown>)[key])
      }
    } else size += 8
  }
  return size
}

/** The map's own cost of an entry beside its key and value: the map slot and the entry record. */
const entryOverhead = 64

/**
 * What an entry counts against the byte budget: its key, its value and the map's bookkeeping, at about their cost in
 * V8's heap. Past `limit` the count may stop early (it is then over `limit`).
 */
export const entryBytes = (key: string, value: unknown, limit = Number.POSITIVE_INFINITY): number =>
  entryOverhead + heapBytes(key, limit) + heapBytes(value, limit)

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
    const bytes = entryBytes(key, value, maxBytes)
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
