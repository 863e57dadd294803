/**
 * The persistent cache is shared by every run of the command, whatever configuration each runs with: an answer is
 * served again only to the configuration that got it. Runs of the binary against a local Google Custom Search
 * stand-in that counts its requests: another search engine id (`engineId`) or another basic-auth user is another
 * answer, so it goes to the origin; the same configuration is answered from the cache, with another API key too
 * (the key is not part of the answer). No key, password or engine id is written into the cache's file names or
 * entries as a key.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { websearch } from "./support/process.js"

const fixture = readFileSync(new URL("../../providers/test/fixtures/google_cse.json", import.meta.url), "utf8")

let server: Server
let origin = ""
const seen: Array<{ readonly cx: string | null; readonly authorization: string | undefined }> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    seen.push({ cx: url.searchParams.get("cx"), authorization: request.headers.authorization })
    response.writeHead(200, { "content-type": "application/json" }).end(fixture)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const tempDir = () => mkdtempSync(join(tmpdir(), "websearch-cache-key-"))

describe("the persistent cache's key", { timeout: 240_000 }, () => {
  it("another engine id or basic-auth user is another entry; another API key is the same", async () => {
    const cache = tempDir()
    const configDir = tempDir()
    const run = async (google: Record<string, unknown>) => {
      const config = join(configDir, `config-${seen.length}-${Math.random().toString(36).slice(2)}.json`)
      writeFileSync(
        config,
        JSON.stringify({
          cache: { persistent: true },
          urlPolicy: { allowHosts: ["127.0.0.1"] },
          providers: {
            google: {
              apiKeys: ["google-key-one-0123"],
              capabilities: { searchKeywords: { apiHost: origin } },
              ...google
            }
          }
        })
      )
      const before = seen.length
      const ran = await websearch(
        ["search", "effect layers", "--provider", "google", "--json", "--allow-host", "127.0.0.1"],
        { XDG_CACHE_HOME: cache, WEBSEARCH_CONFIG: config }
      )
      expect(ran.code).toBe(0)
      return seen.length - before
    }
    expect(await run({ engineId: "engine-one-cx" })).toBe(1)
    expect(await run({ engineId: "engine-one-cx" })).toBe(0)
    // Another engine: another answer, from the origin.
    expect(await run({ engineId: "engine-two-cx" })).toBe(1)
    expect(seen.at(-1)?.cx).toBe("engine-two-cx")
    // Another key of the same account and engine: the cached answer.
    expect(await run({ engineId: "engine-one-cx", apiKeys: ["google-key-two-0123"] })).toBe(0)
    // A basic-auth user changes who asks: each user gets its own entry.
    const alice = { engineId: "engine-one-cx", basicAuthUsername: "alice", basicAuthPassword: "alice-secret-pw" }
    expect(await run(alice)).toBe(1)
    expect(await run(alice)).toBe(0)
    expect(await run({ ...alice, basicAuthUsername: "bob" })).toBe(1)
    const files = readdirSync(join(cache, "websearch"))
    expect(files).toHaveLength(4)
    const written = files.map((file) => file + readFileSync(join(cache, "websearch", file), "utf8")).join("\n")
    for (const secret of ["google-key", "alice-secret-pw", "engine-one-cx", "engine-two-cx"]) {
      expect(written).not.toContain(secret)
    }
  })
})
