/**
 * What an MCP session keeps of the pages it read costs what it is counted at. A session reads 100 distinct pages
 * of a million characters, in a child process with `--expose-gc` so the heap is measured after full collections:
 * the heap the reads leave behind stays within the bounds that apply (the core page store's and the session's),
 * where slices of the pages, each keeping its whole page alive, once held about a megabyte per page read.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"

const script = fileURLToPath(new URL("./support/sessionMemory.ts", import.meta.url))
const guard = fileURLToPath(new URL("../../../test-support/loopbackGuard.js", import.meta.url))

interface Measured {
  readonly pages: number
  readonly fetches: number
  readonly retained: number
  readonly pageStoreBound: number
  readonly sessionBound: number
}

const measure = (): Promise<Measured> =>
  new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ["--expose-gc", "--conditions=@websearch/source", "--import", "tsx", "--import", guard, script],
      { env: { PATH: process.env.PATH ?? "", PAGES: "100", PAGE_CHARS: "1000000" }, timeout: 170_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))
    )
  )

describe("the memory an MCP session keeps", () => {
  it("100 long pages read in one session leave no more heap than the page store and session bounds", async () => {
    const measured = await measure()
    expect(measured.fetches).toBe(101)
    // The bounds count two bytes a character; these pages are one byte a character in V8, so a store at its bound
    // holds half of it: the bound is a ceiling with room for the server's own allocations.
    expect(measured.retained).toBeLessThan(measured.pageStoreBound + measured.sessionBound)
  }, 180_000)
})
