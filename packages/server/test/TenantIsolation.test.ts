/**
 * Nothing one workspace does over the HTTP API is visible to another. The matrix: two workspaces, each with an
 * admin and a member token, and outsiders (no token, an unknown token), against every surface that remembers
 * anything between requests: the result cache (built-in providers' searches and fetches, and a workspace's own
 * instance of the same id in each workspace), the page store that serves reading on when no cache keeps pages,
 * and the stored instances. For each ordered pair of tokens, the first makes a request no one made before and the
 * second repeats it: a token of the same workspace may be answered from the workspace's cache (it says `hit`, the
 * origin is not asked again); a token of the other workspace never is (`miss`, the origin is asked), so neither
 * the answer nor the fact that someone asked crosses over. Outsiders are refused before anything is looked up.
 */
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as ResultCacheStore from "@websearch/node/ResultCacheStore"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Management from "./support/management.js"
import * as Support from "./support/server.js"

const tokens = {
  acmeAdmin: "acme-admin-token-4f1c0e9b2a",
  acmeMember: "acme-member-token-8d2b7c1e3f",
  betaAdmin: "beta-admin-token-1a9e5d3c7b",
  betaMember: "beta-member-token-6c4f2a8e0d"
} as const

type Actor = keyof typeof tokens

const workspaceOf = (actor: Actor) => (actor.startsWith("acme") ? "acme" : "beta")

const actors = Object.keys(tokens) as ReadonlyArray<Actor>

const pairs = actors.flatMap((first) =>
  actors.filter((second) => second !== first).map((second) => [first, second] as const)
)

const grants = [
  `${tokens.acmeAdmin}@acme:admin`,
  `${tokens.acmeMember}@acme:member`,
  `${tokens.betaAdmin}@beta:admin`,
  `${tokens.betaMember}@beta`
]

const long = "0123456789".repeat(20)

// A scripted Tavily for search and fetch that records every call and the key it was made with.
const origin = () =>
  Support.driver("tavily", {
    searchKeywords: (input) => Effect.succeed(Support.results(input)),
    fetchUrls: (url) => Effect.succeed({ title: "Private page", content: `${url} ${long}`, url })
  })

const settings = {
  defaults: { searchKeywords: "tavily", fetchUrls: "tavily" },
  providers: { tavily: { apiKeys: ["composed-key-0123"] } }
} as const

const start = (withCache: boolean) =>
  Effect.gen(function* () {
    const tavily = origin()
    const services = Support.live([tavily.driver], settings, withCache ? [ResultCacheStore.layerMemory()] : [])
    const store = Layer.effect(ProviderStore.ProviderStore, ProviderStore.memory)
    const base = yield* Support.start({ tokens: grants, providerStore: store }, services)
    return { base, recorder: tavily.recorder, ...Management.client(base) }
  })

