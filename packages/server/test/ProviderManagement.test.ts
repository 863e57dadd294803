/**
 * The provider-management routes over real HTTP on 127.0.0.1, with the in-memory `ProviderStore`: every route as
 * the workspace's admin, workspace scoping (another workspace is 404 whether or not it exists, a member token is
 * 403, an unknown token 401), bodies refused naming the field, a server without a store (503 naming what to set,
 * searches as before), and no canary credential in any response body, header or log line.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Management from "./support/management.js"
import * as Support from "./support/server.js"

const canary = "sk-canary-instance-5d1e9b27c4"
const canaryRotated = "sk-canary-rotated-83f0a6d2e9"
const canaryPassword = "pw-canary-instance-4c7b1e"

const services = () => {
  const tavily = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
  return Support.live([tavily.driver], {
    defaults: { searchKeywords: "tavily" },
    providers: { tavily: { apiKeys: ["composed-key-0123"] } }
  })
}

const instances = (workspace: string) => `/v1/workspaces/${workspace}/providers`

// A server with a store the test can also read directly.
const serve = Effect.gen(function* () {
  const store = yield* ProviderStore.memory
  const base = yield* Management.start(services(), Layer.succeed(ProviderStore.ProviderStore, store))
  return { store, ...Management.client(base) }
})

describe("provider management over HTTP", () => {
  it.scoped("every route, as the workspace's admin; credentials are write-only", () => {
    const logs = Management.capturedLogs()
    return Effect.gen(function* () {
      const { call, seen, store } = yield* serve
      const admin = Management.tokens.acmeAdmin
      const types = yield* call("GET", "/v1/provider-types", admin)
      expect(types.status).toBe(200)
      expect(types.json).toEqual([
        expect.objectContaining({
          id: "tavily",
          name: "Tavily",
          credentials: "required",
          capabilities: expect.arrayContaining([expect.objectContaining({ feature: "searchKeywords" })])
        })
      ])

      expect((yield* call("GET", instances("acme"), admin)).json).toEqual([])
      const created = yield* call("POST", instances("acme"), admin, {
        id: "acme-tavily",
        type: "tavily",
        name: "Acme's Tavily",
        settings: {
          basicAuthUsername: "acme",
          proxyUrl: "http://proxy.example",
          capabilities: { searchKeywords: { apiHost: `https://tavily.example/?api_key=${canaryPassword}` } }
        },
        credentials: { apiKeys: [canary], basicAuthPassword: canaryPassword }
      })
      expect(created.status).toBe(201)
      expect(created.json).toMatchObject({
        workspace: "acme",
        id: "acme-tavily",
        type: "tavily",
        name: "Acme's Tavily",
        credentials: { apiKeys: 1, basicAuthPassword: true },
        revision: 1
      })
      // A credential in an endpoint's query is shown as a placeholder.
      expect(created.json).toMatchObject({
        settings: {
          proxyUrl: "http://proxy.example",
          capabilities: { searchKeywords: { apiHost: "https://tavily.example/?api_key=%5Bredacted%5D" } }
        }
      })
      expect((yield* call("POST", instances("acme"), admin, { id: "acme-tavily", type: "tavily" })).status).toBe(409)

      const listed = yield* call("GET", instances("acme"), admin)
      expect(listed.status).toBe(200)
      expect((listed.json as Array<{ id: string }>).map((instance) => instance.id)).toEqual(["acme-tavily"])
      const read = yield* call("GET", `${instances("acme")}/acme-tavily`, admin)
      expect(read.status).toBe(200)
      expect(read.json).toEqual(created.json)

      const updated = yield* call("PATCH", `${instances("acme")}/acme-tavily`, admin, {
        name: "Acme's Tavily (EU)",
        revision: 1
      })
      expect(updated.status).toBe(200)
      expect(updated.json).toMatchObject({ name: "Acme's Tavily (EU)", revision: 2 })
      const stale = yield* call("PATCH", `${instances("acme")}/acme-tavily`, admin, { name: "late", revision: 1 })
      expect(stale.status).toBe(409)
      expect(stale.json).toMatchObject({ _tag: "RequestFailed", reason: "conflict" })

      const rotated = yield* call("PUT", `${instances("acme")}/acme-tavily/credentials`, admin, {
        apiKeys: [canaryRotated, canary],
        basicAuthPassword: canaryPassword
      })
      expect(rotated.status).toBe(200)
      expect(rotated.json).toMatchObject({ credentials: { apiKeys: 2, basicAuthPassword: true }, revision: 3 })
      // Credentials are judged with the instance's settings: its basic-auth user name needs a password.
      const unpaired = yield* call("PUT", `${instances("acme")}/acme-tavily/credentials`, admin, { apiKeys: [canary] })
      expect(unpaired.status).toBe(400)
      expect(unpaired.text).toContain("settings.basicAuthUsername")
      // The store has the keys the route was given, whole.
      const stored = yield* store.get("acme", "acme-tavily")
      expect(stored._tag === "Some" && stored.value.credentials.apiKeys?.map(Redacted.value)).toEqual([
        canaryRotated,
        canary
      ])

      // The test runs each capability of the instance, with the instance's own configuration.
      const tested = yield* call("POST", `${instances("acme")}/acme-tavily/test`, admin)
      expect(tested.status).toBe(200)
      expect(tested.json).toMatchObject({
        providerId: "acme-tavily",
        capabilities: expect.arrayContaining([
          { capability: "searchKeywords", ok: true, results: 2, durationMs: expect.any(Number) }
        ])
      })

      expect((yield* call("DELETE", `${instances("acme")}/acme-tavily`, admin)).status).toBe(204)
      const gone = yield* call("GET", `${instances("acme")}/acme-tavily`, admin)
      expect(gone.status).toBe(404)
      expect(gone.json).toMatchObject({ _tag: "RequestFailed", reason: "not_found" })
      expect((yield* call("DELETE", `${instances("acme")}/acme-tavily`, admin)).status).toBe(404)
      expect((yield* call("PUT", `${instances("acme")}/acme-tavily/credentials`, admin, {})).status).toBe(404)
      expect((yield* call("POST", `${instances("acme")}/acme-tavily/test`, admin)).status).toBe(404)

      // The request log ran (so there was something to leak into) and nothing leaked anywhere.
      expect(logs.lines.length).toBeGreaterThan(0)
      const everything = [...seen, ...logs.lines].join("\n")
      for (const secret of [canary, canaryRotated, canaryPassword, admin]) {
        expect(everything.includes(secret)).toBe(false)
      }
    }).pipe(Effect.provide(logs.layer))
  })

  it.scoped("a token reaches only its own workspace: another is 404 whether or not it exists", () =>
    Effect.gen(function* () {
      const { call, store } = yield* serve
      const { acmeAdmin, acmeMember, betaAdmin, plain } = Management.tokens
      yield* store.create(
        "beta",
        ProviderStore.CreateInstance.make({ id: "beta-tavily", type: "tavily", settings: {}, credentials: {} })
      )
      const beta = `${instances("beta")}/beta-tavily`
      // acme's admin probing beta (which has an instance) and gamma (which has nothing) gets the same answers.
      const probes = (workspace: string, id: string) =>
        [
          ["GET", instances(workspace), undefined],
          ["POST", instances(workspace), { id: "mine", type: "tavily" }],
          ["GET", `${instances(workspace)}/${id}`, undefined],
          ["PATCH", `${instances(workspace)}/${id}`, { name: "taken" }],
          ["DELETE", `${instances(workspace)}/${id}`, undefined],
          ["PUT", `${instances(workspace)}/${id}/credentials`, { apiKeys: [canary] }],
          ["POST", `${instances(workspace)}/${id}/test`, undefined]
        ] as const
      const answers = (token: string, workspace: string, id: string) =>
        Effect.forEach(probes(workspace, id), ([method, path, body]) =>
          Effect.map(call(method, path, token, body), (answer) => ({
            status: answer.status,
            body: answer.text.replaceAll(workspace, "WORKSPACE")
          }))
        )
      const onBeta = yield* answers(acmeAdmin, "beta", "beta-tavily")
      expect(onBeta.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404, 404])
      expect(yield* answers(acmeAdmin, "gamma", "beta-tavily")).toEqual(onBeta)
      // A member of acme is no better off on beta, and an id or workspace that cannot exist answers alike.
      expect(yield* answers(acmeMember, "beta", "beta-tavily")).toEqual(onBeta)
      expect((yield* answers(acmeAdmin, "Not_A_Workspace", "beta-tavily")).map((a) => a.status)).toEqual(
        onBeta.map((a) => a.status)
      )
      // beta's instance is untouched by all of it.
      const kept = yield* store.get("beta", "beta-tavily")
      expect(kept._tag === "Some" && kept.value.revision).toBe(1)
      expect((yield* call("GET", beta, betaAdmin)).status).toBe(200)

      // In its own workspace a member token may not manage: 403 on every route.
      const member = yield* answers(acmeMember, "acme", "any")
      expect(member.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 403, 403])
      expect(JSON.parse(member[0]!.body)).toMatchObject({ _tag: "Forbidden" })
      // A plain token is a member of `default`.
      expect((yield* call("GET", instances("default"), plain)).status).toBe(403)
      expect((yield* call("GET", instances("acme"), plain)).status).toBe(404)
      // Without a known token nothing is said at all; the catalogue needs a token too.
      expect((yield* call("GET", instances("acme"), "unknown-token-0123456789abc")).status).toBe(401)
      expect((yield* call("GET", instances("acme"), undefined)).status).toBe(401)
      expect((yield* call("GET", "/v1/provider-types", undefined)).status).toBe(401)
      expect((yield* call("GET", "/v1/provider-types", acmeMember)).status).toBe(200)
    })
  )

  it.scoped("bad bodies are refused naming the field, never quoting a key", () =>
    Effect.gen(function* () {
      const { call, seen } = yield* serve
      const admin = Management.tokens.acmeAdmin
      const refused = (method: string, path: string, body: unknown) =>
        Effect.map(call(method, path, admin, body), (answer) => {
          expect(answer.status).toBe(400)
          expect(answer.json).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
          return (answer.json as { message: string }).message
        })
      expect(yield* refused("POST", instances("acme"), { id: "x1", type: "nosuch" })).toContain(
        'type: no composed provider "nosuch" (composed: tavily)'
      )
      expect(yield* refused("POST", instances("acme"), { id: "tavily", type: "tavily" })).toContain("id:")
      expect(yield* refused("POST", instances("acme"), { id: "Bad Id", type: "tavily" })).toContain("id:")
      expect(
        yield* refused("POST", instances("acme"), { id: "x2", type: "tavily", settings: { options: { nope: 1 } } })
      ).toContain("options.nope")
      // A proxy URL may carry its credentials (a corporate proxy's); they are kept, and the view never shows them.
      const proxied = yield* call("POST", instances("acme"), admin, {
        id: "x5",
        type: "tavily",
        settings: { proxyUrl: `http://user:${canary}@proxy.example:3128` }
      })
      expect(proxied.status).toBe(201)
      expect(proxied.json).toMatchObject({ settings: { proxyUrl: "http://proxy.example:3128" } })
      expect(JSON.stringify(proxied.json)).not.toContain(canary)
      expect(JSON.stringify(proxied.json)).not.toContain("user:")
      expect(yield* refused("POST", instances("acme"), { id: "x3", type: "tavily", colour: "red" })).toContain("colour")
      expect(
        yield* refused("POST", instances("acme"), {
          id: "x4",
          type: "tavily",
          credentials: { apiKeys: [`${canary}\r\nX-Evil: 1`] }
        })
      ).toContain("credentials.apiKeys[0]")
      expect((yield* call("POST", instances("acme"), admin, { id: "ok-1", type: "tavily" })).status).toBe(201)
      expect(
        yield* refused("PUT", `${instances("acme")}/ok-1/credentials`, { apiKeys: [`${canary}\u0000`] })
      ).toContain("apiKeys[0]")
      expect(yield* refused("PUT", `${instances("acme")}/ok-1/credentials`, { apiKey: canary })).toContain("apiKey")
      expect(yield* refused("PATCH", `${instances("acme")}/ok-1`, { revision: 0 })).toContain("revision")
      expect(yield* refused("PATCH", `${instances("acme")}/ok-1`, "{not json")).toContain("JSON")
      expect(yield* refused("PATCH", `${instances("acme")}/ok-1`, [1])).toContain("JSON object")
      const large = yield* call("PUT", `${instances("acme")}/ok-1/credentials`, admin, {
        apiKeys: Array.from({ length: 64 }, () => canary.repeat(40))
      })
      expect(large.status).toBe(413)
      expect(seen.join("\n").includes(canary)).toBe(false)
    })
  )

  it.scoped("without a store the management routes answer 503 naming what to set; search works as before", () =>
    Effect.gen(function* () {
      const { call } = Management.client(yield* Management.start(services(), undefined))
      const admin = Management.tokens.acmeAdmin
      for (const [method, path] of [
        ["GET", instances("acme")],
        ["POST", instances("acme")],
        ["GET", `${instances("acme")}/one`],
        ["POST", `${instances("acme")}/one/test`]
      ] as const) {
        const answer = yield* call(method, path, admin, method === "POST" ? {} : undefined)
        expect(answer.status).toBe(503)
        expect(answer.json).toMatchObject({ _tag: "Unavailable", reason: "store_unavailable" })
        expect((answer.json as { message: string }).message).toContain("WEBSEARCH_PROVIDER_STORE_KEY")
      }
      // Scoping is still checked first: nothing about the store is said to another workspace's token.
      expect((yield* call("GET", instances("beta"), admin)).status).toBe(404)
      expect((yield* call("GET", "/v1/provider-types", admin)).status).toBe(200)
      const searched = yield* call("POST", "/v1/search", admin, { keywords: ["plain"] })
      expect(searched.status).toBe(200)
      expect(searched.json).toMatchObject({ providerId: "tavily" })
    })
  )
})
