import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const source = (path: string) => JSON.stringify(new URL(path, import.meta.url).href)

describe("the Redis modules", () => {
  it("are loaded only when a Redis layer is built, not when the stores' modules are imported", () => {
    // A child process whose module resolution hook notes every request for ioredis or @effect/experimental's Redis
    // stores: the package's barrel and the stores' modules must import without them, and building a Redis layer
    // (here against a port nothing listens on, which fails at its PING) must load them, which shows the hook sees
    // the requests.
    const dir = mkdtempSync(join(tmpdir(), "websearch-redis-load-"))
    const log = join(dir, "resolved")
    const hooks =
      `import { appendFileSync } from "node:fs"; let file; export const initialize = (data) => { file = data.file }; ` +
      `export const resolve = (specifier, context, next) => { if (specifier === "ioredis" || ` +
      `specifier.endsWith("/Redis")) appendFileSync(file, specifier + "\\n"); return next(specifier, context) }`
    const script = `
      import { register } from "node:module"
      import { readFileSync, writeFileSync } from "node:fs"
      writeFileSync(${JSON.stringify(log)}, "")
      register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}, { data: { file: ${JSON.stringify(log)} } })
      await import(${source("../src/index.ts")})
      const SharedStores = await import(${source("../src/SharedStores.ts")})
      await import(${source("../src/ResultCacheStore.ts")})
      const { runPromiseExit, scoped } = await import("effect/Effect")
      const { build } = await import("effect/Layer")
      const { make } = await import("effect/Redacted")
      const imported = readFileSync(${JSON.stringify(log)}, "utf8")
      const exit = await runPromiseExit(scoped(build(SharedStores.layerRedisUrl(make("redis://127.0.0.1:1/0")))))
      console.log(JSON.stringify({ imported, built: readFileSync(${JSON.stringify(log)}, "utf8"), failed: exit._tag === "Failure" }))`
    try {
      const child = spawnSync(
        process.execPath,
        ["--conditions=@websearch/source", "--import", "tsx", "--input-type=module", "-e", script],
        { encoding: "utf8", timeout: 60_000 }
      )
      expect(child.stderr).toBe("")
      const seen = JSON.parse(child.stdout) as { imported: string; built: string; failed: boolean }
      expect(seen.imported).toBe("")
      expect(seen.built).toContain("ioredis")
      expect(seen.failed).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
