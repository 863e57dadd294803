/**
 * The binary with every provider: with no configuration `search` runs on DuckDuckGo and `check` runs a provider's
 * capabilities; for every provider with a key, a provider that quotes the key back never gets it printed, in human
 * or JSON output, with logging on. Each provider is pointed at a local server through its `*_API_HOST` variables.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Capability from "@websearch/core/Capability"
import type * as Preset from "@websearch/core/Preset"
import * as ProviderId from "@websearch/core/ProviderId"
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { websearch } from "./support/process.js"
import * as Presets from "./support/presets.js"

const duckduckgoPage = readFileSync(new URL("../../providers/test/fixtures/duckduckgo.html", import.meta.url), "utf8")

const canary = "CANARY-cli-5e8d2a7c1f9b3e4d"

let handle: (request: IncomingMessage, response: ServerResponse) => void = (_, response) => response.end()
const requests: Array<{ readonly method: string; readonly url: string; readonly headers: IncomingMessage["headers"] }> =
  []
let server: Server
let origin = ""
let hostPort = ""
beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers })
    request.resume()
    request.on("end", () => handle(request, response))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`
  origin = `http://${hostPort}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

// Every capability of a provider pointed at the local server.
const hostEnv = (preset: Preset.Preset): Record<string, string> =>
  Object.fromEntries(
    preset.capabilities.map((c) => [
      `${ProviderId.toEnvName(preset.id)}_${Capability.toEnvName(c.feature)}_API_HOST`,
      preset.id === "openai" ? `${origin}/v1` : origin
    ])
  )

describe("websearch with every provider", () => {
  it("search with no configuration runs on DuckDuckGo", async () => {
    handle = (_, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(duckduckgoPage)
    }
    requests.length = 0
    const ran = await websearch(["search", "effect typescript", "--json", "--allow-host", hostPort], {
      DUCKDUCKGO_API_HOST: origin
    })
    expect(ran.code).toBe(0)
    const out = JSON.parse(ran.stdout) as { ok: boolean; response: { providerId: string; results: Array<unknown> } }
    expect(out.ok).toBe(true)
    expect(out.response.providerId).toBe("duckduckgo")
    expect(out.response.results.length).toBeGreaterThan(0)
    expect(requests[0]).toMatchObject({ method: "POST", url: "/html/" })
  })

  it("check ID runs every capability of the provider and names each", async () => {
    handle = (request, response) => {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(
        request.url?.startsWith("/extract") || request.url?.startsWith("/crawl")
          ? JSON.stringify({ results: [{ url: "https://example.com/", raw_content: "Example Domain text" }] })
          : request.url?.startsWith("/map")
            ? JSON.stringify({ results: ["https://example.com/"] })
            : JSON.stringify({ results: [{ title: "T", url: "https://example.com/", content: "C" }] })
      )
    }
    const ran = await websearch(["check", "tavily", "--json", "--allow-host", hostPort], {
      TAVILY_API_KEY: canary,
      ...hostEnv(Presets.byId.get("tavily")!)
    })
    expect(ran.code).toBe(0)
    const out = JSON.parse(ran.stdout) as { response: { ok: boolean; capabilities: Array<{ capability: string }> } }
    expect(out.response.ok).toBe(true)
    expect(out.response.capabilities.map((c) => c.capability)).toEqual([
      "searchKeywords",
      "fetchUrls",
      "mapSite",
      "crawlSite"
    ])
    expect(ran.stdout + ran.stderr).not.toContain(canary)
  })

  const keyed = Presets.all.filter((preset) => preset.credentials !== "none")

  it.each(keyed.map((preset) => [preset.id, preset] as const))(
    "%s: a provider quoting the key back never gets it printed (human and --json, --verbose)",
    async (_, preset) => {
      handle = (_, response) => {
        response.writeHead(401, { "content-type": "application/json" })
        response.end(
          JSON.stringify({
            error: { message: `invalid key ${canary}`, code: "invalid_api_key" },
            message: `Invalid API key ${canary}`,
            detail: { error: `key ${canary} rejected` }
          })
        )
      }
      const env = {
        [`${ProviderId.toEnvName(preset.id)}_API_KEY`]: canary,
        ...(preset.id === "google" ? { GOOGLE_ENGINE_ID: "cx-0001" } : {}),
        ...hostEnv(preset)
      }
      // The whole-site capabilities' commands (map, crawl) are not part of this check yet.
      for (const capability of preset.capabilities.filter(
        (c) => c.feature !== "mapSite" && c.feature !== "crawlSite"
      )) {
        const command =
          capability.feature === "searchKeywords"
            ? ["search", "canary query"]
            : capability.feature === "fetchUrls"
              ? ["fetch", "https://example.com/page"]
              : ["research", "What is the capital of France?"]
        for (const json of [[], ["--json"]]) {
          requests.length = 0
          const ran = await websearch(
            [...command, "--provider", preset.id, "--verbose", "--allow-host", hostPort, ...json],
            env
          )
          expect(ran.code).toBe(1)
          // The call reached the provider, carrying the key, and the provider's answer quoted it.
          expect(requests.length).toBeGreaterThan(0)
          expect(JSON.stringify(requests)).toContain(canary)
          expect(ran.stdout + ran.stderr).not.toContain(canary)
          expect(ran.stdout + ran.stderr).toMatch(/credentials_rejected|invalid_api_key|rejected/)
        }
      }
    },
    120_000
  )
})
