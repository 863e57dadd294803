/**
 * Nothing one tenant does over MCP (streamable HTTP) is visible to another. The matrix: two workspaces, each with
 * an admin's and a member's token, and outsiders (no token, an unknown token), against every surface that
 * remembers anything between requests: the MCP session (its id, used or ended by another token), the session's
 * page store ("already read in this session") and result ids (`w1`), calls made without a session, and the
 * pipeline's result cache and page store. For each ordered pair of tokens the first reads a page no one read
 * before, with a signed URL, and the second tries every way to see it. A session is its token's alone, even within
 * a workspace; the pipeline's caches are shared within a workspace and never across.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as WebSearch from "@websearch/core/WebSearch"
import * as ResultCacheStore from "@websearch/node/ResultCacheStore"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { drivers } from "./support/fixtures.js"
import { serveHttp } from "./support/mcpServer.js"

const tokens = {
  acmeAdmin: "acme-admin-mcp-token-5b1e9c",
  acmeMember: "acme-member-mcp-token-2f8a4d",
  betaAdmin: "beta-admin-mcp-token-7c3d0e",
  betaMember: "beta-member-mcp-token-9a6b1f"
} as const

type Actor = keyof typeof tokens

const actors = Object.keys(tokens) as ReadonlyArray<Actor>
const workspaceOf = (actor: Actor) => (actor.startsWith("acme") ? "acme" : "beta")
const pairs = actors.flatMap((a) => actors.filter((b) => b !== a).map((b) => [a, b] as const))

// Every page is long (read in parts) and says whose it is.
const longText = (url: string) => `Private text of ${url}. ${"lorem ipsum ".repeat(2000)}`

const serve = (withCache: boolean) =>
  Effect.gen(function* () {
    const fixtures = drivers()
    const pageOf = new Map<string, string>()
    const fetchDriver = fixtures.drivers.find((d) => d.preset.id === "fetch")!
    const longFetch = {
      ...fetchDriver,
      fetchUrls: (url: string, ctx: Parameters<NonNullable<typeof fetchDriver.fetchUrls>>[1]) =>
        Effect.map(fetchDriver.fetchUrls!(url, ctx), (page) => {
          pageOf.set(url, longText(url))
          return { ...page, content: longText(url) }
        })
    }
    const live = WebSearch.layer(
      ...[fixtures.drivers[0], longFetch].map((d) => ProviderRegistry.register(d)),
      ProviderRegistry.proposeDefaults("test", { searchKeywords: "duckduckgo", fetchUrls: "fetch" }),
      ...(withCache ? [ResultCacheStore.layerMemory()] : [])
    ).pipe(Layer.provideMerge(Settings.layer({ defaults: { research: null } })))
    const { url } = yield* serveHttp(
      { tokens: actors.map((actor) => ({ token: tokens[actor], workspace: workspaceOf(actor) })) },
      live
    )
    return { url, fetched: fixtures.recorded.fetched }
  })

interface Called {
  readonly isError?: boolean
  readonly content: ReadonlyArray<{ readonly text?: string }>
  readonly structuredContent?: Record<string, unknown>
}

const textOf = (called: Called) => called.content.map((c) => c.text ?? "").join("\n")

const connect = (url: string, token: string) =>
  Effect.gen(function* () {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } }
    })
    const client = new Client({ name: "tenant", version: "1.0.0" })
    yield* Effect.promise(() => client.connect(transport))
    yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
    const call = (name: string, args: Record<string, unknown>) =>
      Effect.promise(() => client.callTool({ name, arguments: args }) as Promise<Called>)
    return { call, session: transport.sessionId! }
  })

/** One raw JSON-RPC request, with a token (or none) and a session id (or none). */
const raw = (
  url: string,
  token: string | undefined,
  message: Record<string, unknown>,
  options: { readonly session?: string; readonly method?: string } = {}
) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: options.method ?? "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(options.session === undefined ? {} : { "mcp-session-id": options.session })
      },
      ...(options.method === "DELETE" ? {} : { body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }) })
    })
    const text = await response.text()
    return { status: response.status, text }
  })

const toolCall = (name: string, args: Record<string, unknown>) => ({
  method: "tools/call",
  params: { name, arguments: args }
})

const item = (called: Called) => (called.structuredContent?.items as Array<Record<string, unknown>> | undefined)?.[0]

