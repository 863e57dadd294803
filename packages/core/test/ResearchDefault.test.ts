/**
 * `Research.defaultProvider`: whether a research request that names no provider can run, decided as that request
 * decides it (before any call), so a surface can offer research only then. Each case is checked against what the
 * request itself then meets.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Research from "../src/Research.js"
import type * as Settings from "../src/Settings.js"
import * as Drivers from "./support/drivers.js"

const openai = () => Drivers.makeDriver("openai", { research: Drivers.succeed() })

const cases: ReadonlyArray<readonly [string, Settings.SettingsInput, string | undefined]> = [
  ["no default", { providers: { openai: { apiKeys: ["sk-test-key-123456"] } } }, "no_default_provider"],
  ["the default without its key", { defaults: { research: "openai" } }, "missing_credentials"],
  [
    "the default with its key",
    { defaults: { research: "openai" }, providers: { openai: { apiKeys: ["sk-1"] } } },
    undefined
  ]
]

describe("Research.defaultProvider", () => {
  for (const [name, settings, reason] of cases) {
    it.effect(`${name}: ${reason ?? "openai"}, as the request without providerId finds`, () => {
      const driver = openai()
      return Effect.gen(function* () {
        const offered = yield* Effect.either(Research.defaultProvider)
        const asked = yield* Effect.either(Research.research({ query: "what is effect" }))
        if (reason === undefined) {
          expect(Either.getOrUndefined(offered)).toBe("openai")
          expect(asked._tag).toBe("Right")
        } else {
          expect(offered._tag === "Left" && offered.left.reason).toBe(reason)
          expect(asked._tag === "Left" && asked.left.reason).toBe(reason)
        }
        // Deciding called nothing; only the request itself did, when it could run.
        expect(driver.recorder.calls.length).toBe(reason === undefined ? 1 : 0)
      }).pipe(Effect.provide(Drivers.layer([driver], settings)))
    })
  }
})
