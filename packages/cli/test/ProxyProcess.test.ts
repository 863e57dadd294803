/**
 * The CLI as a process behind an outbound proxy: `HTTP_PROXY` carries its provider calls (a real driver against a
 * local stand-in for Brave's API), `NO_PROXY` sends them direct, and a proxy the URL policy refuses stops the
 * command at start, naming the variable.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as ConnectProxy from "../../../test-support/connectProxy.js"

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))
const fixture = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../providers/test/fixtures/brave.json", import.meta.url)), "utf8")
) as { response: { body: unknown } }

const proxyPassword = "CANARY-CLI-PROXY-PASS-5e0a"

// Asynchronous, so the proxy and the stand-in API (in this process) can answer while the command runs.
const websearch = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", guard, bin, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

let api: Server
let apiHostPort = ""
let hits = 0
let proxy: ConnectProxy.ConnectProxy
beforeAll(async () => {
  proxy = await ConnectProxy.start()
  api = createServer((_, response) => {
    hits++
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify(fixture.response.body))
  })
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve))
  apiHostPort = `127.0.0.1:${(api.address() as AddressInfo).port}`
})
afterAll(async () => {
  await proxy.close()
  await new Promise<void>((resolve) => api.close(() => resolve()))
})
beforeEach(() => {
  hits = 0
  proxy.targets.length = 0
})

const config = (allowProxy: boolean): string => {
  const path = join(mkdtempSync(join(tmpdir(), "websearch-proxy-")), "settings.json")
  writeFileSync(
    path,
    JSON.stringify({
      defaults: { searchKeywords: "brave" },
      providers: {
        brave: { apiKeys: ["brave-key"], capabilities: { searchKeywords: { apiHost: `http://${apiHostPort}` } } }
      },
      urlPolicy: { allowHosts: [apiHostPort, ...(allowProxy ? [proxy.hostPort] : [])] }
    })
  )
  return path
}

describe("websearch behind an outbound proxy", () => {
  it("HTTP_PROXY carries the provider call through a CONNECT tunnel; NO_PROXY sends it direct", async () => {
    const proxied = await websearch(["search", "python", "--json", "--no-cache", "--config", config(true)], {
      HTTP_PROXY: proxy.url(`cli-user:${proxyPassword}`)
    })
    expect(proxied.stderr).not.toContain(proxyPassword)
    expect(proxied.stdout).not.toContain(proxyPassword)
    expect(proxied.code).toBe(0)
    expect(proxy.targets).toEqual([apiHostPort])
    expect(proxy.authorizations.at(-1)).toBe(`Basic ${Buffer.from(`cli-user:${proxyPassword}`).toString("base64")}`)
    expect(hits).toBe(1)

    proxy.targets.length = 0
    const direct = await websearch(["search", "python", "--json", "--no-cache", "--config", config(true)], {
      HTTP_PROXY: proxy.url(),
      NO_PROXY: "127.0.0.1"
    })
    expect(direct.code).toBe(0)
    expect(proxy.targets).toEqual([])
    expect(hits).toBe(2)
  })

  it("a loopback proxy that is not allowlisted stops the command, naming the variable", async () => {
    const { code, stdout, stderr } = await websearch(
      ["search", "python", "--json", "--no-cache", "--config", config(false)],
      {
        https_proxy: proxy.url(`u:${proxyPassword}`)
      }
    )
    expect(code).not.toBe(0)
    const output = `${stdout}${stderr}`
    expect(output).toContain("https_proxy")
    expect(output).toContain("urlPolicy.allowHosts")
    expect(output).not.toContain(proxyPassword)
    expect(proxy.targets).toEqual([])
    expect(hits).toBe(0)
  })
})
