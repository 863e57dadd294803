/**
 * The provider store's encryption at rest: AES-256-GCM (node:crypto) under a 32-byte key from configuration, a
 * random 12-byte IV per value, and the value's place (workspace, instance id, field) as additional authenticated
 * data, so a ciphertext copied to another row or column fails to open instead of lending its secret there. Each
 * sealed value names the key it was sealed under (the first 8 hex digits of the key's SHA-256), so rows written
 * under a previous key stay readable while `previousKeys` lists it, and a rotation knows which rows to re-seal.
 *
 * A sealed value is `v1.<key id>.<iv, base64url>.<ciphertext and tag, base64url>`.
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

const algorithm = "aes-256-gcm"
const ivBytes = 12
const tagBytes = 16
const keyBytes = 32
const version = "v1"

/** A key, its bytes kept off every printable surface. */
export interface Key {
  readonly id: string
  readonly bytes: Redacted.Redacted<Buffer>
}

/** The key new values are sealed under, and every key a stored value may have been sealed under. */
export interface Keyring {
  readonly current: Key
  readonly byId: ReadonlyMap<string, Key>
}

/** Where a sealed value lives: what its additional authenticated data binds it to. */
export interface Place {
  readonly workspace: string
  readonly id: string
  readonly field: string
}

/** Why a value did not open: its key is not in the keyring, or it fails authentication. */
export type OpenFailure =
  | { readonly _tag: "UnknownKey"; readonly keyId: string }
  | { readonly _tag: "Malformed" }
  | { readonly _tag: "Rejected"; readonly keyId: string }

const base64Text = /^[A-Za-z0-9+/]*={0,2}$/
const base64UrlText = /^[A-Za-z0-9_-]*$/

/** The key id of 32 key bytes: not secret (32 bits of a hash of 256 random bits), enough to tell keys apart. */
export const keyIdOf = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex").slice(0, 8)

/**
 * Reads a key: the base64 (or base64url) of exactly 32 bytes. A bad key fails `Unavailable/invalid_config` naming
 * `name` (the variable or option it came from), never echoing the value.
 */
export const parseKey = (
  name: string,
  key: Redacted.Redacted<string>
): Either.Either<Key, WebSearchError.Unavailable> => {
  const text = Redacted.value(key).trim()
  const wellFormed = text.length <= 64 && (base64Text.test(text) || base64UrlText.test(text))
  const bytes = wellFormed ? Buffer.from(text, base64UrlText.test(text) ? "base64url" : "base64") : Buffer.alloc(0)
  if (bytes.length !== keyBytes) {
    return Either.left(
      WebSearchError.unavailable(
        "invalid_config",
        `${name} must be the base64 of exactly ${keyBytes} random bytes (generate one with ` +
          "`openssl rand -base64 32`)"
      )
    )
  }
  return Either.right({ id: keyIdOf(bytes), bytes: Redacted.make(bytes) })
}

/** The keyring of a current key and previous ones (a previous key equal to the current one is harmless). */
export const keyring = (current: Key, previous: ReadonlyArray<Key>): Keyring => {
  const byId = new Map<string, Key>()
  for (const key of previous) byId.set(key.id, key)
  byId.set(current.id, current)
  return { current, byId }
}

/** A new random key, as the base64 text the configuration takes. */
export const generate = (): Redacted.Redacted<string> => Redacted.make(randomBytes(keyBytes).toString("base64"))

// NUL cannot occur in a workspace id, an instance id or a field name, so the three parts cannot run into each other.
const aad = (place: Place): Buffer =>
  Buffer.from(`websearch-provider-store\u0000${place.workspace}\u0000${place.id}\u0000${place.field}`, "utf8")

/** Seals `plaintext` under the keyring's current key for `place`. */
export const seal = (ring: Keyring, place: Place, plaintext: string): string => {
  const iv = randomBytes(ivBytes)
  const cipher = createCipheriv(algorithm, Redacted.value(ring.current.bytes), iv, { authTagLength: tagBytes })
  cipher.setAAD(aad(place))
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()])
  return `${version}.${ring.current.id}.${iv.toString("base64url")}.${body.toString("base64url")}`
}

/** The id of the key a sealed value names, if it is one. */
export const sealedKeyId = (sealed: string): string | undefined => {
  const parts = sealed.split(".")
  return parts.length === 4 && parts[0] === version ? parts[1] : undefined
}

/** How many characters of a sealed value name its key (`v1.<8 hex digits>.`): what a store reads to list keys. */
export const headLength = version.length + 10

/** The key id a sealed value's first `headLength` characters name, if they are a head this module writes. */
export const keyIdOfHead = (head: string): string | undefined =>
  head.length === headLength &&
  head.startsWith(`${version}.`) &&
  head.endsWith(".") &&
  /^[0-9a-f]{8}$/.test(head.slice(3, 11))
    ? head.slice(3, 11)
    : undefined

/** Opens a value sealed for `place`. */
export const open = (ring: Keyring, place: Place, sealed: string): Either.Either<string, OpenFailure> => {
  const parts = sealed.split(".")
  if (parts.length !== 4 || parts[0] !== version) return Either.left({ _tag: "Malformed" })
  const [, keyId, ivText, bodyText] = parts as [string, string, string, string]
  const key = ring.byId.get(keyId)
  if (key === undefined) return Either.left({ _tag: "UnknownKey", keyId })
  if (!base64UrlText.test(ivText) || !base64UrlText.test(bodyText)) return Either.left({ _tag: "Malformed" })
  const iv = Buffer.from(ivText, "base64url")
  const body = Buffer.from(bodyText, "base64url")
  if (iv.length !== ivBytes || body.length < tagBytes) return Either.left({ _tag: "Malformed" })
  try {
    const decipher = createDecipheriv(algorithm, Redacted.value(key.bytes), iv, { authTagLength: tagBytes })
    decipher.setAAD(aad(place))
    decipher.setAuthTag(body.subarray(body.length - tagBytes))
    const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - tagBytes)), decipher.final()])
    return Either.right(plain.toString("utf8"))
  } catch {
    return Either.left({ _tag: "Rejected", keyId })
  }
}

/** What an operator reads when a value does not open: which key, never the value or the key. */
export const describeFailure = (failure: OpenFailure): string => {
  switch (failure._tag) {
    case "UnknownKey":
      return `it was encrypted under key ${failure.keyId}, which is neither the current key nor one of the previous keys`
    case "Malformed":
      return "it is not a value this store wrote"
    case "Rejected":
      return `it fails authentication under key ${failure.keyId} (a different key with the same id, or a value moved from another row)`
  }
}
