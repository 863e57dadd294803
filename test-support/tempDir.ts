/**
 * A directory of the test's own under the system's temporary directory, removed with everything in it when the
 * test's scope closes (a store's file, a data home).
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** A fresh directory named `prefix` and a random tail, for the scope's lifetime. */
export const scoped = (prefix: string): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), prefix))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
