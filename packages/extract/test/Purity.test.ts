import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

// The package runs in browsers and edge runtimes: its sources may use web APIs only.
const srcDir = fileURLToPath(new URL("../src/", import.meta.url))
const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(`${dir}${entry.name}/`) : entry.name.endsWith(".ts") ? [`${dir}${entry.name}`] : []
  )

describe("@websearch/extract sources", () => {
  it("use no Node APIs", () => {
    const files = sources(srcDir)
    expect(files.length).toBeGreaterThan(5)
    for (const file of files) {
      const code = readFileSync(file, "utf8")
      expect(code, file).not.toMatch(/from\s+["']node:|require\(|import\(["']node:/)
      expect(code, file).not.toMatch(/\bBuffer\b|\bprocess\.|__dirname|\bsetImmediate\b/)
      expect(code, file).not.toMatch(/from\s+["'](?:fs|path|os|crypto|stream|worker_threads|child_process)["']/)
    }
  })
})
