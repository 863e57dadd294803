import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Presets from "./support/presets.js"

const bin = fileURLToPath(new URL("../bin/websearch.js", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

// Only what the command may read: no provider keys or defaults leak in from the developer's shell.
const baseEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }

// Asynchronous on purpose: a spawnSync blocks the test worker for the whole run of the command, and a worker
// blocked for 60 s misses vitest's own messages (its RPC times out and fails a run whose tests all passed).
const websearch = (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {}
): Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", guard, bin, ...args], {
      env: { ...baseEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

const json = (stdout: string): Record<string, unknown> => {
  const lines = stdout.trim().split("\n")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]) as Record<string, unknown>
}

const tempFile = (content: string): string => {
  const dir = mkdtempSync(join(tmpdir(), "websearch-cli-"))
  const path = join(dir, "settings.json")
  writeFileSync(path, content)
  return path
}

describe("websearch as a process", () => {
  it("--help prints usage and exits 0", async () => {
    const { code, stdout } = await websearch(["--help"])
    expect(code).toBe(0)
    expect(stdout).toContain("websearch search KEYWORD...")
    expect(stdout).toContain("--json")
  })

  it("--version prints the package version", async () => {
    const { code, stdout } = await websearch(["--version"])
    expect(code).toBe(0)
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it("human output of a failure goes to stderr, stdout stays empty", async () => {
    // A loopback URL that is not allowlisted: refused by the URL policy before anything is sent.
    const { code, stdout, stderr } = await websearch(["fetch", "http://127.0.0.1:9/"])
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toContain("RequestFailed/ssrf_rejected")
    expect(stderr).toContain("127.0.0.1")
  })

  // Issue 21: a request left with no valid input is a usage error (exit 2) that names what is wrong with each input.
  it("an invalid URL as the only input is a usage error naming the scheme rule", async () => {
    const { code, stdout } = await websearch(["fetch", "ftp://example.com/file", "--json"])
    expect(code).toBe(2)
    const out = json(stdout)
    expect(out.error).toMatchObject({ _tag: "UsageError", reason: "usage" })
    expect(String((out.error as { message: string }).message)).toContain("only http and https")
  })

  // Issue 21: --max-results out of range is a usage error (exit 2) naming the flag.
  it("--max-results out of range is a usage error naming the flag", async () => {
    const { code, stdout } = await websearch(["search", "x", "--max-results", "99", "--json"])
    expect(code).toBe(2)
    const out = json(stdout)
    expect(out.error).toMatchObject({ _tag: "UsageError", reason: "usage" })
    expect(String((out.error as { message: string }).message)).toContain("--max-results")
  })

  it.each([
    [["frobnicate"], "unknown command"],
    [["search"], "at least one KEYWORD"],
    [["search", "x", "--max-results", "ten"], "whole number"],
    [["search", "x", "--bogus"], "bogus"],
    [["fetch", "https://a.example", "--max-results", "3"], "does not apply"],
    [["check"], "exactly one provider"]
  ])("usage error %j exits 2 with a JSON error under --json", async (args, fragment) => {
    const plain = await websearch(args)
    expect(plain.code).toBe(2)
    expect(plain.stderr).toContain(fragment)
    const structured = await websearch([...args, "--json"])
    expect(structured.code).toBe(2)
    const out = json(structured.stdout)
    expect(out).toMatchObject({ ok: false, error: { _tag: "UsageError", reason: "usage" }, failures: [] })
  })

  it("providers --json lists every composed provider with key counts, never a key", async () => {
    const secret = "tvly-SECRET-do-not-print-123456"
    const { code, stdout, stderr } = await websearch(["providers", "--json"], {
      TAVILY_API_KEY: `${secret},second-key-abcdef`
    })
    expect(code).toBe(0)
    expect(stdout).not.toContain(secret)
    expect(stderr).not.toContain(secret)
    const out = json(stdout) as { ok: boolean; response: Array<Record<string, unknown>> }
    expect(out.ok).toBe(true)
    const tavily = out.response.find((row) => row.id === "tavily")
    expect(tavily).toMatchObject({ apiKeys: 2 })
    // The binary composes every built-in provider, in catalogue order, the local fetcher included.
    expect(out.response.map((row) => row.id)).toEqual(Presets.all.map((preset) => preset.id))
    const jina = out.response.find((row) => row.id === "jina")
    expect(jina?.capabilities).toEqual([
      { feature: "searchKeywords", apiHost: "https://s.jina.ai" },
      { feature: "fetchUrls", apiHost: "https://r.jina.ai" }
    ])
    const duckduckgo = out.response.find((row) => row.id === "duckduckgo")
    expect(duckduckgo?.defaultFor).toEqual(["searchKeywords"])
  })

  it("providers --provider ID shows one provider in human form", async () => {
    const { code, stdout } = await websearch(["providers", "--provider", "jina"])
    expect(code).toBe(0)
    expect(stdout).toContain("jina")
    expect(stdout).toContain("https://r.jina.ai")
    expect(stdout).not.toContain("tavily")
  })

  it.each([
    [["providers", "--provider", "Not An Id"]],
    [["check", "Not An Id"]],
    [["providers", "--provider", "nope"]]
  ])("an unknown or malformed provider id %j is Unavailable/unknown_provider, exit 1", async (args) => {
    const { code, stdout } = await websearch([...args, "--json"])
    expect(code).toBe(1)
    expect(json(stdout).error).toMatchObject({
      _tag: "Unavailable",
      reason: "unknown_provider",
      providerId: args.at(-1)
    })
  })

  it("a malformed --provider on search is an invalid request naming providerId", async () => {
    const { code, stdout } = await websearch(["search", "x", "--provider", "Not An Id", "--json"])
    expect(code).toBe(1)
    const error = json(stdout).error as { _tag: string; reason: string; message: string }
    expect(error).toMatchObject({ _tag: "RequestFailed", reason: "invalid_input" })
    expect(error.message).toContain("providerId")
  })

  it("--config applies a JSON settings file, and the environment is laid over it", async () => {
    const path = tempFile(
      JSON.stringify({
        defaults: { searchKeywords: "tavily", fetchUrls: null },
        providers: { jina: { capabilities: { fetchUrls: { apiHost: "http://127.0.0.1:9/reader" } } } },
        // A user-set endpoint on a loopback address must be allowlisted (UrlPolicy).
        urlPolicy: { allowHosts: ["127.0.0.1:9"] }
      })
    )
    const listed = json((await websearch(["providers", "--json", "--config", path])).stdout) as {
      response: Array<{ id: string; defaultFor: Array<string>; capabilities: Array<{ apiHost: string }> }>
    }
    expect(listed.response.find((r) => r.id === "tavily")?.defaultFor).toEqual(["searchKeywords"])
    expect(listed.response.find((r) => r.id === "jina")?.capabilities[1].apiHost).toBe("http://127.0.0.1:9/reader")

    const nullDefault = await websearch(["fetch", "https://example.com", "--json", "--config", path])
    expect(nullDefault.code).toBe(1)
    expect(json(nullDefault.stdout).error).toMatchObject({ _tag: "Unavailable", reason: "no_default_provider" })

    const overlaid = await websearch(["search", "x", "--json", "--config", path], {
      WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER: "exa"
    })
    expect(json(overlaid.stdout).error).toMatchObject({ providerId: "exa" })
  })

  it("an invalid settings file fails with Unavailable/invalid_config naming the field", async () => {
    const path = tempFile(JSON.stringify({ providers: { tavily: { capabilities: { research: {} } } }, maxResults: 0 }))
    const { code, stdout } = await websearch(["search", "x", "--json", "--config", path])
    expect(code).toBe(1)
    const error = json(stdout).error as { _tag: string; reason: string; message: string }
    expect(error).toMatchObject({ _tag: "Unavailable", reason: "invalid_config" })
    expect(error.message).toContain("maxResults")
  })

  it("a settings file that is not JSON names the file", async () => {
    const path = tempFile("{ not json")
    const { code, stdout } = await websearch(["providers", "--json", "--config", path])
    expect(code).toBe(1)
    const error = json(stdout).error as { reason: string; message: string }
    expect(error.reason).toBe("invalid_config")
    expect(error.message).toContain(path)
  })

  it("WEBSEARCH_CONFIG names the settings file when --config is absent", async () => {
    const path = tempFile(JSON.stringify({ defaults: { searchKeywords: "brave" } }))
    const { stdout } = await websearch(["search", "x", "--json"], { WEBSEARCH_CONFIG: path })
    expect(json(stdout).error).toMatchObject({ providerId: "brave" })
  })

  it("check reports each capability and exits 1 when one fails", async () => {
    // The Reader is keyless, so it is pointed at a closed loopback port: nothing leaves the machine.
    const { code, stdout } = await websearch(["check", "jina", "--json", "--allow-host", "127.0.0.1:9"], {
      JINA_FETCH_URLS_API_HOST: "http://127.0.0.1:9"
    })
    expect(code).toBe(1)
    const out = json(stdout) as {
      ok: boolean
      response: { ok: boolean; capabilities: Array<{ capability: string; error?: { reason: string } }> }
    }
    expect(out.ok).toBe(true)
    expect(out.response.ok).toBe(false)
    expect(out.response.capabilities.map((c) => [c.capability, c.error?.reason])).toEqual([
      ["searchKeywords", "missing_credentials"],
      ["fetchUrls", "network"]
    ])
  })
})
