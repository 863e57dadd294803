import { describe, expect, it } from "@effect/vitest"
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import * as PersistentCache from "../src/internal/persistentCache.js"

describe("the CLI's persistent cache store", () => {
  it.effect("an entry past its time is a miss and its file is removed; a live one is served", () =>
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      let now = 1_000
      const store = PersistentCache.store(kv, () => now)
      yield* store.set("old", { a: 1 }, Duration.millis(10))
      yield* store.set("fresh", { b: 2 }, Duration.hours(1))
      now += 60_000
      expect(yield* store.get("old")).toEqual(Option.none())
      expect(yield* store.get("fresh")).toEqual(Option.some({ b: 2 }))
      // One file left: the expired entry went when it was read.
      expect(yield* kv.size).toBe(1)
    }).pipe(Effect.provide(KeyValueStore.layerMemory))
  )

  it.effect("an unreadable entry (half-written, foreign) is a miss and goes too", () =>
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      const store = PersistentCache.store(kv)
      yield* store.set("k", { c: 3 }, Duration.hours(1))
      // Overwrite the entry's file (named by the key's SHA-256) with text that is not an entry.
      yield* kv.set(createHash("sha256").update("k").digest("hex"), "{not json")
      expect(yield* store.get("k")).toEqual(Option.none())
      expect(yield* kv.size).toBe(0)
    }).pipe(Effect.provide(KeyValueStore.layerMemory))
  )
})
