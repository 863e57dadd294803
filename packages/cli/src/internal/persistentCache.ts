/**
 * The command line's persistent result cache: opt-in with `"cache": { "persistent": true }` in the settings, kept
 * in `$XDG_CACHE_HOME/websearch` (`~/.cache/websearch`) through `@effect/platform`'s file-system `KeyValueStore`,
 * one file per entry named by the SHA-256 of its key. What is kept and for how long are the core `ResultCache`
 * rules (the settings' `cache` TTLs); `--no-cache` bypasses it for one run. An entry past its time, unreadable or
 * written by another version is a miss, and its file is removed when read, so expired pages do not pile up. The
 * directory is made private to its user (0700): entries hold fetched pages and the URLs asked for.
 *
 * @since 0.2.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as ResultCache from "@websearch/core/ResultCache"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import { homedir } from "node:os"
import { join } from "node:path"

/**
 * The cache directory: `$XDG_CACHE_HOME/websearch`, else `~/.cache/websearch`.
 *
 * @since 0.2.0
 * @category utils
 */
export const directory = (env: Readonly<Record<string, string | undefined>>): string => {
  const xdg = env.XDG_CACHE_HOME
  // The XDG base directory rule: a relative value is ignored.
  return join(xdg !== undefined && xdg.startsWith("/") ? xdg : join(env.HOME ?? homedir(), ".cache"), "websearch")
}

// A key holds the input (a URL up to 8 KiB): its digest makes a file name of fixed length and alphabet.
const fileKey = (key: string): string => createHash("sha256").update(key).digest("hex")

const storeError = (message: string) => (cause: unknown) => new ResultCache.StoreError({ message, cause })

const live = (text: string, at: number): Option.Option<unknown> => {
  try {
    const entry = JSON.parse(text) as { readonly expiresAt?: unknown; readonly value?: unknown }
    return typeof entry.expiresAt === "number" && entry.expiresAt > at ? Option.some(entry.value) : Option.none()
  } catch {
    return Option.none()
  }
}

/**
 * A result cache store over a key-value store, with each entry's expiry kept beside its value.
 *
 * @since 0.2.0
 * @category constructors
 */
export const store = (kv: KeyValueStore.KeyValueStore, now: () => number = Date.now): ResultCache.Store => ({
  get: (key) =>
    kv.get(fileKey(key)).pipe(
      Effect.mapError(storeError("cannot read the cache entry")),
      Effect.flatMap((found): Effect.Effect<Option.Option<unknown>, ResultCache.StoreError> => {
        if (Option.isNone(found)) return Effect.succeedNone
        const value = live(found.value, now())
        // Past its time or unreadable (half-written, foreign): a miss, and the file goes.
        return Option.isSome(value)
          ? Effect.succeed<Option.Option<unknown>>(value)
          : kv
              .remove(fileKey(key))
              .pipe(Effect.mapError(storeError("cannot remove the expired cache entry")), Effect.as(Option.none()))
      })
    ),
  set: (key, value, timeToLive) =>
    kv
      .set(fileKey(key), JSON.stringify({ expiresAt: now() + Duration.toMillis(timeToLive), value }))
      .pipe(Effect.mapError(storeError("cannot write the cache entry")))
})

/**
 * The cache service over the directory, as `ResultCache.make` builds it.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (dir: string): Effect.Effect<ResultCache.ResultCache.Service> =>
  Effect.gen(function* () {
    // Private to its user before anything is written in it, also when it existed already.
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(dir, { recursive: true, mode: 0o700 })
    yield* fs.chmod(dir, 0o700)
    const kv = yield* KeyValueStore.KeyValueStore
    return yield* ResultCache.make(store(kv))
  }).pipe(
    Effect.provide(
      KeyValueStore.layerFileSystem(dir).pipe(Layer.provideMerge(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)))
    ),
    // A directory that cannot be made is a cache that never answers, not a failed command.
    Effect.catchAll((error) =>
      Effect.logWarning(`websearch cache disabled: ${error.message}`).pipe(
        Effect.zipRight(ResultCache.make({ get: () => Effect.succeedNone, set: () => Effect.void }))
      )
    )
  )
