import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Redacted from "effect/Redacted"
import * as SecretBox from "../src/internal/secretBox.js"

const keyOf = (bytes: Uint8Array) =>
  Either.getOrThrow(SecretBox.parseKey("key", Redacted.make(Buffer.from(bytes).toString("base64"))))
const keyBytes = FastCheck.uint8Array({ minLength: 32, maxLength: 32 })
const part = FastCheck.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/)
const place = FastCheck.record({ workspace: part, id: part, field: FastCheck.constantFrom("settings", "credentials") })

describe("the provider store's secret box (AES-256-GCM)", () => {
  it.prop(
    "any text sealed for a place opens there, and the sealed value shows neither the text nor the key",
    { bytes: keyBytes, place, text: FastCheck.string({ unit: "grapheme", maxLength: 300 }) },
    ({ bytes, place, text }) => {
      const ring = SecretBox.keyring(keyOf(bytes), [])
      const sealed = SecretBox.seal(ring, place, text)
      expect(SecretBox.open(ring, place, sealed)).toEqual(Either.right(text))
      expect(sealed.startsWith(`v1.${ring.current.id}.`)).toBe(true)
      if (text.length >= 8) expect(sealed).not.toContain(text)
      expect(sealed).not.toContain(Buffer.from(bytes).toString("base64"))
      // A new random IV each time: the same text never seals to the same value.
      expect(SecretBox.seal(ring, place, text)).not.toBe(sealed)
    }
  )

  it.prop(
    "a value sealed for one place does not open at any other (another workspace, instance or field)",
    { bytes: keyBytes, from: place, to: place, text: FastCheck.string() },
    ({ bytes, from, text, to }) => {
      if (from.workspace === to.workspace && from.id === to.id && from.field === to.field) return
      const ring = SecretBox.keyring(keyOf(bytes), [])
      const opened = SecretBox.open(ring, to, SecretBox.seal(ring, from, text))
      expect(opened).toEqual(Either.left({ _tag: "Rejected", keyId: ring.current.id }))
    }
  )

  it.prop(
    "previous keys open what they sealed; without them the key is unknown; a flipped byte is rejected",
    { old: keyBytes, current: keyBytes, place, text: FastCheck.string(), flip: FastCheck.nat() },
    ({ current, flip, old, place, text }) => {
      const oldKey = keyOf(old)
      const currentKey = keyOf(current)
      if (oldKey.id === currentKey.id) return
      const sealed = SecretBox.seal(SecretBox.keyring(oldKey, []), place, text)
      expect(SecretBox.open(SecretBox.keyring(currentKey, [oldKey]), place, sealed)).toEqual(Either.right(text))
      expect(SecretBox.open(SecretBox.keyring(currentKey, []), place, sealed)).toEqual(
        Either.left({ _tag: "UnknownKey", keyId: oldKey.id })
      )
      const [version, keyId, iv, body] = sealed.split(".") as [string, string, string, string]
      const bytes = Buffer.from(body, "base64url")
      bytes[flip % bytes.length] ^= 1
      const tampered = [version, keyId, iv, bytes.toString("base64url")].join(".")
      expect(SecretBox.open(SecretBox.keyring(oldKey, []), place, tampered)).toEqual(
        Either.left({ _tag: "Rejected", keyId: oldKey.id })
      )
    }
  )

  it.prop(
    "a key is exactly 32 bytes of base64 or base64url; anything else fails naming the option, never echoing it",
    { bytes: FastCheck.uint8Array({ minLength: 0, maxLength: 64 }), url: FastCheck.boolean() },
    ({ bytes, url }) => {
      const text = Buffer.from(bytes).toString(url ? "base64url" : "base64")
      const parsed = SecretBox.parseKey("WEBSEARCH_PROVIDER_STORE_KEY", Redacted.make(text))
      if (bytes.length === 32) {
        expect(Either.map(parsed, (key) => key.id)).toEqual(Either.right(SecretBox.keyIdOf(Buffer.from(bytes))))
      } else {
        const error = Either.getLeft(parsed)
        expect(error._tag).toBe("Some")
        if (error._tag === "Some") {
          expect([error.value.reason, error.value.message.split(" ")[0]]).toEqual([
            "invalid_config",
            "WEBSEARCH_PROVIDER_STORE_KEY"
          ])
          if (text.length >= 12) expect(error.value.message).not.toContain(text)
        }
      }
    }
  )

  it("a malformed sealed value is reported as such", () => {
    const ring = SecretBox.keyring(keyOf(new Uint8Array(32)), [])
    const where = { workspace: "w", id: "i", field: "settings" }
    for (const bad of ["", "plain text", "v2.a.b.c", `v1.${ring.current.id}.short.c`, `v1.${ring.current.id}.!!.??`]) {
      expect(SecretBox.open(ring, where, bad)).toEqual(Either.left({ _tag: "Malformed" }))
    }
  })
})
