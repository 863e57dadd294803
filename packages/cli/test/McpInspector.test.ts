/**
 * `websearch mcp` driven by a client nobody here wrote: the official MCP Inspector's command line
 * (`@modelcontextprotocol/inspector --cli`), over stdio, as a user would point it at the command. It lists the
 * tools (checking their schemas for portability with `--strict`) and reads a loopback page with `web_fetch`; no
 * tool input schema carries one of Effect's labels. The Inspector and the command it starts both run under the
 * loopback guard.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { once } from "node:events"
import { mkdtempSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { createRequire } from "node:module"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import * as Process from "./support/process.js"

const inspector = (() => {
  const manifest = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")
  const { bin: bins } = createRequire(import.meta.url)(manifest) as { bin: Record<string, string> }
  return join(dirname(manifest), bins["mcp-inspector"]!)
})()

const marker = "The inspector reads this sentence through web_fetch, from a page on the loopback address."
let page: Server
let pageUrl = ""

beforeAll(async () => {
  page = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end(
      `<!doctype html><html lang="en"><head><title>Inspector page</title></head><body><article><h1>Inspector page</h1><p>${marker}</p></article></body></html>`
    )
  })
  page.listen(0, "127.0.0.1")
  await once(page, "listening")
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/page`
})

afterAll(() => {
  page.close()
})

/** Runs `mcp-inspector --cli [server env] node websearch mcp [inspector args]`, with only PATH and an empty HOME. */
const inspect = (inspectorArgs: ReadonlyArray<string>, serverEnv: Record<string, string> = {}) =>
  Process.node(
    [
      inspector,
      "--cli",
      ...Object.entries(serverEnv).flatMap(([key, value]) => ["-e", `${key}=${value}`]),
      ...Process.websearchCommand,
      "mcp",
      "--allow-host",
      "127.0.0.1",
      ...inspectorArgs
    ],
    // A HOME of its own: whatever the Inspector keeps (its catalog) stays out of the developer's.
    { HOME: mkdtempSync(join(tmpdir(), "websearch-inspector-")) },
    120_000
  )

/** Every value under `key` anywhere in a JSON document, with where it is. */
const valuesOf = (node: unknown, key: string, path = "", into: Array<[string, unknown]> = []) => {
  if (Array.isArray(node)) node.forEach((item, i) => valuesOf(item, key, `${path}[${i}]`, into))
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) into.push([`${path}.${k}`, v])
      valuesOf(v, key, `${path}.${k}`, into)
    }
  }
  return into
}

interface Listed {
  readonly tools: ReadonlyArray<{ readonly name: string; readonly inputSchema: unknown }>
}

describe("websearch mcp under the MCP Inspector's command line", { timeout: 240_000 }, () => {
  it("tools/list: the tools a configured server offers, portable schemas with no Effect label in them", async () => {
    // A research provider with its key (never called), so all three tools are listed and checked.
    const research = { OPENAI_API_KEY: "sk-test-not-a-real-key", WEBSEARCH_DEFAULT_RESEARCH_PROVIDER: "openai" }
    const listed = await inspect(["--method", "tools/list", "--strict"], research)
    // --strict: a tool-schema portability problem of error severity exits 6.
    expect(listed.code, listed.stderr).toBe(0)
    const { tools } = JSON.parse(listed.stdout) as Listed
    expect(tools.map((tool) => tool.name)).toEqual(["web_search", "web_fetch", "web_research", "web_map", "web_crawl"])
    for (const tool of tools) {
      // Effect's labels: titles such as "maxItems(20)" or "between(1, 50)", descriptions such as "a string at
      // most 1000 character(s) long". A property's name is its title; its description is written for a model.
      expect(valuesOf(tool.inputSchema, "title"), tool.name).toEqual([])
      for (const [where, description] of valuesOf(tool.inputSchema, "description")) {
        expect(description, `${tool.name} ${where}`).not.toMatch(/^an? [a-z]|character\(s\)|item\(s\)|\w+\(\d/)
      }
    }
  })

  it("without a usable research provider, web_research is not listed", async () => {
    const listed = await inspect(["--method", "tools/list"])
    expect(listed.code, listed.stderr).toBe(0)
    expect((JSON.parse(listed.stdout) as Listed).tools.map((tool) => tool.name)).toEqual([
      "web_search",
      "web_fetch",
      "web_map",
      "web_crawl"
    ])
    expect(listed.stderr).toContain("web_research is off: no provider was given and there is no default for research")
  })

  it("tools/call web_fetch reads a loopback page", async () => {
    const called = await inspect([
      "--method",
      "tools/call",
      "--tool-name",
      "web_fetch",
      "--tool-arg",
      `items=${JSON.stringify([{ url: pageUrl }])}`
    ])
    expect(called.code, called.stderr).toBe(0)
    const result = JSON.parse(called.stdout) as {
      readonly isError: boolean
      readonly content: ReadonlyArray<{ readonly text: string }>
      readonly structuredContent: { readonly items: ReadonlyArray<Record<string, unknown>> }
    }
    expect(result.isError).toBe(false)
    expect(result.structuredContent.items).toMatchObject([{ status: "success", id: "w1", url: pageUrl }])
    expect(result.content[0]!.text).toContain(marker)
    expect(result.content[0]!.text).toContain(`untrusted-data source=${pageUrl}`)
  })
})
