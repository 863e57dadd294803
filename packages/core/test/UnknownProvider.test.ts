import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as ProviderInstance from "../src/ProviderInstance.js"
import * as ProviderRegistry from "../src/ProviderRegistry.js"
import * as Drivers from "./support/drivers.js"
import * as Echo from "./support/echo.js"

const at = DateTime.unsafeMake(0)

const instance = (id: string): ProviderInstance.ProviderInstance => ({
  workspace: "acme",
  id,
  type: "echo",
  settings: {},
  credentials: {},
  revision: 1,
  createdAt: at,
  updatedAt: at
})

describe("unknown provider", () => {
  it.effect(
    "a workspace of thousands of instances gives a bounded message naming the first and counting the rest",
    () =>
      Effect.gen(function* () {
        const registry = yield* ProviderRegistry.ProviderRegistry
        const instances = Array.from({ length: 5000 }, (_, i) => instance(`instance-${i}`))
        const found = registry.find("missing", { workspace: "acme", instances })
        expect(Either.isLeft(found)).toBe(true)
        if (Either.isRight(found)) return
        expect(found.left.reason).toBe("unknown_provider")
        expect(found.left.message).toContain('unknown provider "missing"')
        expect(found.left.message).toContain("echo, instance-0, instance-1")
        expect(found.left.message).toContain("and 4961 more")
        expect(found.left.message.length).toBeLessThan(1000)
      }).pipe(Effect.provide(Drivers.layer([Echo.makeEcho().driver])))
  )

  it("a short list is named whole", () => {
    expect(ProviderRegistry.unknownProvider("x", ["a", "b"]).message).toContain("(composed: a, b)")
    expect(ProviderRegistry.unknownProvider("x", []).message).toContain("(composed: none)")
  })
})
