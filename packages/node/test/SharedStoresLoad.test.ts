import { describe, expect, it } from "@effect/vitest"
import * as Resolutions from "./support/resolutions.js"

describe("the Redis modules", () => {
  it("are loaded only when a Redis layer is built, not when the stores' modules are imported", () => {
    // The package's barrel and the stores' modules must import without ioredis or @effect/experimental's Redis
    // stores, and building a Redis layer (here against a port nothing listens on, which fails at its PING) must
    // load them, which shows the hook sees the requests.
    const seen = Resolutions.run(
      `specifier === "ioredis" || specifier.endsWith("/Redis")`,
      `await import(${Resolutions.source("src/index.ts")})
      const SharedStores = await import(${Resolutions.source("src/SharedStores.ts")})
      await import(${Resolutions.source("src/ResultCacheStore.ts")})
      const { runPromiseExit, scoped } = await import("effect/Effect")
      const { build } = await import("effect/Layer")
      const { make } = await import("effect/Redacted")
      const imported = resolved()
      const exit = await runPromiseExit(scoped(build(SharedStores.layerRedisUrl(make("redis://127.0.0.1:1/0")))))
      console.log(JSON.stringify({ imported, built: resolved(), failed: exit._tag === "Failure" }))`
    )
    expect(seen.stderr).toBe("")
    const printed = seen.printed as { imported: string; built: string; failed: boolean }
    expect(printed.imported).toBe("")
    expect(printed.built).toContain("ioredis")
    expect(printed.failed).toBe(true)
  })
})
