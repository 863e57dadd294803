/**
 * `websearch providers list|add|remove|set-key|test|rotate-key` as a user runs them (the binary as a process):
 * against the local SQLite store in a temporary XDG_DATA_HOME, and against a server's provider routes (a local
 * stand-in that records what it is sent). Keys go in through standard input only and never come out.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { websearch, websearchOnTerminal } from "./support/process.js"

const storeKey = Buffer.alloc(32, 9).toString("base64")
const apiKey = "sk-cli-canary-5e1f"

let server: Server
let origin = ""
const seen: Array<{ method: string; url: string; authorization: string; token: string; body: string }> = []
let dir = ""

const body = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = ""
    request.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
    request.on("end", () => resolve(text))
  })

const view = (id: string, keys = 0) => ({
  workspace: "acme",
  id,
  type: "searxng",
  settings: {},
  credentials: { apiKeys: keys, basicAuthPassword: false },
  revision: 1 + keys,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z"
})

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "websearch-cli-providers-"))
  server = createServer(async (request, response) => {
    const text = await body(request)
    const url = request.url ?? ""
    seen.push({
      method: request.method ?? "",
      url,
      authorization: request.headers.authorization ?? "",
      token: String(request.headers["x-subscription-token"] ?? ""),
      body: text
    })
    const json = (status: number, value: unknown) =>
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value))
    // A SearXNG for the local `test`: the instance's endpoint.
    if (url.startsWith("/search")) {
      return json(200, { results: [{ url: "https://example.org/a", title: "A result", content: "text" }] })
    }
    if (url === "/v1/workspaces/acme/providers" && request.method === "GET") return json(200, [view("remote-searx")])
    if (url === "/v1/workspaces/acme/providers" && request.method === "POST") {
      return json(201, view(JSON.parse(text).id))
    }
    if (url === "/v1/workspaces/acme/providers/remote-searx/credentials" && request.method === "PUT") {
      return json(200, view("remote-searx", JSON.parse(text).apiKeys.length))
    }
    if (url === "/v1/workspaces/acme/providers/remote-searx/test" && request.method === "POST") {
      return json(200, { providerId: "remote-searx", ok: true, capabilities: [] })
    }
    return json(404, {
      _tag: "RequestFailed",
      reason: "not_found",
      message: 'workspace "acme" has no provider instance "gone"',
      retryable: false
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const env = () => ({ XDG_DATA_HOME: join(dir, "data"), WEBSEARCH_PROVIDER_STORE_KEY: storeKey })
const json = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "")

describe("websearch providers ACTION against the local store", () => {
  it("set-key on a terminal does not show the key it reads; Ctrl-C there sets nothing and exits 130", async () => {
    // Brave sends its key in a header, so the key set can be read back from the request the check makes.
    const settings = JSON.stringify({ capabilities: { searchKeywords: { apiHost: origin } } })
    const add = ["providers", "add", "tty-brave", "--type", "brave", "--settings", settings]
    const added = await websearch([...add, "--allow-host", "127.0.0.1"], env())
    expect([added.code, added.stderr]).toEqual([0, ""])

    // Typed as a user types: a slip corrected with Backspace, Enter between two keys, Ctrl-D to end.
    const typed = `${apiKey}x\x7f\rsecond-key\r\x04`
    const keyed = await websearchOnTerminal(["providers", "set-key", "tty-brave"], env(), "then Ctrl-D", typed)
    expect(keyed.code).toBe(0)
    expect(keyed.transcript).toContain("not shown")
    expect(keyed.transcript).toContain("2 key(s)  revision 2")
    // Neither key was echoed (nor the slip).
    expect(keyed.transcript).not.toContain(apiKey)
    expect(keyed.transcript).not.toContain("second-key")

    const gaveUp = await websearchOnTerminal(["providers", "set-key", "tty-brave"], env(), "then Ctrl-D", "half\x03")
    expect(gaveUp.code).toBe(130)
    expect(gaveUp.transcript).toContain("interrupted by the user; no key was set")
    expect(gaveUp.transcript).not.toContain("half")
    const listed = await websearch(["providers", "list", "--json"], env())
    expect(json(listed.stdout).response).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: "tty-brave", revision: 2 })])
    )
    // The first key is exactly what was meant (the slip taken back, Enter ending it): the check sends it.
    await websearch(["providers", "test", "tty-brave", "--allow-host", "127.0.0.1"], env())
    expect(seen.filter((s) => s.url.startsWith("/res/v1/web/search")).map((s) => s.token)).toContain(apiKey)
    expect((await websearch(["providers", "remove", "tty-brave"], env())).code).toBe(0)
  }, 180_000)

  it("add, set-key from standard input, list, test with the instance's settings, remove; keys never printed", async () => {
    const settings = JSON.stringify({ capabilities: { searchKeywords: { apiHost: origin } } })
    // The registry judges an instance before it is stored: an unknown type, or an endpoint the URL policy refuses.
    const unknownType = await websearch(["providers", "add", "x-search", "--type", "no-such-type"], env())
    expect(unknownType.code).toBe(1)
    expect(unknownType.stderr).toContain('no composed provider "no-such-type"')
    const refused = await websearch(
      ["providers", "add", "local-searx", "--type", "searxng", "--settings", settings],
      env()
    )
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("capabilities.searchKeywords.apiHost")
    const added = await websearch(
      [
        "providers",
        "add",
        "local-searx",
        "--type",
        "searxng",
        "--name",
        "Local",
        "--settings",
        settings,
        "--allow-host",
        "127.0.0.1"
      ],
      env()
    )
    expect([added.code, added.stderr]).toEqual([0, ""])
    expect(added.stdout).toBe('added local-searx  searxng  "Local"  0 key(s)  revision 1\n')

    const keyed = await websearch(["providers", "set-key", "local-searx"], env(), 90_000, {
      stdin: `${apiKey}\nsecond-key\n`
    })
    expect(keyed.code).toBe(0)
    expect(keyed.stdout).toContain("2 key(s)  revision 2")

    const listed = await websearch(["providers", "list", "--json"], env())
    expect(listed.code).toBe(0)
    expect(json(listed.stdout).response).toEqual([
      expect.objectContaining({ id: "local-searx", credentials: { apiKeys: 2, basicAuthPassword: false }, revision: 2 })
    ])

    // The check runs the instance: its endpoint (the local SearXNG) answers.
    const before = seen.filter((s) => s.url.startsWith("/search")).length
    const tested = await websearch(["providers", "test", "local-searx", "--allow-host", "127.0.0.1", "--json"], env())
    expect(tested.code).toBe(0)
    expect(json(tested.stdout).response).toEqual(expect.objectContaining({ providerId: "local-searx", ok: true }))
    expect(seen.filter((s) => s.url.startsWith("/search")).length).toBe(before + 1)

    // Not in any output, nor in the database file (encrypted at rest).
    for (const ran of [added, keyed, listed, tested]) expect(ran.stdout + ran.stderr).not.toContain(apiKey)
    const storeDir = join(dir, "data", "websearch")
    for (const file of readdirSync(storeDir)) expect(readFileSync(join(storeDir, file)).includes(apiKey)).toBe(false)

    const removed = await websearch(["providers", "remove", "local-searx"], env())
    expect([removed.code, removed.stdout]).toEqual([0, "removed local-searx\n"])
    const again = await websearch(["providers", "remove", "local-searx"], env())
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(
      'RequestFailed/not_found: workspace "default" has no provider instance "local-searx"'
    )
    const empty = await websearch(["providers", "list"], env())
    expect(empty.stdout).toBe('workspace "default" has no provider instances\n')
  })

  it("a key is never taken from the command line; usage errors name the flag; a missing store key names its variable", async () => {
    const onArgv = await websearch(["providers", "set-key", "some-id", apiKey], env())
    expect(onArgv.code).toBe(2)
    expect(onArgv.stderr).toContain("providers set-key needs exactly one instance ID")
    expect(onArgv.stderr).not.toContain(apiKey)
    const none = await websearch(["providers", "set-key", "some-id"], env())
    expect(none.code).toBe(1)
    expect(none.stderr).toContain("set-key reads the API key from standard input")
    for (const [args, message] of [
      [["providers", "add", "x"], "providers add needs --type TYPE"],
      [["providers", "add", "Bad_Id", "--type", "bing"], '"Bad_Id" is not an instance id'],
      [["providers", "list", "--workspace", "Nope!"], '--workspace: "Nope!" is not a workspace id'],
      [["providers", "list", "--type", "bing"], '--type only apply to "providers add"'],
      [["providers", "frobnicate"], "providers takes one of list, add, remove, set-key, test, rotate-key"],
      [["providers", "list", "--server", origin], "--server needs --token TOKEN"]
    ] as const) {
      const ran = await websearch(args, env())
      expect([ran.code, ran.stderr.includes(message)]).toEqual([2, true])
    }
    const noKey = await websearch(["providers", "list", "--json"], { XDG_DATA_HOME: join(dir, "data") })
    expect(noKey.code).toBe(1)
    expect(json(noKey.stdout).error).toEqual(
      expect.objectContaining({
        reason: "invalid_config",
        message: expect.stringMatching(/^WEBSEARCH_PROVIDER_STORE_KEY is not set/)
      })
    )
  })
})

describe("websearch providers ACTION --server URL --token TOKEN", () => {
  const token = "admin-token-canary-31c"
  const remote = (args: ReadonlyArray<string>, stdin?: string) =>
    websearch(["providers", ...args, "--server", origin, "--token", token, "--workspace", "acme"], {}, 90_000, {
      stdin
    })

  it("list, add, set-key (keys from standard input in the body), test and a refused remove go to the routes", async () => {
    seen.length = 0
    const listed = await remote(["list"])
    expect([listed.code, listed.stdout]).toEqual([0, "remote-searx  searxng  -  0 key(s)  revision 1\n"])
    const added = await remote(["add", "new-searx", "--type", "searxng", "--name", "New"])
    expect(added.code).toBe(0)
    const keyed = await remote(["set-key", "remote-searx"], `${apiKey}\n`)
    expect([keyed.code, keyed.stdout]).toEqual([0, "keys set: remote-searx  searxng  -  1 key(s)  revision 2\n"])
    const tested = await remote(["test", "remote-searx", "--json"])
    expect([tested.code, json(tested.stdout).response.ok]).toEqual([0, true])
    const gone = await remote(["remove", "gone"])
    expect(gone.code).toBe(1)
    expect(gone.stderr).toContain('RequestFailed/not_found: workspace "acme" has no provider instance "gone"')

    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET /v1/workspaces/acme/providers",
      "POST /v1/workspaces/acme/providers",
      "PUT /v1/workspaces/acme/providers/remote-searx/credentials",
      "POST /v1/workspaces/acme/providers/remote-searx/test",
      "DELETE /v1/workspaces/acme/providers/gone"
    ])
    expect(new Set(seen.map((s) => s.authorization))).toEqual(new Set([`Bearer ${token}`]))
    expect(JSON.parse(seen[1]!.body)).toEqual({
      id: "new-searx",
      type: "searxng",
      name: "New",
      settings: {},
      credentials: {}
    })
    expect(JSON.parse(seen[2]!.body)).toEqual({ apiKeys: [apiKey] })
    for (const ran of [listed, added, keyed, tested, gone]) {
      expect(ran.stdout + ran.stderr).not.toContain(token)
      expect(ran.stdout + ran.stderr).not.toContain(apiKey)
    }
  })
})
