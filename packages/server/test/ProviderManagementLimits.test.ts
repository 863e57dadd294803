/**
 * The management API's bound on instances per workspace (`maxInstancesPerWorkspace`, over real HTTP on 127.0.0.1):
 * a create past it is 409 naming the setting, another workspace is not affected, and removing one frees a place.
 * Bad values of the setting fail the start naming it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ServerConfig from "../src/ServerConfig.js"
import * as Management from "./support/management.js"
import * as Support from "./support/server.js"

const services = () => {
  const tavily = Support.driver("tavily", { searchKeywords: (input) => Effect.succeed(Support.results(input)) })
  return Support.live([tavily.driver], { defaults: { searchKeywords: "tavily" } })
}

const instances = (workspace: string) => `/v1/workspaces/${workspace}/providers`

describe("instances per workspace", () => {
  it.scoped("a create past maxInstancesPerWorkspace is 409 naming it; other workspaces and a freed place are not", () =>
    Effect.gen(function* () {
      const store = yield* ProviderStore.memory
      const base = yield* Management.start(services(), Layer.succeed(ProviderStore.ProviderStore, store), {
        maxInstancesPerWorkspace: 2
      })
      const { call } = Management.client(base)
      const { acmeAdmin, betaAdmin } = Management.tokens
      const create = (token: string, workspace: string, id: string) =>
        Effect.map(call("POST", instances(workspace), token, { id, type: "tavily" }), (answer) => answer.status)
      expect(yield* create(acmeAdmin, "acme", "one")).toBe(201)
      expect(yield* create(acmeAdmin, "acme", "two")).toBe(201)
      const refused = yield* call("POST", instances("acme"), acmeAdmin, { id: "three", type: "tavily" })
      expect(refused.status).toBe(409)
      expect(refused.json).toMatchObject({ _tag: "RequestFailed", reason: "conflict" })
      expect(refused.text).toContain("maxInstancesPerWorkspace")
      expect((yield* store.list("acme")).map((instance) => instance.id)).toEqual(["one", "two"])
      // Another workspace has its own count.
      expect(yield* create(betaAdmin, "beta", "one")).toBe(201)
      // Removing one frees its place.
      expect((yield* call("DELETE", `${instances("acme")}/one`, acmeAdmin)).status).toBe(204)
      expect(yield* create(acmeAdmin, "acme", "three")).toBe(201)
    })
  )

  it.effect("a bad maxInstancesPerWorkspace fails the start naming it", () =>
    Effect.gen(function* () {
      for (const bad of [0, -1, 1.5, 10_001]) {
        const error = yield* Effect.flip(ServerConfig.make({ insecureNoAuth: true, maxInstancesPerWorkspace: bad }))
        expect(error.reason).toBe("invalid_config")
        expect(error.message).toContain(`maxInstancesPerWorkspace must be an integer from 1 to 10000 (got ${bad})`)
      }
      const read = yield* ServerConfig.fromConfig().pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["WEBSEARCH_SERVER_MAX_PROVIDER_INSTANCES", "7"]])))
      )
      expect(read.maxInstancesPerWorkspace).toBe(7)
    })
  )
})
