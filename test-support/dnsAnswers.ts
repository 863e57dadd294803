/**
 * Names that resolve where a test says, through the process's own resolver (`dns.promises.lookup`, which the
 * transports read at call time): for proving what happens to a name that looks public and resolves to a loopback
 * or private address, with no real DNS. Every other name goes to the resolver as it was (the loopback guard's).
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import dns from "node:dns"

/** An answer of the stubbed resolver. */
export interface Answer {
  readonly address: string
  readonly family: 4 | 6
}

/** Makes `answers`' names resolve to their answers until the returned function is called. */
export const install = (answers: Readonly<Record<string, Answer>>): (() => void) => {
  const original = dns.promises.lookup
  Object.assign(dns.promises, {
    lookup: (hostname: string, ...rest: Array<unknown>) => {
      const answer = Object.hasOwn(answers, hostname) ? answers[hostname] : undefined
      return answer !== undefined
        ? Promise.resolve([answer])
        : Reflect.apply(original, dns.promises, [hostname, ...rest])
    }
  })
  return () => {
    Object.assign(dns.promises, { lookup: original })
  }
}

/** `install` for the scope's lifetime: the resolver is restored when the scope closes. */
export const scoped = (answers: Readonly<Record<string, Answer>>): Effect.Effect<void, never, Scope.Scope> =>
  Effect.asVoid(
    Effect.acquireRelease(
      Effect.sync(() => install(answers)),
      (restore) => Effect.sync(restore)
    )
  )
