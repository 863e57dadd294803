/**
 * Keeps the process's stdout for what websearch itself prints. While the guard is held, any other write to
 * `process.stdout` (a provider module's `console.log`, at import, at build or during a call) goes to stderr
 * instead; writes made through `passThrough` still reach stdout. `websearch mcp` over stdio holds it for the whole
 * session, since there stdout is the protocol channel and one stray line breaks the client; every command holds it
 * while provider modules are listed (and a module's import and build hold it anyway), so `--json` stays one JSON
 * object.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"

type Write = typeof process.stdout.write

let holders = 0
let passing = 0
let original: Write | undefined

type AnyWrite = (...args: Array<unknown>) => boolean

// Everything a stream's `write` takes is handed on unchanged, to stdout or to stderr.
const redirected = ((...args: Array<unknown>): boolean =>
  passing > 0 && original !== undefined
    ? (original as AnyWrite).apply(process.stdout, args)
    : (process.stderr.write as AnyWrite).apply(process.stderr, args)) as Write

const hold = () => {
  if (holders++ === 0) {
    original = process.stdout.write
    process.stdout.write = redirected
  }
}

const release = () => {
  if (--holders === 0 && original !== undefined) {
    process.stdout.write = original
    original = undefined
  }
}

/** Holds the guard until the scope closes (held once per holder; stdout is restored when the last one lets go). */
export const guarded: Effect.Effect<void, never, Scope.Scope> = Effect.acquireRelease(Effect.sync(hold), () =>
  Effect.sync(release)
)

/** Runs `effect` with the guard held. */
export const around = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.acquireUseRelease(
    Effect.sync(hold),
    () => effect,
    () => Effect.sync(release)
  )

/** A writer whose text reaches stdout even while the guard is held (what websearch itself prints). */
export const passThrough =
  (write: (text: string) => void) =>
  (text: string): void => {
    passing++
    try {
      write(text)
    } finally {
      passing--
    }
  }
