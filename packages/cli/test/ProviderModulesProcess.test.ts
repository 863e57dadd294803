/**
 * Provider modules (`WEBSEARCH_PROVIDER_MODULES`) as a user meets them, with the binary as a process: the README's
 * own module (extracted from README.md and compiled, as a user would) answers a search through the HttpClient the
 * command gives it, directly and through an outbound proxy, and importing it runs nothing; a module that needs what
 * is not given, or never finishes loading or building, fails `Unavailable/invalid_config` naming it, within the
 * bound, for one-shot commands and for `serve`; a module that writes to stdout corrupts neither `--json` nor MCP
 * over stdio (driven by the official SDK client).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { readFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import * as ConnectProxy from "../../../test-support/connectProxy.js"
import { bundleModule, bundleSource } from "./support/bundleModule.js"
import { websearch } from "./support/process.js"

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

/** The ```ts block of README.md whose first line starts with `first`. */
const readmeBlock = (first: string): string => {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
  const block = readme.split("```ts\n").find((part) => part.startsWith(first))
  if (block === undefined) throw new Error(`README.md has no ts block starting with ${first}`)
  return block.slice(0, block.indexOf("\n```"))
}

// The intranet's search API the README's module calls: it records each request.
interface Seen {
  readonly url: string
  readonly headers: IncomingHttpHeaders
}
const seen: Array<Seen> = []
let api: Server
let apiHost = ""
let proxy: ConnectProxy.ConnectProxy
const modules: Record<string, string> = {}

beforeAll(async () => {
  api = createServer((request, response) => {
    seen.push({ url: request.url ?? "", headers: request.headers })
    const q = new URL(request.url ?? "/", "http://x").searchParams.get("q") ?? ""
    response.writeHead(200, { "content-type": "application/json" })
    response.end(
      JSON.stringify({
        hits: [{ title: `Holiday policy (${q})`, link: "https://intranet.example/holidays", summary: "25 days." }]
      })
    )
  })
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve))
  apiHost = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
  proxy = await ConnectProxy.start()
  const [intranet, noisy, hangingImport, hangingBuild, missingService] = await Promise.all([
    bundleSource("intranet", readmeBlock("// intranet.ts")),
    bundleModule("noisyModule"),
    bundleModule("hangingImportModule"),
    bundleModule("hangingBuildModule"),
    bundleModule("missingServiceModule")
  ])
  Object.assign(modules, { intranet, noisy, hangingImport, hangingBuild, missingService })
  // Bundling five modules takes a while on a busy machine.
}, 120_000)

afterAll(async () => {
  await proxy.close()
  await new Promise<void>((resolve) => api.close(() => resolve()))
})

beforeEach(() => {
  seen.length = 0
  proxy.targets.length = 0
})

const intranetEnv = () => ({
  WEBSEARCH_PROVIDER_MODULES: modules.intranet,
  INTRANET_API_KEY: "intranet-key-0001",
  INTRANET_COLLECTION: "handbook",
  INTRANET_API_HOST: apiHost
})

interface Answer {
  readonly ok: boolean
  readonly response: { readonly providerId: string; readonly results: ReadonlyArray<{ readonly title: string }> }
  readonly error: { readonly _tag: string; readonly reason: string; readonly message: string }
}

const json = (stdout: string): Answer => {
  const lines = stdout.trim().split("\n")
  expect(lines, stdout).toHaveLength(1)
  return JSON.parse(lines[0]) as Answer
}

describe("the README's provider module in the command", { timeout: 180_000 }, () => {
  it("answers a search through the HttpClient it is given; importing it sends nothing", async () => {
    const ran = await websearch(
      ["search", "holidays", "--provider", "intranet", "--json", "--allow-host", "127.0.0.1"],
      intranetEnv()
    )
    expect(ran.code, ran.stdout + ran.stderr).toBe(0)
    const out = json(ran.stdout)
    expect(out.response.providerId).toBe("intranet")
    expect(out.response.results.map((r) => r.title)).toEqual(["Holiday policy (holidays)"])
    // One request: the search. The module ran no search of its own when it was imported.
    expect(seen).toHaveLength(1)
    const asked = new URL(seen[0].url, apiHost)
    expect(asked.pathname).toBe("/api/search")
    expect(asked.searchParams.get("collection")).toBe("handbook")
    expect(seen[0].headers.authorization).toBe("Bearer intranet-key-0001")
    expect(ran.stderr).toBe("")
  })

  it("its calls take the outbound proxy the built-in providers take (HTTP_PROXY), and the URL policy", async () => {
    const proxied = await websearch(
      ["search", "holidays", "--provider", "intranet", "--json", "--allow-host", "127.0.0.1"],
      { ...intranetEnv(), HTTP_PROXY: proxy.url() }
    )
    expect(proxied.code, proxied.stdout + proxied.stderr).toBe(0)
    expect(proxy.targets).toHaveLength(1)
    expect(proxy.targets[0]).toMatch(new RegExp(`:${new URL(apiHost).port}$`))
    expect(seen).toHaveLength(1)
    // Without --allow-host the loopback endpoint is refused before anything is sent.
    seen.length = 0
    const refused = await websearch(["search", "holidays", "--provider", "intranet", "--json"], intranetEnv())
    expect(refused.code).toBe(1)
    expect(json(refused.stdout).error.reason).toBe("invalid_config")
    expect(seen).toHaveLength(0)
  })
})

