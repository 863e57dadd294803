/**
 * The API reference's script (Scalar, a 3.4 MB module) and the page built from it are loaded on the first request
 * for `/docs`, not when the server starts: a child process records the modules it resolves (support/docsLoading.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))
const child = fileURLToPath(new URL("./support/docsLoading.ts", import.meta.url))

describe("GET /docs", () => {
  it("loads Scalar on the first request for the page, not when the server starts", () => {
    const run = spawnSync(
      process.execPath,
      ["--import", guard, "--conditions=@websearch/source", "--import", "tsx", child],
      { encoding: "utf8", timeout: 120_000 }
    )
    expect(run.stderr).toBe("")
    const outcome = JSON.parse(run.stdout) as {
      health: number
      atStart: Array<string>
      docs: number
      docsHasScalar: boolean
      again: number
      afterDocs: Array<string>
    }
    expect(outcome).toMatchObject({ health: 200, atStart: [], docs: 200, docsHasScalar: true, again: 200 })
    expect(outcome.afterDocs.some((url) => url.includes("HttpApiScalar"))).toBe(true)
  }, 150_000)
})
