/**
 * The provider store's key, as an operator meets it from the command line (the binary as a process, a SQLite store
 * in a temporary directory): `websearch serve` started with a key the store holds nothing under refuses to start,
 * saying so in the words of the variables and naming key ids (never a key), and so does every `providers` action;
 * `websearch providers rotate-key` in the environment of the README's step 2 re-encrypts the store, after which the
 * new key alone serves and the old key alone is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { websearch } from "./support/process.js"

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

const oldKey = Buffer.alloc(32, 21).toString("base64")
const newKey = Buffer.alloc(32, 42).toString("base64")
const token = "store-key-serve-token-0123456789"

let dir = ""
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "websearch-cli-store-key-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const env = (vars: Record<string, string>) => ({ WEBSEARCH_PROVIDER_STORE: join(dir, "providers.db"), ...vars })

/** Runs `websearch serve --port 0` until it says it listens (then stops it) or exits by itself. */
const serve = (vars: Record<string, string>) =>
  new Promise<{ readonly listened: boolean; readonly code: number | null; readonly stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", guard, bin, "serve", "--port", "0"], {
      env: { PATH: process.env.PATH ?? "", HOME: dir, WEBSEARCH_API_TOKENS: token, ...env(vars) },
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    let listened = false
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000)
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
      if (!listened && stderr.includes("listening on")) {
        listened = true
        child.kill("SIGTERM")
      }
    })
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ listened, code, stderr })
    })
  })

describe("the provider store's key from the command line", () => {
  it("a wrong key stops serve and providers at start; rotate-key re-encrypts; then only the new key serves", async () => {
    const added = await websearch(
      ["providers", "add", "acme-searx", "--type", "searxng", "--workspace", "acme"],
      env({ WEBSEARCH_PROVIDER_STORE_KEY: oldKey, HOME: dir })
    )
    expect([added.code, added.stderr]).toEqual([0, ""])

    // A replica given the new key alone: the store holds values under the old one.
    const refused = await serve({ WEBSEARCH_PROVIDER_STORE_KEY: newKey })
    expect(refused.listened).toBe(false)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain("Unavailable/invalid_config")
    expect(refused.stderr).toMatch(/holds values encrypted under key [0-9a-f]{8} \(1 instance\(s\)\)/)
    expect(refused.stderr).toContain("WEBSEARCH_PROVIDER_STORE_KEY")
    expect(refused.stderr).toContain("WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS")
    const listed = await websearch(["providers", "list"], env({ WEBSEARCH_PROVIDER_STORE_KEY: newKey, HOME: dir }))
    expect(listed.code).toBe(1)
    expect(listed.stderr).toContain("WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS")

    // The README's step 2 environment serves, and rotate-key there re-encrypts the instance.
    const step2 = { WEBSEARCH_PROVIDER_STORE_KEY: newKey, WEBSEARCH_PROVIDER_STORE_PREVIOUS_KEYS: oldKey }
    expect((await serve(step2)).listened).toBe(true)
    const rotated = await websearch(["providers", "rotate-key"], env({ ...step2, HOME: dir }))
    expect([rotated.code, rotated.stdout]).toEqual([0, "re-encrypted 1 instance(s) under the current key\n"])

    // Step 4: the new key alone serves; the old key alone is refused.
    expect((await serve({ WEBSEARCH_PROVIDER_STORE_KEY: newKey })).listened).toBe(true)
    const stale = await serve({ WEBSEARCH_PROVIDER_STORE_KEY: oldKey })
    expect(stale.listened).toBe(false)
    expect(stale.stderr).toContain("WEBSEARCH_PROVIDER_STORE_KEY")
    for (const ran of [refused, stale, listed, rotated]) {
      const text = "stdout" in ran ? `${ran.stdout}${ran.stderr}` : ran.stderr
      expect(text).not.toContain(oldKey)
      expect(text).not.toContain(newKey)
    }
  }, 300_000)
})
