import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as ProviderStoreSql from "../src/ProviderStoreSql.js"

// A password with a '%' not followed by two hex digits: the URL parser keeps it as written, and decoding it throws.
const badlyEncoded = FastCheck.tuple(
  FastCheck.stringMatching(/^[A-Za-z0-9]{4,12}$/),
  FastCheck.constantFrom("%", "%z", "%4", "%g1")
).map(([text, tail]) => `canary${text}${tail}`)

describe("ProviderStoreSql url", () => {
  it.effect.prop(
    "a postgres:// URL whose password is not URL-encoded fails invalid_config naming the option, never dies",
    { password: badlyEncoded },
    ({ password }) =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(
          Effect.scoped(
            ProviderStoreSql.make({
              // Port 1 on loopback: nothing is dialled when the URL is refused first.
              url: `postgres://user:${password}@127.0.0.1:1/db`,
              encryptionKey: ProviderStoreSql.generateKey()
            })
          )
        )
        expect(Exit.isFailure(exit)).toBe(true)
        if (Exit.isSuccess(exit)) return
        const failure = Cause.failureOption(exit.cause)
        expect(Option.isSome(failure)).toBe(true)
        if (Option.isNone(failure)) return
        expect(failure.value).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
        expect(failure.value.message).toContain("url")
        expect(failure.value.message).not.toContain(password)
      }),
    { fastCheck: { numRuns: 20 } }
  )
})
