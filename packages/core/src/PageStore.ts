/**
 * Where fetched pages wait to be read on: the `fetchUrls` pipeline keeps each page it fetched here (when no
 * result cache serves `fetchUrls`), and a request with a `startIndex` past 0 is served from it, so reading a long
 * page in pages costs one fetch. One store per application (built with `FetchUrls`), in memory, bounded in
 * entries and in bytes, least recently used first out, each entry for a limited time.
 *
 * A hand-written LRU over a `Map` rather than `effect/Cache`: that cache computes values through its lookup
 * function and bounds entries only, where this store is written by the pipeline and must bound bytes too.
 *
 * @since 0.2.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { DriverResult } from "./ProviderDriver.js"

/**
 * The page store service.
 *
 * @since 0.2.0
 * @category services
 */
export class PageStore extends Context.Tag("@websearch/core/PageStore")<PageStore, PageStore.Service>() {}

/**
 * @since 0.2.0
 * @category models
 */
export declare namespace PageStore {
  /**
   * @since 0.2.0
   * @category models
   */
  export interface Service {
    /** The results kept under a key, if still there; a hit makes the entry the most recently used. */
    readonly get: (key: string) => Effect.Effect<Option.Option<ReadonlyArray<DriverResult>>>
    /** Keeps results under a key, replacing what was there, evicting the least recently used beyond the bounds. */
    readonly set: (key: string, results: ReadonlyArray<DriverResult>) => Effect.Effect<void>
    /** The entries and estimated bytes held now. */
    readonly size: () => { readonly entries: number; readonly bytes: number }
  }
}

/**
 * Bounds of a store.
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /** Most pages kept. Default 64. */
  readonly maxEntries?: number | undefined
  /** Most bytes kept, estimated as two per UTF-16 code unit of the results' text. Default 32 MiB. */
  readonly maxBytes?: number | undefined
  /** How long a page is kept after it was fetched. Default 15 minutes. */
  readonly timeToLive?: Duration.DurationInput | undefined
}

/**
 * The default bounds.
 *
 * @since 0.2.0
 * @category constants
 */
export const defaults = { maxEntries: 64, maxBytes: 32 * 1024 * 1024, timeToLive: Duration.minutes(15) } as const

/**
 * The bytes an entry is counted as: two per code unit of its text, plus a little for the entry itself.
 */
const sizeOf = (results: ReadonlyArray<DriverResult>): number =>
  results.reduce(
    (sum, result) =>
      sum +
      64 +
      2 *
        (result.content.length +
          result.title.length +
          result.url.length +
          (result.author?.length ?? 0) +
          (result.siteName?.length ?? 0)),
    64
  )

interface Entry {
  readonly results: ReadonlyArray<DriverResult>
  readonly bytes: number
  readonly expires: number
}

/**
 * A fresh, empty store.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (options?: Options): Effect.Effect<PageStore.Service> =>
  Effect.sync(() => {
    const maxEntries = Math.max(0, Math.floor(options?.maxEntries ?? defaults.maxEntries))
    const maxBytes = Math.max(0, options?.maxBytes ?? defaults.maxBytes)
    const ttl = Duration.toMillis(Duration.decode(options?.timeToLive ?? defaults.timeToLive))
    // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
    const entries = new Map<string, Entry>()
    let bytes = 0
    const remove = (key: string) => {
      const entry = entries.get(key)
      if (entry === undefined) return
      entries.delete(key)
      bytes -= entry.bytes
    }
    return {
      get: (key) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const entry = entries.get(key)
          if (entry === undefined) return Option.none()
          remove(key)
          if (entry.expires <= now) return Option.none()
          entries.set(key, entry)
          bytes += entry.bytes
          return Option.some(entry.results)
        }),
      set: (key, results) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          remove(key)
          const size = sizeOf(results)
          // A page larger than the whole store is not kept: it would evict everything and still not fit.
          if (size > maxBytes || maxEntries === 0) return
          for (const [oldest, entry] of entries) {
            if (entries.size < maxEntries && bytes + size <= maxBytes && entry.expires > now) break
            remove(oldest)
          }
          entries.set(key, { results, bytes: size, expires: now + ttl })
          bytes += size
        }),
      size: () => ({ entries: entries.size, bytes })
    }
  })
