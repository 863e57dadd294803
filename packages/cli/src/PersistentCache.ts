/**
 * The command line's persistent result cache: opt-in with `"cache": { "persistent": true }` in the settings, kept
 * in `$XDG_CACHE_HOME/websearch` (`~/.cache/websearch`) through `@effect/platform`'s file-system `KeyValueStore`,
 * one file per entry named by the SHA-256 of its key. What is kept and for how long are the core `ResultCache`
 * rules (the settings' `cache` TTLs); `--no-cache` bypasses it for one run. An entry past its time, unreadable or
 * written by another version is a miss.
 *
 * @since 0.2.0
 */
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
      Effect.map(
        Option.flatMap((text) => {
          try {
            const entry = JSON.parse(text) as { readonly expiresAt?: unknown; readonly value?: unknown }
            return typeof entry.expiresAt === "number" && entry.expiresAt > now()
              ? Option.some(entry.value)
              : Option.none()
          } catch {
            // A half-written or foreign file: a miss, overwritten after the call.
            return Option.none()
          }
        })
      )
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
    const kv = yield* KeyValueStore.KeyValueStore
    return yield* ResultCache.make(store(kv))
  }).pipe(
    Effect.provide(KeyValueStore.layerFileSystem(dir).pipe(Layer.provide([NodeFileSystem.layer, NodePath.layer]))),
    // A directory that cannot be made is a cache that never answers, not a failed command.
    Effect.catchAll((error) =>
      Effect.logWarning(`websearch cache disabled: ${error.message}`).pipe(
        Effect.zipRight(ResultCache.make({ get: () => Effect.succeedNone, set: () => Effect.void }))
      )
    )
  )
