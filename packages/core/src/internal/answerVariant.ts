/**
 * What of a provider's configuration, beyond its id, endpoint and engines, can change its answers: its own options
 * (a Google engine id, SearXNG's categories), the basic-auth user, the model, the proxy its calls go through and,
 * for an instance, the type it configures. A result cache keys its entries on it, so a store that outlives one
 * configuration (the command line's cache files, a shared Redis) never answers another configuration from its
 * entry. It is a SHA-256 digest, so a secret in it (a proxy's password) never reaches a key. API keys and the
 * basic-auth password are left out: another key of the same account gets the same answers.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { ResolvedProvider } from "../ProviderConfig.js"

// Plain objects with their keys sorted, so the same options written in another order give the same text. A value
// that is not plain data (a Redacted, a Duration) is written as its `toJSON` says, which never shows a secret.
const canonical = (_key: string, value: unknown): unknown => {
  if (typeof value === "bigint") return `${value}n`
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value
  if (Object.getPrototypeOf(value) !== Object.prototype) return value
  const record = value as Record<string, unknown>
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]])
  )
}

/** The text the digest is taken of, or none when nothing beyond the id, endpoint and engines is configured. */
export const describe = (provider: ResolvedProvider): string | undefined => {
  const parts = [
    provider.instanceOf ?? null,
    Option.getOrNull(Option.map(provider.basicAuth, (auth) => auth.username)),
    Option.getOrNull(provider.model),
    Option.getOrNull(Option.map(provider.proxyUrl, Redacted.value)),
    provider.options === undefined ? null : provider.options
  ]
  if (parts.every((part) => part === null)) return undefined
  try {
    return JSON.stringify(parts, canonical)
  } catch {
    // Options that are not data (a cycle): a configuration of its own, which shares no entry with any other.
    return `unshareable ${crypto.randomUUID()}`
  }
}

// A resolved provider is built once per configuration (per instance revision for a call's instances): its digest
// is taken once, on its first cached call.
const digests = new WeakMap<ResolvedProvider, string | undefined>()

const hex = (buffer: ArrayBuffer): string =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("")

/** The digest of the provider's answer-changing configuration (128 bits, hex), or none when it has none. */
export const variantOf = (provider: ResolvedProvider): Effect.Effect<string | undefined> => {
  if (digests.has(provider)) return Effect.succeed(digests.get(provider))
  const text = describe(provider)
  if (text === undefined) {
    digests.set(provider, undefined)
    return Effect.succeed(undefined)
  }
  return Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).pipe(
    Effect.map((buffer) => {
      const digest = hex(buffer).slice(0, 32)
      digests.set(provider, digest)
      return digest
    })
  )
}
