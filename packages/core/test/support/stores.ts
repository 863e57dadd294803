/**
 * In-process stores for the cache and quota hooks, so core tests exercise `ResultCache.make` and
 * `ProviderQuota.make` without a node dependency. They follow the TestClock, JSON-round-trip cache values (as a
 * shared store would) and expose what they hold; a failing variant of each proves store outages are survived.
 * The real stores (memory and Redis, on @effect/experimental) are tested in @websearch/node.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ProviderQuota from "../../src/ProviderQuota.js"
import * as ResultCache from "../../src/ResultCache.js"

/** A cache store and its contents (JSON text and expiry, epoch milliseconds). */
export interface CacheStore extends ResultCache.Store {
  readonly entries: Map<string, { readonly json: string; readonly expires: number }>
  readonly operations: Array<"get" | "set">
}

export const cacheStore = (): CacheStore => {
  const entries = new Map<string, { readonly json: string; readonly expires: number }>()
  const operations: Array<"get" | "set"> = []
  return {
    entries,
    operations,
    get: (key) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        operations.push("get")
        const entry = entries.get(key)
        if (entry === undefined || entry.expires <= now) return Option.none()
        return Option.some(JSON.parse(entry.json) as unknown)
      }),
    set: (key, value, ttl) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        operations.push("set")
        entries.set(key, { json: JSON.stringify(value), expires: now + Duration.toMillis(ttl) })
      })
  }
}

/** A cache store whose every operation fails (an unreachable Redis). */
export const failingCacheStore: ResultCache.Store = {
  get: () => Effect.fail(new ResultCache.StoreError({ message: "connection refused" })),
  set: () => Effect.fail(new ResultCache.StoreError({ message: "connection refused" }))
}

/**
 * The library's own memory store, seen as an external store is (no synchronous fast path): the tests exercise the
 * token bucket that ships, not a copy of it.
 */
export const quotaStore = (): ProviderQuota.Store => {
  const { synchronous: _, ...store } = ProviderQuota.memoryStore()
  return store
}

/** A quota store whose every operation fails. */
export const failingQuotaStore: ProviderQuota.Store = {
  consume: () => Effect.fail(new ProviderQuota.StoreError({ message: "connection refused" })),
  holdOffUntil: () => Effect.fail(new ProviderQuota.StoreError({ message: "connection refused" })),
  setHoldOff: () => Effect.fail(new ProviderQuota.StoreError({ message: "connection refused" }))
}