describe("a provider module that cannot be built", { timeout: 180_000 }, () => {
  it("a service it needs is missing: Unavailable/invalid_config naming the module and the service", async () => {
    const ran = await websearch(["search", "x", "--json"], { WEBSEARCH_PROVIDER_MODULES: modules.missingService })
    expect(ran.code).toBe(1)
    const error = json(ran.stdout).error
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
    expect(error.message).toContain(`provider module "${modules.missingService}" (WEBSEARCH_PROVIDER_MODULES)`)
    expect(error.message).toContain("failed to build: Service not found: @effect/platform/FileSystem")
  })

  it.each([
    ["hangingImport", "did not finish loading within 1s"],
    ["hangingBuild", "did not finish building within 1s"]
  ])("a module that never finishes (%s) fails once WEBSEARCH_PROVIDER_MODULES_TIMEOUT passes", async (name, words) => {
    const env = { WEBSEARCH_PROVIDER_MODULES: modules[name], WEBSEARCH_PROVIDER_MODULES_TIMEOUT: "1 second" }
    const ran = await websearch(["search", "x", "--json"], env, 60_000)
    expect(ran.code).toBe(1)
    const error = json(ran.stdout).error
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
    expect(error.message).toBe(
      `provider module "${modules[name]}" (WEBSEARCH_PROVIDER_MODULES) ${words} (WEBSEARCH_PROVIDER_MODULES_TIMEOUT)`
    )
    // serve stops too, saying why, instead of never listening.
    const served = await websearch(["serve", "--port", "0", "--insecure-no-auth"], env, 60_000)
    expect(served.code).toBe(1)
    expect(served.stderr).toContain(`${words} (WEBSEARCH_PROVIDER_MODULES_TIMEOUT)`)
    expect(served.stderr).not.toContain("listening on")
  })

  it("a bound that is not a duration is a usage of the variable, named", async () => {
    const ran = await websearch(["search", "x", "--json"], {
      WEBSEARCH_PROVIDER_MODULES: modules.noisy,
      WEBSEARCH_PROVIDER_MODULES_TIMEOUT: "soon"
    })
    expect(ran.code).toBe(1)
    expect(json(ran.stdout).error.message).toBe(
      'WEBSEARCH_PROVIDER_MODULES_TIMEOUT takes milliseconds or a duration such as "30 seconds", not "soon"'
    )
  })
})

describe("a provider module that writes to stdout", { timeout: 180_000 }, () => {
  it("--json still prints exactly one JSON object; the module's lines go to stderr", async () => {
    const ran = await websearch(["search", "effect", "--provider", "noisy", "--json"], {
      WEBSEARCH_PROVIDER_MODULES: modules.noisy
    })
    expect(ran.code).toBe(0)
    expect(json(ran.stdout).response.results.map((r) => r.title)).toEqual(["Noisy answer for effect"])
    expect(ran.stderr).toContain("noisy module: imported")
    expect(ran.stderr).toContain("noisy module: building")
  })

  it("MCP over stdio stays a clean protocol channel for the official SDK client", async () => {
    let stderr = ""
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", guard, bin, "mcp"],
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        WEBSEARCH_PROVIDER_MODULES: modules.noisy,
        WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER: "noisy"
      },
      stderr: "pipe"
    })
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const client = new Client({ name: "noisy-module", version: "1.0.0" })
    const errors: Array<unknown> = []
    client.onerror = (error) => errors.push(error)
    await client.connect(transport, { timeout: 150_000 })
    try {
      const { tools } = await client.listTools(undefined, { timeout: 150_000 })
      expect(tools.map((t) => t.name)).toContain("web_search")
      const found = (await client.callTool({ name: "web_search", arguments: { keywords: ["layers"] } }, undefined, {
        timeout: 150_000
      })) as { readonly isError?: boolean; readonly structuredContent?: Record<string, unknown> }
      expect(found.isError).toBe(false)
      expect(found.structuredContent).toMatchObject({ providerId: "noisy" })
      // Every stray write went to stderr: at import, at build and during the call.
      for (const line of ["imported", "building", "searching layers"]) expect(stderr).toContain(`noisy module: ${line}`)
      expect(errors).toEqual([])
    } finally {
      await client.close()
    }
  })
})