describe("tenant isolation over the HTTP API", () => {
  it.scoped("the result cache: a request repeated by a token of another workspace is never a hit", () =>
    Effect.gen(function* () {
      const { call, recorder } = yield* start(true)
      // Each workspace has an instance of the same id, with its own key.
      for (const workspace of ["acme", "beta"] as const) {
        const created = yield* call(
          "POST",
          `/v1/workspaces/${workspace}/providers`,
          workspace === "acme" ? tokens.acmeAdmin : tokens.betaAdmin,
          { id: "team-search", type: "tavily", credentials: { apiKeys: [`${workspace}-instance-key-0123`] } }
        )
        expect(created.status).toBe(201)
      }
      const calls = (input: string) => recorder.calls.filter((c) => c.input === input)
      const surfaces = [
        { name: "search", path: "/v1/search", body: (input: string) => ({ keywords: [input] }) },
        {
          name: "instance search",
          path: "/v1/search",
          body: (input: string) => ({ keywords: [input], providerId: "team-search" })
        },
        { name: "fetch", path: "/v1/fetch", body: (input: string) => ({ urls: [input] }) }
      ]
      for (const surface of surfaces) {
        for (const [first, second] of pairs) {
          const input =
            surface.name === "fetch"
              ? `https://private.example/${first}/${second}/report?sig=s3cr3t`
              : `${surface.name} by ${first} then ${second}`
          const made = yield* call("POST", surface.path, tokens[first], surface.body(input))
          expect(made.status).toBe(200)
          expect(made.headers).toContain("x-websearch-cache: miss")
          const repeated = yield* call("POST", surface.path, tokens[second], surface.body(input))
          expect(repeated.status).toBe(200)
          const same = workspaceOf(first) === workspaceOf(second)
          // Within a workspace the cache is shared; across workspaces it is not.
          expect([surface.name, first, second, repeated.headers.includes("x-websearch-cache: hit")]).toEqual([
            surface.name,
            first,
            second,
            same
          ])
          expect(calls(input)).toHaveLength(same ? 1 : 2)
          if (surface.name === "instance search" && !same) {
            // Each workspace's call ran with its own instance's key.
            expect(calls(input).map((c) => c.apiKey)).toEqual([
              `${workspaceOf(first)}-instance-key-0123`,
              `${workspaceOf(second)}-instance-key-0123`
            ])
          }
        }
      }
      // Outsiders are refused before anything is looked up, and learn nothing of what was read.
      const before = recorder.calls.length
      for (const outsider of [undefined, "unknown-token-0123456789abcdef"]) {
        const refused = yield* call("POST", "/v1/fetch", outsider, {
          urls: [`https://private.example/acmeAdmin/betaAdmin/report?sig=s3cr3t`]
        })
        expect(refused.status).toBe(401)
        expect(refused.text).not.toContain("Private page")
        expect(refused.headers).not.toContain("x-websearch-cache")
      }
      expect(recorder.calls.length).toBe(before)
    })
  )

  it.scoped("the page store: reading on from a page another workspace fetched asks the origin again", () =>
    Effect.gen(function* () {
      const { call, recorder } = yield* start(false)
      for (const [first, second] of pairs) {
        const url = `https://private.example/${first}/${second}/long?sig=s3cr3t`
        const part = (actor: Actor, startIndex: number) =>
          call("POST", "/v1/fetch", tokens[actor], { urls: [url], maxLength: 50, startIndex })
        expect((yield* part(first, 0)).status).toBe(200)
        const next = yield* part(second, 50)
        expect(next.status).toBe(200)
        const same = workspaceOf(first) === workspaceOf(second)
        // The same workspace reads on from its page store; another workspace's read fetches the page itself.
        expect([first, second, recorder.calls.filter((c) => c.input === url).length]).toEqual([
          first,
          second,
          same ? 1 : 2
        ])
      }
    })
  )

  it.scoped("stored instances: another workspace's are neither listed, shown nor usable", () =>
    Effect.gen(function* () {
      const { call } = yield* start(false)
      const created = yield* call("POST", "/v1/workspaces/acme/providers", tokens.acmeAdmin, {
        id: "acme-only",
        type: "tavily",
        credentials: { apiKeys: ["acme-only-key-0123"] }
      })
      expect(created.status).toBe(201)
      for (const actor of actors) {
        const listed = yield* call("GET", "/v1/workspaces/acme/providers", tokens[actor])
        const shown = yield* call("GET", "/v1/workspaces/acme/providers/acme-only", tokens[actor])
        const used = yield* call("POST", "/v1/search", tokens[actor], { keywords: ["x"], providerId: "acme-only" })
        const unknown = yield* call("POST", "/v1/search", tokens[actor], { keywords: ["x"], providerId: "no-such-id" })
        const expected =
          actor === "acmeAdmin"
            ? [200, 200, 200]
            : actor === "acmeMember"
              ? [403, 403, 200]
              : // Another workspace's routes are 404, and its instance is as unknown as an id that does not exist.
                [404, 404, unknown.status]
        expect([actor, listed.status, shown.status, used.status]).toEqual([actor, ...expected])
        if (workspaceOf(actor) !== "acme") {
          expect(used.text.replaceAll("acme-only", "ID")).toBe(unknown.text.replaceAll("no-such-id", "ID"))
        }
      }
    })
  )
})
