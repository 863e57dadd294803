/**
 * Tokens scoped to a workspace, with a role: the `TOKEN@WORKSPACE:ROLE` form (env and code), `TokenGrant`
 * objects, plain tokens as members of `default`, refused scopes that never quote the token, and the match that
 * finds a token's scope while still comparing every digest.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Authorization from "../src/internal/authorization.js"
import * as ServerConfig from "../src/ServerConfig.js"

const tokenArb = FastCheck.string({
  minLength: 16,
  maxLength: 40,
  unit: FastCheck.constantFrom("a", "Z", "9", "-", "_", ".", "~", ":")
})
const workspaceArb = FastCheck.stringMatching(/^[a-z0-9][a-z0-9_-]{0,20}$/)
const roleArb = FastCheck.constantFrom(undefined, "admin" as const, "member" as const)

const scopeOf = (config: ServerConfig.ServerConfig.Service, token: string) =>
  config.tokenScopes[Authorization.matchIndex(ServerConfig.digest(token), config.tokenDigests)]

describe("workspace tokens", () => {
  it.effect.prop(
    "TOKEN@WORKSPACE[:ROLE] and a TokenGrant give the token that workspace and role; a plain token is a member of default",
    [tokenArb, workspaceArb, roleArb],
    ([token, workspace, role]) =>
      Effect.gen(function* () {
        const written = role === undefined ? `${token}@${workspace}` : `${token}@${workspace}:${role}`
        for (const entry of [written, { token, workspace, role }]) {
          const config = yield* ServerConfig.make({ tokens: [entry] })
          expect(scopeOf(config, token)).toEqual({ workspace, admin: role === "admin" })
        }
        const plain = yield* ServerConfig.make({ tokens: [token] })
        expect(scopeOf(plain, token)).toEqual({ workspace: "default", admin: false })
      })
  )

  it.effect.prop(
    "a malformed scope is refused at start, naming the entry, never quoting the token",
    [
      tokenArb,
      FastCheck.constantFrom("", "Acme", "acme:owner", "acme:", ":admin", "-acme", "a".repeat(65), "acme@beta", "é")
    ],
    ([token, scope]) =>
      Effect.gen(function* () {
        const exit = yield* Effect.exit(
          ServerConfig.make({ tokens: ["ok-token-0123456789abcdef", `${token}@${scope}`] })
        )
        expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { reason: "invalid_config" } } })
        const text = JSON.stringify(exit)
        expect(text).toContain("API token 2")
        expect(text).not.toContain(token)
      })
  )

  it.prop(
    "matchIndex finds the (last) accepted digest equal to the candidate, or -1",
    [FastCheck.string({ maxLength: 8 }), FastCheck.array(FastCheck.string({ maxLength: 8 }), { maxLength: 6 })],
    ([candidate, accepted]) => {
      expect(Authorization.matchIndex(ServerConfig.digest(candidate), accepted.map(ServerConfig.digest))).toBe(
        accepted.lastIndexOf(candidate)
      )
    }
  )

  it.effect("WEBSEARCH_API_TOKENS entries carry their scopes; one token with two scopes is refused", () =>
    Effect.gen(function* () {
      const read = (value: string) =>
        Effect.flatMap(ServerConfig.fromConfig(), ServerConfig.make).pipe(
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["WEBSEARCH_API_TOKENS", value]])))
        )
      const config = yield* read(
        "acme-admin-0123456789ab@acme:admin, plain-token-0123456789ab ,beta-0123456789abcd@beta"
      )
      expect(scopeOf(config, "acme-admin-0123456789ab")).toEqual({ workspace: "acme", admin: true })
      expect(scopeOf(config, "plain-token-0123456789ab")).toEqual({ workspace: "default", admin: false })
      expect(scopeOf(config, "beta-0123456789abcd")).toEqual({ workspace: "beta", admin: false })
      // The same token twice with one scope is harmless; with two it would be ambiguous.
      expect(Exit.isSuccess(yield* Effect.exit(read("same-token-0123456789@acme,same-token-0123456789@acme")))).toBe(
        true
      )
      const twice = yield* Effect.exit(read("same-token-0123456789@acme,same-token-0123456789@acme:admin"))
      expect(twice).toMatchObject({ _tag: "Failure", cause: { error: { reason: "invalid_config" } } })
      expect(JSON.stringify(twice)).not.toContain("same-token-0123456789")
    })
  )
})