describe("tenant isolation over MCP", () => {
  it.scoped("sessions, their pages and ids, and calls without a session: nothing crosses between tokens", () =>
    Effect.gen(function* () {
      const { url } = yield* serve(false)
      for (const [first, second] of pairs) {
        const page = `https://intranet.example/${first}/${second}/report?X-Signature=s3cr3t-${first}`
        const owner = yield* connect(url, tokens[first])
        const read = yield* owner.call("web_fetch", { items: [{ url: page }] })
        expect(read.isError).toBe(false)
        expect(item(read)).toMatchObject({ id: "w1", status: "success" })

        // The owner's session id, used or ended by another token (of either workspace): 404, as an unknown id.
        const ping = { method: "ping" }
        const used = yield* raw(url, tokens[second], ping, { session: owner.session })
        const ended = yield* raw(url, tokens[second], {}, { session: owner.session, method: "DELETE" })
        const fetched = yield* raw(url, tokens[second], toolCall("web_fetch", { items: [{ url: "w1" }] }), {
          session: owner.session
        })
        expect([first, second, used.status, ended.status, fetched.status]).toEqual([first, second, 404, 404, 404])
        for (const answer of [used, ended, fetched]) {
          expect(answer.text).not.toContain("intranet")
          expect(answer.text).not.toContain("s3cr3t")
        }

        // In a session of its own, the other token has no w1 and has not read the page.
        const other = yield* connect(url, tokens[second])
        const byId = yield* other.call("web_fetch", { items: [{ url: "w1" }] })
        expect(byId.isError).toBe(true)
        expect(textOf(byId)).toContain("is not a source id of this session")
        expect(textOf(byId)).not.toContain("intranet")
        const again = yield* other.call("web_fetch", { items: [{ url: page }] })
        expect(item(again)?.alreadyRead).toBeUndefined()
        expect(textOf(again)).not.toContain("Already read in this session")

        // Without a session, neither token's calls remember anything: not the owner's page, not their own.
        for (const actor of [first, second]) {
          const blind = yield* raw(url, tokens[actor], toolCall("web_fetch", { items: [{ url: "w1" }] }))
          expect(blind.status).toBe(200)
          expect(blind.text).toContain("is not a source id of this session")
          expect(blind.text).not.toContain("intranet")
          const once = yield* raw(url, tokens[actor], toolCall("web_fetch", { items: [{ url: page }] }))
          const twice = yield* raw(url, tokens[actor], toolCall("web_fetch", { items: [{ url: page }] }))
          expect(once.text).not.toContain("alreadyRead")
          expect(twice.text).not.toContain("alreadyRead")
        }

        // The owner's session is untouched by all of it.
        const mine = yield* owner.call("web_fetch", { items: [{ url: "w1" }] })
        expect(item(mine)).toMatchObject({ id: "w1", alreadyRead: true })
      }

      // Outsiders: refused before anything is looked up, whatever session id they send.
      const owner = yield* connect(url, tokens.acmeAdmin)
      yield* owner.call("web_fetch", { items: [{ url: "https://intranet.example/outsiders?sig=s3cr3t" }] })
      for (const outsider of [undefined, "unknown-token-0123456789abcdef"]) {
        for (const session of [undefined, owner.session]) {
          const tried = yield* raw(url, outsider, toolCall("web_fetch", { items: [{ url: "w1" }] }), {
            ...(session === undefined ? {} : { session })
          })
          const deleted = yield* raw(url, outsider, {}, { session: owner.session, method: "DELETE" })
          expect([tried.status, deleted.status]).toEqual([401, 401])
          expect(tried.text).not.toContain("intranet")
        }
      }
      expect(item(yield* owner.call("web_fetch", { items: [{ url: "w1" }] }))).toMatchObject({ alreadyRead: true })
    })
  )

  for (const withCache of [true, false]) {
    it.scoped(
      `the pipeline's ${withCache ? "result cache" : "page store"}: shared within a workspace, never across`,
      () =>
        Effect.gen(function* () {
          const { fetched, url } = yield* serve(withCache)
          for (const [first, second] of pairs) {
            const page = `https://intranet.example/${first}/${second}/cached?sig=s3cr3t`
            const owner = yield* connect(url, tokens[first])
            yield* owner.call("web_fetch", { items: [{ url: page }] })
            expect(fetched.filter((u) => u === page)).toHaveLength(1)
            // The other token reads on from where the owner's first part ended (the result cache serves the first
            // part too; the page store serves reading on only).
            const other = yield* connect(url, tokens[second])
            const next = yield* other.call("web_fetch", {
              items: [{ url: page, startIndex: withCache ? 0 : 8000 }]
            })
            expect(next.isError).toBe(false)
            const same = workspaceOf(first) === workspaceOf(second)
            expect([first, second, fetched.filter((u) => u === page).length]).toEqual([first, second, same ? 1 : 2])
          }
        })
    )
  }
})
