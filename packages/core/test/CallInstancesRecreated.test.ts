import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as ProviderInstance from "../src/ProviderInstance.js"
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as ProviderStore from "../src/ProviderStore.js"
import * as Drivers from "./support/drivers.js"
import * as Echo from "./support/echo.js"

const keyOf = (found: ProviderRegistry.ProviderRegistry.Found) =>
  Option.getOrUndefined(Option.map(Option.fromNullable(found.provider.apiKeys[0]), Redacted.value))

describe("CallInstances, re-created", () => {
  it.effect("an instance deleted and re-created in the same millisecond is resolved with its new keys", () => {
    const echo = Echo.makeEcho()
    return Effect.gen(function* () {
      const registry = yield* ProviderRegistry.ProviderRegistry
      // The memory store under the test clock: every instance is created at 0 and starts at revision 1.
      const store = yield* ProviderStore.memory
      yield* store.create("acme", {
        id: "prod",
        type: "echo",
        settings: {},
        credentials: { apiKeys: [Redacted.make("old-key")] }
      })
      const first = yield* store.list("acme")
      const before = Either.getOrThrow(registry.find("prod", { workspace: "acme", instances: first }))
      expect(keyOf(before)).toBe("old-key")
      yield* store.remove("acme", "prod")
      yield* store.create("acme", {
        id: "prod",
        type: "echo",
        settings: {},
        credentials: { apiKeys: [Redacted.make("new-key")] }
      })
      const second = yield* store.list("acme")
      expect(second[0]?.revision).toBe(first[0]?.revision)
      expect(DateTime.toEpochMillis(second[0]!.createdAt)).toBe(DateTime.toEpochMillis(first[0]!.createdAt))
      const after = Either.getOrThrow(registry.find("prod", { workspace: "acme", instances: second }))
      expect(keyOf(after)).toBe("new-key")
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })

  it.effect("a re-created instance of a type it cannot use fails, though its old self resolved", () => {
    const echo = Echo.makeEcho()
    const at = DateTime.unsafeMake(0)
    const instance = (type: string): ProviderInstance.ProviderInstance => ({
      workspace: "acme",
      id: "prod",
      type,
      settings: {},
      credentials: { apiKeys: [Redacted.make("k")] },
      revision: 1,
      createdAt: at,
      updatedAt: at
    })
    return Effect.gen(function* () {
      const registry = yield* ProviderRegistry.ProviderRegistry
      expect(Either.isRight(registry.find("prod", { workspace: "acme", instances: [instance("echo")] }))).toBe(true)
      const again = registry.find("prod", { workspace: "acme", instances: [instance("gone")] })
      expect(Either.isLeft(again)).toBe(true)
      if (Either.isLeft(again)) expect(again.left.message).toContain('type: no composed provider "gone"')
    }).pipe(Effect.provide(Drivers.layer([echo.driver])))
  })
})
