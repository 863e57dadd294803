import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as SearchKeywords from "@websearch/core/SearchKeywords"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Redacted from "effect/Redacted"
import * as SearXng from "../src/SearXng.js"
import * as Server from "./support/providerServer.js"

// Two SearXNG servers on loopback, each answering with its own name, so a result says which server it came from.
let left: Server.ProviderServer
let right: Server.ProviderServer
const answer = (name: string) =>
  Server.json({ results: [{ title: `from ${name}`, content: `${name} result`, url: `https://${name}.example/` }] })
beforeAll(async () => {
  left = await Server.start(answer("left"))
  right = await Server.start(answer("right"))
})
afterAll(async () => {
  await left.close()
  await right.close()
})

const endpoint = (server: Server.ProviderServer) => ({ searchKeywords: { apiHost: server.url } })

const settings = () => ({
  defaults: { searchKeywords: null, fetchUrls: null, research: null },
  urlPolicy: { allowHosts: [left.hostPort, right.hostPort] },
  instances: {
    "searx-left": { type: "searxng", name: "Left SearXNG", capabilities: endpoint(left) },
    "searx-right": {
      type: "searxng",
      capabilities: endpoint(right),
      basicAuthUsername: "ops",
      basicAuthPassword: Server.canary
    }
  }
})

const run = <A, E>(effect: Effect.Effect<A, E, SearchKeywords.SearchKeywords | ProviderChecks.ProviderChecks>) =>
  Effect.runPromise(Effect.exit(effect.pipe(Effect.provide(Server.live(SearXng.layer, settings())))))

const epoch = DateTime.unsafeMake(0)

const stored = (
  workspace: string,
  id: string,
  server: Server.ProviderServer,
  password?: string
): ProviderInstance.ProviderInstance => ({
  workspace,
  id,
  type: "searxng",
  settings: {
    capabilities: endpoint(server),
    ...(password === undefined ? {} : { basicAuthUsername: workspace })
  },
  credentials: password === undefined ? {} : { basicAuthPassword: Redacted.make(password) },
  revision: 1,
  createdAt: epoch,
  updatedAt: epoch
})

const search = (providerId: string) => SearchKeywords.searchKeywords({ providerId, keywords: ["effect"] })

describe("SearXNG instances over real HTTP", () => {
  it("two settings instances of the SearXNG type reach their own servers, each with its own basic auth", async () => {
    left.requests.length = 0
    right.requests.length = 0
    const exit = await run(Effect.all([search("searx-left"), search("searx-right")]))
    if (!Exit.isSuccess(exit)) throw new Error(JSON.stringify(exit.cause))
    const [fromLeft, fromRight] = exit.value
    expect([fromLeft.providerId, fromLeft.results.map((r) => r.title)]).toEqual(["searx-left", ["from left"]])
    expect([fromRight.providerId, fromRight.results.map((r) => r.title)]).toEqual(["searx-right", ["from right"]])
    expect(left.requests.map((r) => [r.path, r.query.get("q"), r.headers.authorization])).toEqual([
      ["/search", "effect", undefined]
    ])
    const auth = right.requests[0]?.headers.authorization
    expect(auth).toBe(`Basic ${Buffer.from(`ops:${Server.canary}`).toString("base64")}`)
  })

  it("a workspace's stored instances reach their servers; another workspace's instance of the same id is its own", async () => {
    left.requests.length = 0
    right.requests.length = 0
    const exit = await run(
      Effect.all([
        search("team").pipe(ProviderInstance.withInstances("acme", [stored("acme", "team", left)])),
        search("team").pipe(ProviderInstance.withInstances("beta", [stored("beta", "team", right, "beta-pass")]))
      ])
    )
    if (!Exit.isSuccess(exit)) throw new Error(JSON.stringify(exit.cause))
    expect(exit.value.map((r) => [r.providerId, r.results[0].title])).toEqual([
      ["team", "from left"],
      ["team", "from right"]
    ])
    expect(left.requests).toHaveLength(1)
    expect(right.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from("beta:beta-pass").toString("base64")}`)
  })

  it("a refused password fails naming the instance, without the password; the check of the instance says so", async () => {
    right.handle = Server.reply(401, { error: "unauthorized" })
    try {
      const within = ProviderInstance.withInstances("acme", [stored("acme", "locked", right, Server.canary)])
      const exit = await run(Effect.all([Effect.flip(search("locked")), ProviderChecks.check("locked")]).pipe(within))
      if (!Exit.isSuccess(exit)) throw new Error(JSON.stringify(exit.cause))
      const [error, check] = exit.value
      expect([error._tag, error.providerId]).toEqual(["Unavailable", "locked"])
      expect([check.providerId, check.ok, check.capabilities[0].error?.providerId]).toEqual(["locked", false, "locked"])
      for (const text of [error.message, JSON.stringify(error), JSON.stringify(check)]) {
        expect(text).not.toContain(Server.canary)
      }
    } finally {
      right.handle = answer("right")
    }
  })
})
