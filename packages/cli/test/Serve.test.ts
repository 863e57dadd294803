import { describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

const token = "cli-serve-token-0123456789abcdef"

// Only what the command may read: no provider keys or defaults leak in from the developer's shell.
const baseEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }

interface Running {
  readonly child: ChildProcess
  readonly stderr: () => string
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

const serve = (args: ReadonlyArray<string>, env: Record<string, string>): Running => {
  const child = spawn(process.execPath, ["--import", guard, bin, "serve", ...args], {
    env: { ...baseEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stderr = ""
  child.stderr!.on("data", (data: Buffer) => (stderr += data.toString("utf8")))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal }))
  )
  return { child, stderr: () => stderr, exited }
}

const listening = async (running: Running, within = 60_000): Promise<string> => {
  const deadline = Date.now() + within
  while (Date.now() < deadline) {
    const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(running.stderr())
    if (match !== null) return match[1]
    if (running.child.exitCode !== null) throw new Error(`serve exited early: ${running.stderr()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`serve did not report its address: ${running.stderr()}`)
}

describe("websearch serve as a process", () => {
  it("--port 0 prints the real address, serves, and stops on SIGINT", { timeout: 90_000 }, async () => {
    const running = serve(["--port", "0"], { WEBSEARCH_API_TOKENS: token })
    try {
      const base = await listening(running)
      expect(Number(new URL(base).port)).toBeGreaterThan(0)
      expect(running.stderr()).toContain(`${base}/docs`)
      const health = await fetch(`${base}/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: "ok" })
      expect((await fetch(`${base}/v1/providers`)).status).toBe(401)
      const providers = await fetch(`${base}/v1/providers`, { headers: { authorization: `Bearer ${token}` } })
      expect(providers.status).toBe(200)
      const rows = (await providers.json()) as Array<{ id: string }>
      expect(rows.find((row) => row.id === "fetch")).toMatchObject({
        type: "local",
        defaultFor: ["fetchUrls", "mapSite", "crawlSite"]
      })
      // A real capability call through the binary's providers: the local fetch provider refuses loopback.
      const fetched = await fetch(`${base}/v1/fetch`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ urls: [`${base}/health`] })
      })
      expect(fetched.status).toBe(502)
      expect(await fetched.json()).toMatchObject({
        _tag: "RequestFailed",
        reason: "ssrf_rejected",
        providerId: "fetch"
      })
      running.child.kill("SIGINT")
      const exit = await running.exited
      // Ctrl-C is the way to stop a server: it exits on its own, with the conventional code and no stack trace.
      expect(exit.signal).toBeNull()
      expect(exit.code).toBe(130)
      expect(running.stderr()).not.toMatch(/\n\s+at /)
      await expect(fetch(`${base}/health`)).rejects.toThrow()
    } finally {
      running.child.kill("SIGKILL")
    }
  })

  it("refuses to start without a token, naming the fix", { timeout: 90_000 }, async () => {
    const running = serve(["--port", "0"], {})
    const exit = await running.exited
    expect(exit.code).toBe(1)
    expect(running.stderr()).toContain("WEBSEARCH_API_TOKENS")
    expect(running.stderr()).toContain("--insecure-no-auth")
    expect(running.stderr()).not.toContain("listening on")
  })

  it(
    "with WEBSEARCH_PROVIDER_STORE(_KEY) set, an admin token manages the workspace's instances",
    { timeout: 90_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "websearch-serve-store-"))
      const admin = "cli-serve-admin-0123456789abcdef"
      const env = {
        WEBSEARCH_API_TOKENS: `${admin}@acme:admin,${token}`,
        WEBSEARCH_PROVIDER_STORE: join(dir, "providers.db"),
        WEBSEARCH_PROVIDER_STORE_KEY: randomBytes(32).toString("base64")
      }
      const running = serve(["--port", "0"], env)
      try {
        const base = await listening(running)
        const created = await fetch(`${base}/v1/workspaces/acme/providers`, {
          method: "POST",
          headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
          body: JSON.stringify({ id: "acme-fetch", type: "fetch" })
        })
        expect(created.status).toBe(201)
        const listed = await fetch(`${base}/v1/workspaces/acme/providers`, {
          headers: { authorization: `Bearer ${admin}` }
        })
        expect(await listed.json()).toMatchObject([{ workspace: "acme", id: "acme-fetch", type: "fetch" }])
        // The plain token is a member of `default`: acme is not its workspace.
        const other = await fetch(`${base}/v1/workspaces/acme/providers`, {
          headers: { authorization: `Bearer ${token}` }
        })
        expect(other.status).toBe(404)
      } finally {
        running.child.kill("SIGINT")
        await running.exited
        rmSync(dir, { recursive: true, force: true })
      }
    }
  )

  it("--insecure-no-auth serves without a token and says so", { timeout: 90_000 }, async () => {
    const running = serve(["--port", "0", "--insecure-no-auth"], {})
    try {
      const base = await listening(running)
      expect(running.stderr()).toContain("WARNING: no authentication")
      expect((await fetch(`${base}/v1/providers`)).status).toBe(200)
    } finally {
      running.child.kill("SIGINT")
      await running.exited
    }
  })
})
