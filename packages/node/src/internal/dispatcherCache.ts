/**
 * One undici dispatcher per proxy, created on first use and kept for the proxies used most recently: a bounded
 * number, because per-call proxies come from settings and stored instances, which users add. An evicted
 * dispatcher is closed gracefully (its requests in flight finish first); `destroyAll` ends every one.
 */
import type { Dispatcher } from "undici"

/** The default number of proxy dispatchers kept open at once. */
export const defaultMaxProxies = 16

export interface DispatcherCache<D extends Dispatcher> {
  /** The dispatcher for `key`, made by `create` when there is none. */
  readonly get: (key: string, create: () => D) => D
  readonly size: () => number
  readonly destroyAll: () => Promise<void>
}

export const make = <D extends Dispatcher>(max: number = defaultMaxProxies): DispatcherCache<D> => {
  const limit = Number.isFinite(max) && max >= 1 ? Math.floor(max) : defaultMaxProxies
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, D>()
  return {
    get: (key, create) => {
      const found = entries.get(key)
      if (found !== undefined) {
        entries.delete(key)
        entries.set(key, found)
        return found
      }
      const made = create()
      entries.set(key, made)
      while (entries.size > limit) {
        const [oldestKey, oldest] = entries.entries().next().value as [string, D]
        entries.delete(oldestKey)
        oldest.close().catch(() => undefined)
      }
      return made
    },
    size: () => entries.size,
    destroyAll: async () => {
      const all = [...entries.values()]
      entries.clear()
      await Promise.all(all.map((dispatcher) => dispatcher.destroy().catch(() => undefined)))
    }
  }
}
