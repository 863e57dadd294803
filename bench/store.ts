/**
 * What a workspace's instances cost the server that reads them (`ProviderStoreSql` on a SQLite file): every search
 * of a workspace whose instances changed lists them again (each decrypted), and a create counts them. Measured: the
 * list of 100 instances at the size bound (16 KiB of settings and 16 KiB of credentials each) against 100 bare
 * instances, and the create cap's count against the list it replaced. Medians of timed rounds.
 *
 *   npm run bench -- store
 */
import type * as ProviderStore from "../packages/core/src/ProviderStore.js"
import * as ProviderStoreRules from "../packages/core/src/internal/providerStoreRules.js"
import * as ProviderStoreSql from "../packages/node/src/ProviderStoreSql.js"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const instances = 100
const rounds = 30

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const time = async (run: () => Promise<unknown>): Promise<number> => {
  for (let i = 0; i < 3; i++) await run()
  const times: Array<number> = []
  for (let i = 0; i < rounds; i++) {
    const start = performance.now()
    await run()
    times.push(performance.now() - start)
  }
  return median(times)
}

/** An instance's settings and credentials as large as the store takes (just under `maxFieldBytes` each). */
const largest = (i: number): ProviderStore.CreateInstance => ({
  id: `big-${i}`,
  type: "searxng",
  settings: { options: { blob: "s".repeat(ProviderStoreRules.maxFieldBytes - 64) } },
  credentials: {
    apiKeys: Array.from({ length: 16 }, (_, k) =>
      Redacted.make(`${k}-${"k".repeat(Math.floor(ProviderStoreRules.maxFieldBytes / 16) - 40)}`)
    )
  }
})

const bare = (i: number): ProviderStore.CreateInstance => ({
  id: `bare-${i}`,
  type: "searxng",
  settings: {},
  credentials: {}
})

export interface Figures {
  readonly listLargest: number
  readonly listBare: number
  readonly count: number
}

export const measure = async (): Promise<Figures> => {
  const dir = mkdtempSync(join(tmpdir(), "websearch-bench-store-"))
  try {
    return await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const store = yield* ProviderStoreSql.make({
            url: join(dir, "providers.db"),
            encryptionKey: ProviderStoreSql.generateKey()
          })
          for (let i = 0; i < instances; i++) {
            yield* store.create("large", largest(i))
            yield* store.create("bare", bare(i))
          }
          const run =
            <A, E>(effect: Effect.Effect<A, E>) =>
            () =>
              Effect.runPromise(effect)
          return {
            listLargest: yield* Effect.promise(() => time(run(store.list("large")))),
            listBare: yield* Effect.promise(() => time(run(store.list("bare")))),
            count: yield* Effect.promise(() => time(run(store.count("large"))))
          }
        })
      )
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
